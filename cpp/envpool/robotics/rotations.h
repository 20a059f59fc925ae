// gymnasium-robotics' rotation helpers (utils/rotations.py) for one rotation,
// in numpy's arithmetic: the same products and sums in the same order, and
// numpy's own sin, cos and arctan2 loops.
#ifndef ENVPOOL_ROBOTICS_ROTATIONS_H_
#define ENVPOOL_ROBOTICS_ROTATIONS_H_

#include <array>
#include <cmath>
#include <limits>

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

}  // namespace envpool::robotics

#endif  // ENVPOOL_ROBOTICS_ROTATIONS_H_
