// What one of mpe2's frames shows (SimpleEnv.draw in
// mpe2/_mpe_utils/simple_env.py), as float64 numbers for envpool's Python
// renderer (envpool/families/mpe2/render.py), which draws them with pygame as
// mpe2 does: the pool's render() hands these bytes over instead of pixels.
//
// Layout: a header [original_cam_range, num_entities, num_agents, dim_c,
// continuous_actions, dynamic_rescaling], then one row of kSceneColumns + dim_c
// values per entity, in World.entities order: [drawn, x, y, size, color_size,
// color[4], silent, c[dim_c]] (landmarks read silent, with zeros for c).
#ifndef ENVPOOL_MPE2_SCENE_H_
#define ENVPOOL_MPE2_SCENE_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "envpool/mpe2/world.h"

namespace envpool::mpe2 {

inline constexpr std::size_t kSceneHeader = 6;
inline constexpr std::size_t kSceneColors = 4;  // pygame takes RGB or RGBA
inline constexpr std::size_t kSceneColumns = 6 + kSceneColors;

// The number of float64s in the scene of `world`.
inline std::size_t SceneSize(const World& world) {
  return kSceneHeader + world.entities.size() *
                            (kSceneColumns + static_cast<std::size_t>(
                                                 std::max(world.dim_c, 0)));
}

// np.max(np.abs(positions)) over every entity: SimpleEnv.reset's
// original_cam_range, which dynamic_rescaling scales the radii by.
inline double CamRange(const World& world) {
  double range = 0.0;
  for (const Entity& e : world.entities) {
    for (const double p : e.pos) {
      range = std::max(range, std::fabs(p));
    }
  }
  return range;
}

// The colour draw() paints an entity in, or nothing when it is not drawn: a
// scenario's own DrawnColor (collect_treasure's draw skips the treasures that
// were picked up and paints colours that its state implies), or else the
// entity's colour.
template <typename Scenario>
std::optional<std::vector<double>> DrawnColor(const Scenario& scenario,
                                              const World& world,
                                              std::size_t entity) {
  if constexpr (requires { scenario.DrawnColor(entity, world); }) {
    return scenario.DrawnColor(entity, world);
  } else {
    return world.entities[entity].color;
  }
}

// What draw() reads besides the world: the camera range of the last reset
// and two of the env's options.
struct SceneOptions {
  double original_cam_range = 0.0;
  bool continuous = false;
  bool dynamic_rescaling = true;
};

// Writes the scene of `world` into `out` (SceneSize(world) float64s).
template <typename Scenario>
void WriteScene(const Scenario& scenario, const World& world,
                const SceneOptions& options, std::span<std::uint8_t> out) {
  std::vector<double> scene(SceneSize(world), 0.0);
  const auto dim_c = static_cast<std::size_t>(std::max(world.dim_c, 0));
  scene[0] = options.original_cam_range;
  scene[1] = static_cast<double>(world.entities.size());
  scene[2] = static_cast<double>(world.num_agents);
  scene[3] = static_cast<double>(dim_c);
  scene[4] = options.continuous ? 1.0 : 0.0;
  scene[5] = options.dynamic_rescaling ? 1.0 : 0.0;
  for (std::size_t i = 0; i < world.entities.size(); ++i) {
    const Entity& e = world.entities[i];
    double* row = scene.data() + kSceneHeader + i * (kSceneColumns + dim_c);
    const std::optional<std::vector<double>> color =
        DrawnColor(scenario, world, i);
    row[0] = color ? 1.0 : 0.0;
    row[1] = e.pos[0];
    row[2] = e.pos[1];
    row[3] = e.size;
    if (color) {
      const std::size_t n = std::min(color->size(), kSceneColors);
      row[4] = static_cast<double>(n);
      std::copy_n(color->begin(), n, row + 5);
    }
    const bool agent = i < world.num_agents;
    row[5 + kSceneColors] = agent && !e.silent ? 0.0 : 1.0;
    if (agent) {
      std::copy_n(e.c.begin(), std::min(e.c.size(), dim_c),
                  row + kSceneColumns);
    }
  }
  std::memcpy(out.data(), scene.data(),
              std::min(out.size(), scene.size() * sizeof(double)));
}

}  // namespace envpool::mpe2

#endif  // ENVPOOL_MPE2_SCENE_H_
