// pygame.draw.line and pygame.draw.lines as draw.c (pygame 2.6.1) draws
// them: int-truncated end points, a Liang-Barsky clip, then Bresenham; thick
// lines grow along the minor axis.
#ifndef ENVPOOL_BOX2D_PYGAME_LINES_H_
#define ENVPOOL_BOX2D_PYGAME_LINES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_detail {

inline int Abs32(int v) { return W(v < 0 ? -static_cast<std::int64_t>(v) : v); }
inline int RoundAway(double v) {
  return TruncateToInt(v < 0 ? v - 0.5 : v + 0.5);
}

inline bool ClipLineInts(const Canvas& canvas, int& x1, int& y1, int& x2,
                         int& y2) {
  int p1 = W(static_cast<std::int64_t>(x1) - x2);
  int p2 = W(-static_cast<std::int64_t>(p1));
  int p3 = W(static_cast<std::int64_t>(y1) - y2);
  int p4 = W(-static_cast<std::int64_t>(p3));
  int q1 = x1;
  int q2 = W(static_cast<std::int64_t>(canvas.width()) - x1);
  int q3 = y1;
  int q4 = W(static_cast<std::int64_t>(canvas.height()) - y1);
  int old_x1 = x1;
  int old_y1 = y1;
  double nmax = 0;
  double pmin = 1;
  if ((p1 == 0 && q1 < 0) || (p2 == 0 && q2 < 0) || (p3 == 0 && q3 < 0) ||
      (p4 == 0 && q4 < 0)) {
    return false;
  }
  auto narrow = [&](int pa, int pb, int qa, int qb) {
    double r1 = static_cast<double>(qa) / pa;
    double r2 = static_cast<double>(qb) / pb;
    if (pa < 0) {
      if (r1 > nmax) {
        nmax = r1;
      }
      if (r2 < pmin) {
        pmin = r2;
      }
    } else {
      if (r2 > nmax) {
        nmax = r2;
      }
      if (r1 < pmin) {
        pmin = r1;
      }
    }
  };
  if (p1 != 0) {
    narrow(p1, p2, q1, q2);
  }
  if (p3 != 0) {
    narrow(p3, p4, q3, q4);
  }
  if (nmax > pmin) {
    return false;
  }
  x1 = W(static_cast<std::int64_t>(old_x1) + RoundAway(p2 * nmax));
  y1 = W(static_cast<std::int64_t>(old_y1) + RoundAway(p4 * nmax));
  x2 = W(static_cast<std::int64_t>(old_x1) + RoundAway(p2 * pmin));
  y2 = W(static_cast<std::int64_t>(old_y1) + RoundAway(p4 * pmin));
  return true;
}

inline void VerticalRun(Canvas& canvas, int x, int from, int to, Color c) {
  if (x < 0 || x >= canvas.width()) {
    return;
  }
  for (std::int64_t y = std::max(from, 0);
       y <= std::min(to, canvas.height() - 1); ++y) {
    canvas.PutClipped(x, y, c);
  }
}

// draw.c's draw_line (width 1, already clipped).
inline void ThinLine(Canvas& canvas, int x1, int y1, int x2, int y2, Color c) {
  if (x1 == x2 && y1 == y2) {
    canvas.PutClipped(x1, y1, c);
    return;
  }
  if (y1 == y2) {
    canvas.HorizontalLineClipped(x1, y1, x2, c);
    return;
  }
  if (x1 == x2) {
    VerticalRun(canvas, x1, std::min(y1, y2), std::max(y1, y2), c);
    return;
  }
  int dx = Abs32(W(static_cast<std::int64_t>(x2) - x1));
  int sx = x1 < x2 ? 1 : -1;
  int dy = Abs32(W(static_cast<std::int64_t>(y2) - y1));
  int sy = y1 < y2 ? 1 : -1;
  int err = (dx > dy ? dx : W(-static_cast<std::int64_t>(dy))) / 2;
  while (x1 != x2 || y1 != y2) {
    canvas.PutClipped(x1, y1, c);
    int e2 = err;
    if (e2 > W(-static_cast<std::int64_t>(dx))) {
      err = W(static_cast<std::int64_t>(err) - dy);
      x1 = W(static_cast<std::int64_t>(x1) + sx);
    }
    if (e2 < dy) {
      err = W(static_cast<std::int64_t>(err) + dx);
      y1 = W(static_cast<std::int64_t>(y1) + sy);
    }
  }
  canvas.PutClipped(x2, y2, c);
}

inline int Sign(int v, int fallback) {
  return v > 0 ? 1 : (v < 0 ? -1 : fallback);
}

// draw.c's draw_line_width.
inline void LineInts(Canvas& canvas, int x1, int y1, int x2, int y2, Color c,
                     int width) {
  const int end_x = x2;
  const int end_y = y2;
  const bool xinc = Abs32(W(static_cast<std::int64_t>(x1) - x2)) <=
                    Abs32(W(static_cast<std::int64_t>(y1) - y2));
  const int dx = Abs32(W(static_cast<std::int64_t>(x2) - x1));
  const int sx = x1 < x2 ? 1 : -1;
  const int dy = Abs32(W(static_cast<std::int64_t>(y2) - y1));
  const int sy = y1 < y2 ? 1 : -1;
  int err = (dx > dy ? dx : W(-static_cast<std::int64_t>(dy))) / 2;
  if (!ClipLineInts(canvas, x1, y1, x2, y2)) {
    return;
  }
  if (width == 1) {
    ThinLine(canvas, x1, y1, x2, y2, c);
    return;
  }
  int left_top = W(static_cast<std::int64_t>(xinc ? x1 : y1) - (width - 1) / 2);
  int right_bottom = W(static_cast<std::int64_t>(xinc ? x1 : y1) + width / 2);
  auto draw_span = [&]() {
    if (xinc) {
      canvas.HorizontalLineClipped(left_top, y1, right_bottom, c);
    } else {
      VerticalRun(canvas, x1, left_top, right_bottom, c);
    }
  };
  auto step = [&]() {
    int e2 = err;
    if (e2 > W(-static_cast<std::int64_t>(dx))) {
      err = W(static_cast<std::int64_t>(err) - dy);
      x1 = W(static_cast<std::int64_t>(x1) + sx);
      if (xinc) {
        left_top = W(static_cast<std::int64_t>(left_top) + sx);
        right_bottom = W(static_cast<std::int64_t>(right_bottom) + sx);
      }
    }
    if (e2 < dy) {
      err = W(static_cast<std::int64_t>(err) + dx);
      y1 = W(static_cast<std::int64_t>(y1) + sy);
      if (!xinc) {
        left_top = W(static_cast<std::int64_t>(left_top) + sy);
        right_bottom = W(static_cast<std::int64_t>(right_bottom) + sy);
      }
    }
  };
  // Both loops walk a clipped segment, so they end within a few surface
  // sizes; the cap only guards coordinates whose int maths overflowed.
  const std::int64_t max_steps =
      4 * (static_cast<std::int64_t>(canvas.width()) + canvas.height()) + 64;
  for (std::int64_t n = 0;
       n < max_steps &&
       (Sign(W(static_cast<std::int64_t>(x1) - x2), sx) != sx ||
        Sign(W(static_cast<std::int64_t>(y1) - y2), sy) != sy);
       ++n) {
    draw_span();
    step();
  }
  for (std::int64_t n = 0; n < max_steps; ++n) {
    bool more = xinc ? y1 != end_y && (canvas.Inside(left_top, y1) ||
                                       canvas.Inside(right_bottom, y1))
                     : x1 != end_x && (canvas.Inside(x1, left_top) ||
                                       canvas.Inside(x1, right_bottom));
    if (!more) {
      break;
    }
    draw_span();
    step();
  }
  draw_span();
}

}  // namespace pygame_detail

// pygame.draw.line(surf, c, a, b, width): int-truncated end points, the
// Liang-Barsky clip of draw.c, then Bresenham (thick lines grow along the
// minor axis).
inline void DrawLine(Canvas& canvas, Point a, Point b, Color c, int width = 1) {
  if (width < 1) {
    return;
  }
  pygame_detail::LineInts(canvas, pygame_detail::TruncateToInt(a.x),
                          pygame_detail::TruncateToInt(a.y),
                          pygame_detail::TruncateToInt(b.x),
                          pygame_detail::TruncateToInt(b.y), c, width);
}

// pygame.draw.lines(surf, c, closed, points, width).
inline void DrawLines(Canvas& canvas, std::span<const Point> points,
                      bool closed, Color c, int width) {
  if (points.size() < 2 || width < 1) {
    return;
  }
  pygame_detail::ForEachSegment(points, closed, [&](Point a, Point b) {
    DrawLine(canvas, a, b, c, width);
  });
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_LINES_H_
