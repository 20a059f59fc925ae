// LunarLander's rgb_array frame: the same pygame calls in the same order as
// gymnasium 1.4's LunarLander.render, on the pygame-exact Canvas, from the
// numbers gymnasium hands to pygame (doubles computed as it computes them).
#ifndef ENVPOOL_BOX2D_LUNAR_LANDER_RENDER_H_
#define ENVPOOL_BOX2D_LUNAR_LANDER_RENDER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "envpool/box2d/pygame_draw.h"

namespace envpool::box2d::lunar_lander_render {

inline constexpr std::int64_t kViewportW = 600;
inline constexpr std::int64_t kViewportH = 400;
inline constexpr double kScale = 30.0;

// The black sky above one chunk of terrain (world units).
using SkyPoly = std::array<Point, 4>;

// One fixture of the particles or the drawlist, in surface pixels (y up): a
// circle (a particle) or a polygon.
struct Shape {
  Color color1;
  Color color2;
  bool circle = false;
  Point center{0.0, 0.0};   // circles
  double radius = 0.0;      // circles
  std::vector<Point> path;  // polygons
};

struct Scene {
  std::span<const SkyPoly> sky_polys;
  std::vector<Shape> shapes;  // the particles, then the lander and its legs
  double helipad_x1 = 0.0;    // world units
  double helipad_x2 = 0.0;
  double helipad_y = 0.0;
  PygameFlavour flavour = PygameFlavour::kPygameCe;  // whose draw rules
};

// Draws `scene` into `canvas` (600 x 400) as gymnasium's render() does, the
// upside-down flip included.
inline void RenderScene(const Scene& scene, Canvas& canvas) {
  canvas.Fill({255, 255, 255});
  const Color black{0, 0, 0};
  for (const SkyPoly& poly : scene.sky_polys) {
    std::array<Point, 4> scaled{};
    for (std::size_t i = 0; i < poly.size(); ++i) {
      scaled[i] = {poly[i].x * kScale, poly[i].y * kScale};
    }
    FillPolygon(canvas, scaled, black, scene.flavour);
    AaPolygon(canvas, scaled, black);
  }

  const Color flag_color{204, 204, 0};
  for (const Shape& shape : scene.shapes) {
    if (shape.circle) {
      FillCircle(canvas, shape.center, shape.radius, shape.color1);
      FillCircle(canvas, shape.center, shape.radius, shape.color2);
    } else {
      FillPolygon(canvas, shape.path, shape.color1, scene.flavour);
      AaPolygon(canvas, shape.path, shape.color1);
      AaLines(canvas, shape.path, true, shape.color2, scene.flavour);
    }
    // gymnasium draws the helipad's flags after every fixture; the
    // anti-aliased edges blend again each time.
    for (const double helipad_x : {scene.helipad_x1, scene.helipad_x2}) {
      const double x = helipad_x * kScale;
      const double flag_y1 = scene.helipad_y * kScale;
      const double flag_y2 = flag_y1 + 50;
      DrawLine(canvas, {x, flag_y1}, {x, flag_y2}, {255, 255, 255}, 1,
               scene.flavour);
      const std::array<Point, 3> flag = {
          {{x, flag_y2}, {x, flag_y2 - 10}, {x + 25, flag_y2 - 5}}};
      FillPolygon(canvas, flag, flag_color, scene.flavour);
      AaPolygon(canvas, flag, flag_color);
    }
  }

  canvas.FlipVertical();
}

}  // namespace envpool::box2d::lunar_lander_render

#endif  // ENVPOOL_BOX2D_LUNAR_LANDER_RENDER_H_
