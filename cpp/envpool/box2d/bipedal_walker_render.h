// What BipedalWalker's rgb_array frame is drawn from (clouds, terrain
// polygons, the drawlist's shapes), kept as gymnasium keeps it: the clouds
// consume np_random draws, so they are generated even though envpool does
// not draw frames yet.
#ifndef ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_
#define ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace envpool::box2d::bipedal_walker_render {

inline constexpr std::int64_t kViewportW = 600;
inline constexpr std::int64_t kViewportH = 400;

struct Vec {
  double x;
  double y;
};

struct Rgb {
  std::uint8_t r;
  std::uint8_t g;
  std::uint8_t b;
};

// A cloud: its five vertices (world units) and its horizontal extent.
struct Cloud {
  std::array<Vec, 5> poly;
  double x1;
  double x2;
};

// The ground under one terrain edge, down to y = 0 (world units).
using TerrainPoly = std::array<Vec, 4>;

// One fixture of the drawlist, in screen pixels (y up).
struct Shape {
  Rgb color1;
  Rgb color2;
  std::vector<Vec> path;
};

struct Scene {
  double scroll = 0.0;
  const std::vector<Cloud>* clouds = nullptr;
  const std::vector<TerrainPoly>* terrain_polys = nullptr;
  std::optional<std::array<Vec, 2>> lidar_line;  // world units
  std::vector<Shape> shapes;
};

}  // namespace envpool::box2d::bipedal_walker_render

#endif  // ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_
