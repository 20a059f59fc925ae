// gymnasium-robotics' rotation helpers (utils/rotations.py) for one rotation,
// in numpy's arithmetic: the same products and sums in the same order, and
// numpy's own sin, cos and arctan2 loops.
#ifndef ENVPOOL_ROBOTICS_ROTATIONS_H_
#define ENVPOOL_ROBOTICS_ROTATIONS_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <vector>

#include "envpool/numpy/sum.h"
#include "envpool/numpy/ufuncs.h"

namespace envpool::robotics {

using Vec3 = std::array<double, 3>;
using Quat = std::array<double, 4>;  // w, x, y, z
using Mat3 = std::array<double, 9>;  // row-major

// mat2euler of a row-major 3x3 rotation matrix.
inline Vec3 Mat2Euler(const double* m) {
  constexpr double kEps4 = std::numeric_limits<double>::epsilon() * 4.0;
  const double cy = std::sqrt(m[8] * m[8] + m[5] * m[5]);
  const bool upright = cy > kEps4;
  return {upright ? -NpArctan2(m[5], m[8]) : 0.0, -NpArctan2(-m[2], cy),
          upright ? -NpArctan2(m[1], m[0]) : -NpArctan2(-m[3], m[4])};
}

// quat2mat: the identity for a quaternion of (near) zero norm.
inline Mat3 Quat2Mat(const Quat& q) {
  const double nq = NumpySumOfSquares(q.data(), q.size());
  if (!(nq > std::numeric_limits<double>::epsilon())) {
    return {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
  }
  const double s = 2.0 / nq;
  const double w = q[0];
  const double x = q[1];
  const double y = q[2];
  const double z = q[3];
  const double big_x = x * s;
  const double big_y = y * s;
  const double big_z = z * s;
  const double wx = w * big_x;
  const double wy = w * big_y;
  const double wz = w * big_z;
  const double xx = x * big_x;
  const double xy = x * big_y;
  const double xz = x * big_z;
  const double yy = y * big_y;
  const double yz = y * big_z;
  const double zz = z * big_z;
  return {1.0 - (yy + zz), xy - wz, xz + wy, xy + wz,        1.0 - (xx + zz),
          yz - wx,         xz - wy, yz + wx, 1.0 - (xx + yy)};
}

inline Vec3 Quat2Euler(const Quat& q) { return Mat2Euler(Quat2Mat(q).data()); }

// euler2mat: a row-major rotation matrix.
inline Mat3 Euler2Mat(const Vec3& euler) {
  const double ai = -euler[2];
  const double aj = -euler[1];
  const double ak = -euler[0];
  const double si = NpSin(ai);
  const double sj = NpSin(aj);
  const double sk = NpSin(ak);
  const double ci = NpCos(ai);
  const double cj = NpCos(aj);
  const double ck = NpCos(ak);
  const double cc = ci * ck;
  const double cs = ci * sk;
  const double sc = si * ck;
  const double ss = si * sk;
  return {cj * ci,      cj * si,      -sj,      // row 0
          sj * cs - sc, sj * ss + cc, cj * sk,  // row 1
          sj * cc + ss, sj * sc - cs, cj * ck};
}

// quat_mul(q0, q1): each component's four products added left to right.
inline Quat QuatMul(const Quat& q0, const Quat& q1) {
  const auto [w0, x0, y0, z0] = q0;
  const auto [w1, x1, y1, z1] = q1;
  return {w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
          w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
          w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1,
          w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1};
}

inline Quat QuatConjugate(const Quat& q) { return {q[0], -q[1], -q[2], -q[3]}; }

// euler2quat.
inline Quat Euler2Quat(const Vec3& euler) {
  const double ai = euler[2] / 2;
  const double aj = -euler[1] / 2;
  const double ak = euler[0] / 2;
  const double si = NpSin(ai);
  const double sj = NpSin(aj);
  const double sk = NpSin(ak);
  const double ci = NpCos(ai);
  const double cj = NpCos(aj);
  const double ck = NpCos(ak);
  const double cc = ci * ck;
  const double cs = ci * sk;
  const double sc = si * ck;
  const double ss = si * sk;
  return {cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc),
          cj * sc - sj * cs};
}

// get_parallel_rotations: the 24 axis-aligned rotations as Euler angles, in
// its order (Euler triples of multiples of pi/2, canonicalised and deduped).
inline std::vector<Vec3> ParallelRotations() {
  constexpr double kQuarter = std::numbers::pi / 2;
  const std::array<double, 4> mult90{0.0, kQuarter, -kQuarter,
                                     std::numbers::pi};
  std::vector<Vec3> rotations;
  for (double a : mult90) {
    for (double b : mult90) {
      for (double c : mult90) {
        Vec3 canonical = Mat2Euler(Euler2Mat({a, b, c}).data());
        for (double& v : canonical) {
          v = std::nearbyint(v / kQuarter);  // np.round: half to even
        }
        for (std::size_t i : {0U, 2U}) {
          if (canonical[i] == -2.0) {
            canonical[i] = 2.0;
          }
        }
        for (double& v : canonical) {
          v *= kQuarter;
        }
        if (std::ranges::find(rotations, canonical) == rotations.end()) {
          rotations.push_back(canonical);
        }
      }
    }
  }
  return rotations;
}

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ROTATIONS_H_
