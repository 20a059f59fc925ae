// For an env whose frames are drawn in Python (a task with a frame_drawer,
// envpool/frame_drawer.py): its Render writes the few numbers the drawer
// needs, as float64 (exact for the integers a scene holds, too). The
// classic-control and toy-text tasks work this way.
#ifndef ENVPOOL_CORE_RENDER_SCENE_H_
#define ENVPOOL_CORE_RENDER_SCENE_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

namespace envpool {

// RenderShape of a scene of `values` float64 numbers.
inline std::vector<std::int64_t> SceneShape(std::size_t values) {
  return {static_cast<std::int64_t>(values * sizeof(double))};
}

inline void WriteScene(std::span<std::uint8_t> frame,
                       std::initializer_list<double> values) {
  std::memcpy(frame.data(), values.begin(),
              std::min(frame.size(), values.size() * sizeof(double)));
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_RENDER_SCENE_H_
