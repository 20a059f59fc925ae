// Filled polygons as pygame draws them: pygame.draw.polygon (draw.c, double
// maths on int vertices) and pygame.gfxdraw.filled_polygon (SDL_gfx, 16.16
// fixed point on Sint16 vertices). Both walk the same scanlines; they differ
// only in where an edge crosses a row and how a span's ends are rounded.
#ifndef ENVPOOL_BOX2D_PYGAME_POLYGON_FILL_H_
#define ENVPOOL_BOX2D_PYGAME_POLYGON_FILL_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_detail {

// qsort with the comparator `*a - *b` (which overflows for far-apart values),
// as glibc 2.36 runs it for small int arrays: a top-down merge sort. Using the
// same algorithm keeps the resulting order identical even when the overflowing
// comparator is not a consistent ordering.
inline int WrappingCompare(int a, int b) {
  return WrapToInt32(static_cast<std::int64_t>(a) - b);
}

inline void GlibcMergeSort(int* b, std::size_t n, int* tmp) {
  if (n <= 1) {
    return;
  }
  std::size_t n1 = n / 2;
  std::size_t n2 = n - n1;
  int* b1 = b;
  int* b2 = b + n1;
  GlibcMergeSort(b1, n1, tmp);
  GlibcMergeSort(b2, n2, tmp);
  int* out = tmp;
  while (n1 > 0 && n2 > 0) {
    if (WrappingCompare(*b1, *b2) <= 0) {
      *out++ = *b1++;
      --n1;
    } else {
      *out++ = *b2++;
      --n2;
    }
  }
  if (n1 > 0) {
    std::memcpy(out, b1, n1 * sizeof(int));
  }
  std::memcpy(b, tmp, (n - n2) * sizeof(int));
}

inline void GlibcQsortInts(std::vector<int>& values, std::size_t n,
                           std::vector<int>& tmp) {
  tmp.resize(std::max(tmp.size(), n));
  GlibcMergeSort(values.data(), n, tmp.data());
}

// The smallest and largest of a polygon's coordinates.
template <typename Coord>
std::pair<int, int> MinMax(std::span<const Coord> values) {
  auto [low, high] = std::minmax_element(values.begin(), values.end());
  return {*low, *high};
}

// The scanline walk both fills share. Each visible row y in [miny, maxy]
// collects one x per non-horizontal edge that covers it: an edge from y1 to
// y2 (y1 < y2, its x1 and x2 in the same order) covers [y1, y2), and the
// last row also takes the edges that end on it. crossing(y, x1, y1, x2, y2,
// count) gives that x (count: the row's crossings so far); the xs are sorted as
// glibc's qsort sorts them and every pair (first and second, third and fourth,
// ...) goes to fill_span(xa, y, xb).
template <typename Coord, typename Crossing, typename FillSpan>
void ScanlineFill(const Canvas& canvas, std::span<const Coord> xs,
                  std::span<const Coord> ys, int miny, int maxy,
                  Crossing crossing, FillSpan fill_span) {
  const std::size_t n = xs.size();
  std::vector<int> crossings(n);
  std::vector<int> tmp(n);
  // Rows outside the surface draw nothing, so only visible rows are scanned.
  const int first = std::max(miny, 0);
  const int last = std::min(maxy, canvas.height() - 1);
  for (int y = first; y <= last; ++y) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t prev = i == 0 ? n - 1 : i - 1;
      int y1 = ys[prev];
      int y2 = ys[i];
      int x1;
      int x2;
      if (y1 < y2) {
        x1 = xs[prev];
        x2 = xs[i];
      } else if (y1 > y2) {
        y2 = ys[prev];
        y1 = ys[i];
        x2 = xs[prev];
        x1 = xs[i];
      } else {
        continue;
      }
      if ((y >= y1 && y < y2) || (y == maxy && y2 == maxy)) {
        crossings[count] = crossing(y, x1, y1, x2, y2, count);
        ++count;
      }
    }
    GlibcQsortInts(crossings, count, tmp);
    for (std::size_t i = 0; i + 1 < count; i += 2) {
      fill_span(crossings[i], y, crossings[i + 1]);
    }
  }
}

// pygame.draw's int vertices: each coordinate truncated as C's (int) does.
struct IntVertices {
  std::vector<int> xs;
  std::vector<int> ys;
};

inline IntVertices TruncatedVertices(std::span<const Point> points) {
  IntVertices vertices{std::vector<int>(points.size()),
                       std::vector<int>(points.size())};
  for (std::size_t i = 0; i < points.size(); ++i) {
    vertices.xs[i] = TruncateToInt(points[i].x);
    vertices.ys[i] = TruncateToInt(points[i].y);
  }
  return vertices;
}

// draw.c's filled polygon on int vertices: a one-row polygon is a span from
// its leftmost to its rightmost vertex; otherwise the scanlines, then the
// horizontal edges strictly between the top and bottom rows.
template <typename Crossing>
void FillPolygonRows(Canvas& canvas, std::span<const int> xs,
                     std::span<const int> ys, Color c, Crossing crossing) {
  const std::size_t n = xs.size();
  const auto [miny, maxy] = MinMax<int>(ys);
  if (miny == maxy) {
    const auto [minx, maxx] = MinMax<int>(xs);
    canvas.HorizontalLineClipped(minx, miny, maxx, c);
    return;
  }
  ScanlineFill<int>(canvas, xs, ys, miny, maxy, crossing,
                    [&](int xa, int y, int xb) {
                      canvas.HorizontalLineClipped(xa, y, xb, c);
                    });
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t prev = i == 0 ? n - 1 : i - 1;
    if (miny < ys[i] && ys[prev] == ys[i] && ys[i] < maxy) {
      canvas.HorizontalLineClipped(xs[i], ys[i], xs[prev], c);
    }
  }
}

}  // namespace pygame_detail

// pygame.draw.polygon(surf, c, points) (width 0): points truncated to int,
// then draw.c's scanline fill, whose crossings are worked out in double.
inline void FillPolygon(Canvas& canvas, std::span<const Point> points,
                        Color c) {
  if (points.size() < 3) {
    return;
  }
  const auto [xs, ys] = pygame_detail::TruncatedVertices(points);
  pygame_detail::FillPolygonRows(
      canvas, xs, ys, c,
      [](int y, int x1, int y1, int x2, int y2, std::size_t /*count*/) {
        return pygame_detail::TruncateToInt((static_cast<double>(y) - y1) *
                                                (static_cast<double>(x2) - x1) /
                                                (static_cast<double>(y2) - y1) +
                                            x1);
      });
}

// pygame.gfxdraw.filled_polygon: SDL_gfx's 16.16 fixed-point scanline fill.
inline void GfxFilledPolygon(Canvas& canvas, std::span<const Point> points,
                             Color c) {
  std::vector<std::int16_t> xs;
  std::vector<std::int16_t> ys;
  if (!pygame_detail::GfxVertices(points, xs, ys) || canvas.width() == 0 ||
      canvas.height() == 0) {
    return;
  }
  const auto [miny, maxy] = pygame_detail::MinMax<std::int16_t>(ys);
  using pygame_detail::WrapToInt16;
  using pygame_detail::WrapToInt32;
  pygame_detail::ScanlineFill<std::int16_t>(
      canvas, xs, ys, miny, maxy,
      [](int y, int x1, int y1, int x2, int y2, std::size_t /*count*/) {
        // 32-bit int arithmetic that wraps on overflow, as compiled C does.
        const std::int32_t fraction =
            WrapToInt32(65536LL * (y - y1)) / (y2 - y1);
        return WrapToInt32(
            static_cast<std::int64_t>(
                WrapToInt32(static_cast<std::int64_t>(fraction) * (x2 - x1))) +
            WrapToInt32(65536LL * x1));
      },
      [&](int xa, int y, int xb) {
        // Round the ends to the nearest pixel, from just inside the span.
        std::int32_t from = WrapToInt32(static_cast<std::int64_t>(xa) + 1);
        from = (from >> 16) + ((from & 32768) >> 15);
        std::int32_t to = WrapToInt32(static_cast<std::int64_t>(xb) - 1);
        to = (to >> 16) + ((to & 32768) >> 15);
        canvas.GfxHorizontalLine(WrapToInt16(from), WrapToInt16(to),
                                 WrapToInt16(y), c);
      });
}

// Whether GfxFilledPolygon(canvas, quad, c) paints every pixel of the canvas:
// the quadrilateral is convex (every turn the same way) and holds the canvas
// with two pixels to spare (the fill rounds its edges by less than one).
[[nodiscard]] inline bool GfxQuadCovers(const Canvas& canvas,
                                        std::span<const Point> quad) {
  std::vector<std::int16_t> xs;
  std::vector<std::int16_t> ys;
  if (quad.size() != 4 || !pygame_detail::GfxVertices(quad, xs, ys)) {
    return false;
  }
  const std::array<std::array<std::int64_t, 2>, 4> corners = {
      {{-2, -2},
       {canvas.width() + 1, -2},
       {canvas.width() + 1, canvas.height() + 1},
       {-2, canvas.height() + 1}}};
  auto side = [&](std::size_t i, std::int64_t qx, std::int64_t qy) {
    const std::int64_t ex = xs[(i + 1) % 4] - xs[i];
    const std::int64_t ey = ys[(i + 1) % 4] - ys[i];
    const std::int64_t cross = ex * (qy - ys[i]) - ey * (qx - xs[i]);
    return cross > 0 ? 1 : (cross < 0 ? -1 : 0);
  };
  const int orientation = side(0, xs[2], ys[2]);
  for (std::size_t i = 0; i < 4; ++i) {
    if (orientation == 0 ||
        side(i, xs[(i + 2) % 4], ys[(i + 2) % 4]) != orientation) {
      return false;
    }
    for (const auto& [qx, qy] : corners) {
      if (side(i, qx, qy) != orientation) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_POLYGON_FILL_H_
