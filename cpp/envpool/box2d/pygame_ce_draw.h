// pygame.draw.polygon (filled) and pygame.draw.line(s) as pygame-ce 2.5.8
// draws them, where its draw.c parts from pygame 2.6.1's: the polygon fill
// rounds each edge crossing in float, down for the first of a pair and up for
// the second (pre-sort order), and a triangle has its own slope-walking fill;
// a line is Bresenham over the whole segment (thick ones with spans centred on
// it), not clipped first. PygameFlavour picks one pygame's rules for every
// call that differs (these, and aalines: pygame_ce_aalines.h). gymnasium's
// Box2D frames differ between the two pygames there (CarRacing's also in the
// score's font, read from the installed pygame at run time).
#ifndef ENVPOOL_BOX2D_PYGAME_CE_DRAW_H_
#define ENVPOOL_BOX2D_PYGAME_CE_DRAW_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "envpool/box2d/pygame_aalines.h"
#include "envpool/box2d/pygame_ce_aalines.h"
#include "envpool/box2d/pygame_lines.h"
#include "envpool/box2d/pygame_polygon_fill.h"
#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_ce_detail {

using pygame_detail::TruncateFloatToInt;
using pygame_detail::TruncateToInt;
using pygame_detail::W;

// draw.c's draw_filltri: the vertices sorted by y, then each row spans from
// the long edge (top to bottom vertex) to the short edge it faces, with
// float slopes (the edge's dx over dy + 1e-17, narrowed to float).
inline void FillTriangle(Canvas& canvas, std::span<const int> xs,
                         std::span<const int> ys, Color c) {
  int p0x = xs[0];
  int p1x = xs[1];
  int p2x = xs[2];
  int p0y = ys[0];
  int p1y = ys[1];
  int p2y = ys[2];
  auto swap_points = [](int& ax, int& ay, int& bx, int& by) {
    std::swap(ax, bx);
    std::swap(ay, by);
  };
  if (p1y < p0y) {
    swap_points(p1x, p1y, p0x, p0y);
  }
  if (p2y < p1y) {
    swap_points(p1x, p1y, p2x, p2y);
    if (p1y < p0y) {
      swap_points(p1x, p1y, p0x, p0y);
    }
  }
  if (p0y == p1y && p1y == p2y && p0x == p1x && p1x != p2x) {
    swap_points(p1x, p1y, p2x, p2y);
  }
  auto slope = [](int dx, int dy) {
    return static_cast<float>(static_cast<double>(dx) /
                              (static_cast<double>(dy) + 1e-17));
  };
  const float d1 = slope(W(static_cast<std::int64_t>(p2x) - p0x),
                         W(static_cast<std::int64_t>(p2y) - p0y));
  const float d2 = slope(W(static_cast<std::int64_t>(p1x) - p0x),
                         W(static_cast<std::int64_t>(p1y) - p0y));
  const float d3 = slope(W(static_cast<std::int64_t>(p2x) - p1x),
                         W(static_cast<std::int64_t>(p2y) - p1y));
  auto along = [](int from_x, int rows, float d) {
    return W(static_cast<std::int64_t>(from_x) +
             TruncateFloatToInt(static_cast<float>(rows) * d));
  };
  // Rows outside the surface draw nothing, so only visible rows are walked.
  const int first = std::max(p0y, 0);
  const int last = std::min(p2y, canvas.height() - 1);
  for (int y = first; y <= last; ++y) {
    const int x1 = along(p0x, W(static_cast<std::int64_t>(y) - p0y), d1);
    const int x2 = y < p1y
                       ? along(p0x, W(static_cast<std::int64_t>(y) - p0y), d2)
                       : along(p1x, W(static_cast<std::int64_t>(y) - p1y), d3);
    canvas.HorizontalLineClipped(x1, y, x2, c);
  }
}

// draw.c's Bresenham walk from (x1, y1) towards (x2, y2), in 64-bit steps
// (draw.c's int maths does not overflow for the coordinates that reach it).
struct BresenhamWalk {
  BresenhamWalk(int x1, int y1, int x2, int y2)
      : dx(std::abs(static_cast<std::int64_t>(x2) - x1)),
        dy(std::abs(static_cast<std::int64_t>(y2) - y1)),
        sx(x1 < x2 ? 1 : -1),
        sy(y1 < y2 ? 1 : -1),
        err((dx > dy ? dx : -dy) / 2),
        x(x1),
        y(y1) {}

  void Step() {
    const std::int64_t e2 = err;
    if (e2 > -dx) {
      err -= dy;
      x += sx;
    }
    if (e2 < dy) {
      err += dx;
      y += sy;
    }
  }

  std::int64_t dx;
  std::int64_t dy;
  int sx;
  int sy;
  std::int64_t err;
  std::int64_t x;
  std::int64_t y;
};

// draw.c's draw_line (width 1): Bresenham over the whole segment, each pixel
// dropped where it falls off the surface (no clipping first).
inline void ThinLine(Canvas& canvas, int x1, int y1, int x2, int y2, Color c) {
  if (y1 == y2) {
    canvas.HorizontalLineClipped(x1, y1, x2, c);
    return;
  }
  if (x1 == x2) {
    pygame_detail::VerticalRun(canvas, x1, std::min(y1, y2), std::max(y1, y2),
                               c);
    return;
  }
  BresenhamWalk walk(x1, y1, x2, y2);
  while (walk.x != x2 || walk.y != y2) {
    canvas.PutClipped(walk.x, walk.y, c);
    walk.Step();
  }
  canvas.PutClipped(x2, y2, c);
}

// draw.c's draw_line_width for width > 1.
inline void ThickLine(Canvas& canvas, int x1, int y1, int x2, int y2, Color c,
                      int width) {
  const int extra = 1 - (width % 2);
  const int half = width / 2;
  const int end_x = canvas.width() - 1;
  const int end_y = canvas.height() - 1;
  const bool xinc =
      pygame_detail::Abs32(W(static_cast<std::int64_t>(x1) - x2)) <=
      pygame_detail::Abs32(W(static_cast<std::int64_t>(y1) - y2));
  // Only the bounding box, grown by half the width across the line, is
  // tested against the surface; nothing is clipped.
  const std::int64_t grow_x = xinc ? half : 0;
  const std::int64_t grow_y = xinc ? 0 : half;
  if (static_cast<std::int64_t>(std::max(x1, x2)) + grow_x < 0 ||
      static_cast<std::int64_t>(std::max(y1, y2)) + grow_y < 0 ||
      static_cast<std::int64_t>(std::min(x1, x2)) - grow_x >= canvas.width() ||
      static_cast<std::int64_t>(std::min(y1, y2)) - grow_y >= canvas.height()) {
    return;
  }
  auto span_across = [&](int along, int centre, int end, bool rows) {
    const int from =
        std::max(W(static_cast<std::int64_t>(centre) - half + extra), 0);
    const int to = std::min(end, W(static_cast<std::int64_t>(centre) + half));
    if (from > to) {
      return;
    }
    if (rows) {
      canvas.FillRun(along, from, to, c);
    } else {
      for (int y = from; y <= to; ++y) {
        canvas.Put(along, y, c);
      }
    }
  };
  if (x1 == x2 && y1 == y2) {
    span_across(y1, x1, end_x, true);
    return;
  }
  BresenhamWalk walk(x1, y1, x2, y2);
  const std::int64_t stop = xinc ? static_cast<std::int64_t>(y2) + walk.sy
                                 : static_cast<std::int64_t>(x2) + walk.sx;
  while ((xinc ? walk.y : walk.x) != stop) {
    if (xinc && walk.y >= 0 && walk.y <= end_y) {
      span_across(static_cast<int>(walk.y), static_cast<int>(walk.x), end_x,
                  true);
    } else if (!xinc && walk.x >= 0 && walk.x <= end_x) {
      span_across(static_cast<int>(walk.x), static_cast<int>(walk.y), end_y,
                  false);
    }
    walk.Step();
  }
}

}  // namespace pygame_ce_detail

// pygame-ce's pygame.draw.polygon(surf, c, points) (width 0).
inline void FillPolygonCe(Canvas& canvas, std::span<const Point> points,
                          Color c) {
  if (points.size() < 3) {
    return;
  }
  const auto [xs, ys] = pygame_detail::TruncatedVertices(points);
  if (points.size() == 3) {
    pygame_ce_detail::FillTriangle(canvas, xs, ys, c);
    return;
  }
  using pygame_detail::W;
  pygame_detail::FillPolygonRows(
      canvas, xs, ys, c,
      [](int y, int x1, int y1, int x2, int y2, std::size_t count) {
        const int dy = W(static_cast<std::int64_t>(y) - y1);
        const int dx = W(static_cast<std::int64_t>(x2) - x1);
        float crossing =
            static_cast<float>(W(static_cast<std::int64_t>(dy) * dx)) /
            static_cast<float>(W(static_cast<std::int64_t>(y2) - y1));
        crossing = count % 2 == 0 ? std::floor(crossing) : std::ceil(crossing);
        return W(static_cast<std::int64_t>(
                     pygame_detail::TruncateFloatToInt(crossing)) +
                 x1);
      });
}

// pygame-ce's pygame.draw.line(surf, c, a, b, width).
inline void DrawLineCe(Canvas& canvas, Point a, Point b, Color c,
                       int width = 1) {
  if (width < 1) {
    return;
  }
  const int x1 = pygame_detail::TruncateToInt(a.x);
  const int y1 = pygame_detail::TruncateToInt(a.y);
  const int x2 = pygame_detail::TruncateToInt(b.x);
  const int y2 = pygame_detail::TruncateToInt(b.y);
  if (width == 1) {
    pygame_ce_detail::ThinLine(canvas, x1, y1, x2, y2, c);
  } else {
    pygame_ce_detail::ThickLine(canvas, x1, y1, x2, y2, c, width);
  }
}

// Which pygame's rules the calls that differ follow: the installed one's, as
// envpool/families/box2d/pygame_rules.py finds it.
enum class PygameFlavour : std::uint8_t { kPygame, kPygameCe };

inline void FillPolygon(Canvas& canvas, std::span<const Point> points, Color c,
                        PygameFlavour flavour) {
  if (flavour == PygameFlavour::kPygameCe) {
    FillPolygonCe(canvas, points, c);
  } else {
    FillPolygon(canvas, points, c);
  }
}

// pygame.draw.line(surf, c, a, b, width) by `flavour`'s rules.
inline void DrawLine(Canvas& canvas, Point a, Point b, Color c, int width,
                     PygameFlavour flavour) {
  if (flavour == PygameFlavour::kPygameCe) {
    DrawLineCe(canvas, a, b, c, width);
  } else {
    DrawLine(canvas, a, b, c, width);
  }
}

// pygame.draw.aalines(surf, c, closed, points) by `flavour`'s rules.
inline void AaLines(Canvas& canvas, std::span<const Point> points, bool closed,
                    Color c, PygameFlavour flavour) {
  if (flavour == PygameFlavour::kPygameCe) {
    AaLinesCe(canvas, points, closed, c);
  } else {
    AaLines(canvas, points, closed, c);
  }
}

// pygame.draw.lines(surf, c, closed, points, width), each segment drawn as
// `flavour`'s draw.line draws it.
inline void DrawLines(Canvas& canvas, std::span<const Point> points,
                      bool closed, Color c, int width, PygameFlavour flavour) {
  if (points.size() < 2 || width < 1) {
    return;
  }
  pygame_detail::ForEachSegment(points, closed, [&](Point a, Point b) {
    DrawLine(canvas, a, b, c, width, flavour);
  });
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_CE_DRAW_H_
