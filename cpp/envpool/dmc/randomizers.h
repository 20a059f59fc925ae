// dm_control's suite/utils/randomizers.py: random joint angles within limits.
#ifndef ENVPOOL_DMC_RANDOMIZERS_H_
#define ENVPOOL_DMC_RANDOMIZERS_H_

#include <mujoco/mujoco.h>

#include <array>
#include <numbers>

#include "envpool/core/rng.h"
#include "envpool/dmc/physics.h"
#include "envpool/dmc/rewards.h"
#include "envpool/numpy/linalg.h"

namespace envpool::dmc {

// A unit quaternion rotating by up to `limit` radians about a random axis.
inline std::array<double, 4> RandomLimitedQuaternion(Rng& rng, double limit) {
  std::array<double, 3> axis{rng.Normal(), rng.Normal(), rng.Normal()};
  const double norm = NpNorm(axis);
  for (double& a : axis) {
    a /= norm;
  }
  const double angle = rng.Uniform() * limit;
  std::array<double, 4> quat{};
  mju_axisAngle2Quat(quat.data(), axis.data(), angle);
  return quat;
}

// A random unit quaternion from 4 draws of `draw`, normalised.
template <typename Draw>
std::array<double, 4> RandomUnitQuaternion(Draw draw) {
  std::array<double, 4> quat{draw(), draw(), draw(), draw()};
  const double norm = NpNorm(quat);
  for (double& q : quat) {
    q /= norm;
  }
  return quat;
}

// Limited hinges and slides uniformly within their range, limited balls by
// a random rotation up to their limit, free hinges uniformly in [-pi, pi),
// free balls and free joints' orientations by a random quaternion.
inline void RandomizeLimitedAndRotationalJoints(Physics& physics, Rng& rng) {
  const mjModel& m = physics.model();
  double* qpos = physics.data().qpos;
  for (int j = 0; j < m.njnt; ++j) {
    const int type = m.jnt_type[j];
    const double low = m.jnt_range[2 * j];
    const double high = m.jnt_range[2 * j + 1];
    double* q = qpos + m.jnt_qposadr[j];
    if (m.jnt_limited[j] != 0) {
      if (type == mjJNT_HINGE || type == mjJNT_SLIDE) {
        q[0] = rng.Uniform(low, high);
      } else if (type == mjJNT_BALL) {
        const auto quat = RandomLimitedQuaternion(rng, high);
        std::copy(quat.begin(), quat.end(), q);
      }
    } else if (type == mjJNT_HINGE) {
      q[0] = rng.Uniform(-std::numbers::pi, std::numbers::pi);
    } else if (type == mjJNT_BALL) {
      const auto quat = RandomUnitQuaternion([&] { return rng.Normal(); });
      std::copy(quat.begin(), quat.end(), q);
    } else if (type == mjJNT_FREE) {
      const auto quat = RandomUnitQuaternion([&] { return rng.Uniform(); });
      std::copy(quat.begin(), quat.end(), q + 3);
    }
  }
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_RANDOMIZERS_H_
