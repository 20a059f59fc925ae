// The track that MountainCar-v0 and MountainCarContinuous-v0 both drive on
// (gymnasium 1.4's mountain_car.py and continuous_mountain_car.py), and their
// common observation: (position, velocity).
#ifndef ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_TRACK_H_
#define ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_TRACK_H_

#include "envpool/classic_control/obs_state.h"
#include "envpool/core/array_spec.h"
#include "envpool/core/output.h"
#include "envpool/core/render_scene.h"

namespace envpool::classic_control {

struct MountainTrack {
  static constexpr double kMinPosition = -1.2;
  static constexpr double kMaxPosition = 0.6;
  static constexpr double kMaxSpeed = 0.07;

  // The observation, its bounds float32 as in gymnasium's Box.
  static ArraySpec ObsSpec() {
    const double low_position = static_cast<float>(kMinPosition);
    const double high_position = static_cast<float>(kMaxPosition);
    const double speed = static_cast<float>(kMaxSpeed);
    return MakeArray<float>("obs", {2}, {low_position, -speed},
                            {high_position, speed});
  }

  static ArraySpec StateSpec() { return MakeArray<double>("state", {2}); }

  // A frame's numbers (core/render_scene.h): the car's position, whether
  // gymnasium holds it as float32, and where the flag stands.
  static constexpr std::size_t kSceneValues = 3;

  static void Write(Output& out, double position, double velocity) {
    WriteObsAndState(out, {position, velocity});
  }
};

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_MOUNTAIN_TRACK_H_
