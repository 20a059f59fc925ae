// BipedalWalker's rgb_array frame: what it is drawn from (clouds, terrain
// polygons, the drawlist's shapes, kept as gymnasium keeps them) and the
// drawing itself, the same pygame calls in the same order as gymnasium 1.4's
// BipedalWalker.render, on the pygame-exact Canvas.
//
// gymnasium draws on a surface 600 + 30 * max(0, scroll) pixels wide, in
// world pixels (x = 0 at the start of the terrain), and returns the
// rightmost 600 columns after flipping it upside down. The canvas here is
// that wide too: every coordinate is then the same double gymnasium hands to
// pygame, and clipping happens at the same surface edges.
#ifndef ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_
#define ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "envpool/box2d/pygame_draw.h"

namespace envpool::box2d::bipedal_walker_render {

inline constexpr std::int64_t kViewportW = 600;
inline constexpr std::int64_t kViewportH = 400;
inline constexpr double kScale = 30.0;
inline constexpr double kTerrainStep = 14 / kScale;
inline constexpr double kTerrainHeight = 400 / kScale / 4;
// The widest surface drawn: far beyond the end of the terrain (about 3300
// pixels), it only bounds the memory a runaway scroll could ask for.
inline constexpr int kMaxSurfaceWidth = 32767;

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

// One fixture of the drawlist, in surface pixels (y up): a polygon, or an
// edge when it has two points.
struct Shape {
  Rgb color1;
  Rgb color2;
  std::vector<Vec> path;
};

struct Scene {
  double scroll = 0.0;
  std::span<const Cloud> clouds;
  std::span<const TerrainPoly> terrain_polys;
  std::optional<std::array<Vec, 2>> lidar_line;  // world units
  std::vector<Shape> shapes;
  PygameFlavour flavour = PygameFlavour::kPygameCe;  // whose draw rules
};

namespace detail {

inline Color ToColor(Rgb c) { return {c.r, c.g, c.b}; }

inline std::vector<Point> ToPoints(std::span<const Vec> path) {
  std::vector<Point> points;
  points.reserve(path.size() + 1);
  for (const Vec& v : path) {
    points.push_back({v.x, v.y});
  }
  return points;
}

}  // namespace detail

// Draws `scene` and writes the 400 x 600 x 3 frame gymnasium's render()
// returns into `rgb`.
inline void RenderScene(const Scene& scene, std::span<std::uint8_t> rgb) {
  const double scroll = scene.scroll;
  // pygame.Surface((600 + max(0.0, scroll) * 30, 400)): the width truncated.
  const double wanted =
      static_cast<double>(kViewportW) + std::max(0.0, scroll) * kScale;
  const int width = std::clamp(pygame_detail::TruncateToInt(wanted),
                               static_cast<int>(kViewportW), kMaxSurfaceWidth);
  Canvas canvas(width, static_cast<int>(kViewportH));

  const double left = scroll * kScale;
  const std::array<Point, 4> sky = {{{left, 0},
                                     {left + kViewportW, 0},
                                     {left + kViewportW, kViewportH},
                                     {left, kViewportH}}};
  FillPolygon(canvas, sky, {215, 215, 255}, scene.flavour);

  const Color white{255, 255, 255};
  for (const Cloud& cloud : scene.clouds) {
    if (cloud.x2 < scroll / 2) {
      continue;
    }
    if (cloud.x1 > scroll / 2 + kViewportW / kScale) {
      continue;
    }
    std::array<Point, 5> poly{};
    for (std::size_t i = 0; i < poly.size(); ++i) {
      poly[i] = {cloud.poly[i].x * kScale + scroll * kScale / 2,
                 cloud.poly[i].y * kScale};
    }
    FillPolygon(canvas, poly, white, scene.flavour);
    AaPolygon(canvas, poly, white);
  }

  const Color ground{102, 153, 76};
  for (const TerrainPoly& poly : scene.terrain_polys) {
    if (poly[1].x < scroll) {
      continue;
    }
    if (poly[0].x > scroll + kViewportW / kScale) {
      continue;
    }
    std::array<Point, 4> scaled{};
    for (std::size_t i = 0; i < poly.size(); ++i) {
      scaled[i] = {poly[i].x * kScale, poly[i].y * kScale};
    }
    FillPolygon(canvas, scaled, ground, scene.flavour);
    AaPolygon(canvas, scaled, ground);
  }

  if (scene.lidar_line) {
    const auto& [p1, p2] = *scene.lidar_line;
    DrawLine(canvas, {p1.x * kScale, p1.y * kScale},
             {p2.x * kScale, p2.y * kScale}, {255, 0, 0}, 1, scene.flavour);
  }

  for (const Shape& shape : scene.shapes) {
    std::vector<Point> path = detail::ToPoints(shape.path);
    const Color color1 = detail::ToColor(shape.color1);
    const Color color2 = detail::ToColor(shape.color2);
    if (path.size() > 2) {
      FillPolygon(canvas, path, color1, scene.flavour);
      AaPolygon(canvas, path, color1);
      path.push_back(path.front());
      // pygame.draw.polygon with width 1 draws closed lines.
      DrawLines(canvas, path, true, color2, 1, scene.flavour);
      AaPolygon(canvas, path, color2);
    } else if (path.size() == 2) {
      AaLine(canvas, path[0], path[1], color1);
    }
  }

  const double flag_y1 = kTerrainHeight * kScale;
  const double flag_y2 = flag_y1 + 50;
  const double flag_x = kTerrainStep * 3 * kScale;
  const Color black{0, 0, 0};
  const std::array<Point, 2> pole = {{{flag_x, flag_y1}, {flag_x, flag_y2}}};
  AaLine(canvas, pole[0], pole[1], black);
  const std::array<Point, 4> flag = {{{flag_x, flag_y2},
                                      {flag_x, flag_y2 - 10},
                                      {flag_x + 25, flag_y2 - 5},
                                      {flag_x, flag_y2}}};
  FillPolygon(canvas, std::span<const Point>(flag).first(3), {230, 51, 0},
              scene.flavour);
  DrawLines(canvas, flag, false, black, 1, scene.flavour);

  canvas.FlipVertical();

  // The rightmost 600 columns.
  const std::size_t row_bytes = static_cast<std::size_t>(kViewportW) * 3;
  const std::size_t canvas_row_bytes = static_cast<std::size_t>(width) * 3;
  const std::size_t skip = static_cast<std::size_t>(width - kViewportW) * 3;
  std::span<const std::uint8_t> pixels = canvas.pixels();
  for (std::size_t row = 0; row < static_cast<std::size_t>(kViewportH); ++row) {
    std::memcpy(rgb.data() + row * row_bytes,
                pixels.data() + row * canvas_row_bytes + skip, row_bytes);
  }
}

}  // namespace envpool::box2d::bipedal_walker_render

#endif  // ENVPOOL_BOX2D_BIPEDAL_WALKER_RENDER_H_
