// The classic-control frames are drawn in Python with pygame, as gymnasium
// draws them (envpool/families/classic_control/frames.py), from the few
// numbers gymnasium's render() reads. Render writes those numbers as float64;
// a flag among them says where gymnasium holds the state as float32, since
// the frame is then computed in float32 too.
#ifndef ENVPOOL_CLASSIC_CONTROL_SCENE_H_
#define ENVPOOL_CLASSIC_CONTROL_SCENE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

namespace envpool::classic_control {

// RenderShape of a scene of `values` float64 numbers.
inline std::vector<std::int64_t> SceneShape(std::size_t values) {
  return {static_cast<std::int64_t>(values * sizeof(double))};
}

inline void WriteScene(std::span<std::uint8_t> frame,
                       std::initializer_list<double> values) {
  std::memcpy(frame.data(), values.begin(),
              std::min(frame.size(), values.size() * sizeof(double)));
}

}  // namespace envpool::classic_control

#endif  // ENVPOOL_CLASSIC_CONTROL_SCENE_H_
