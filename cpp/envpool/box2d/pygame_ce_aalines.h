// pygame.draw.aalines as pygame-ce 2.5.8 draws it. Each segment is the same
// anti-aliased line as pygame 2.6.1's, but where the polyline goes on through
// a vertex that does not sit on whole pixel coordinates, the segments leave
// out their end pixel columns there, so that the joint is not blended twice.
// Where the polyline turns between steep and shallow, the ends are drawn after
// all. LunarLander's body outlines are drawn this way.
#ifndef ENVPOOL_BOX2D_PYGAME_CE_AALINES_H_
#define ENVPOOL_BOX2D_PYGAME_CE_AALINES_H_

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "envpool/box2d/pygame_aalines.h"
#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_ce_detail {

struct FloatSegment {
  float x0, y0, x1, y1;
  [[nodiscard]] bool Steep() const {
    return std::fabs(x1 - x0) < std::fabs(y1 - y0);
  }
  // Both ends are skipped unless the segment ends on whole coordinates
  // (pygame-ce looks at the segment's second point only, for both ends).
  [[nodiscard]] bool SkipsEnds() const {
    return std::round(x1) != x1 || std::round(y1) != y1;
  }
};

}  // namespace pygame_ce_detail

// pygame-ce's pygame.draw.aalines(surf, c, closed, points).
inline void AaLinesCe(Canvas& canvas, std::span<const Point> points,
                      bool closed, Color c) {
  using pygame_ce_detail::FloatSegment;
  using pygame_detail::AaLineEnds;
  const std::size_t n = points.size();
  if (n < 2) {
    return;
  }
  std::vector<float> xs(n);
  std::vector<float> ys(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = static_cast<float>(points[i].x);
    ys[i] = static_cast<float>(points[i].y);
  }
  auto segment = [&](std::size_t from, std::size_t to) {
    return FloatSegment{xs[from], ys[from], xs[to], ys[to]};
  };
  auto draw = [&](const FloatSegment& s, AaLineEnds ends) {
    pygame_detail::AaLineFloat(canvas, s.x0, s.y0, s.x1, s.y1, c, ends);
  };

  // The first segment's turn test compares it with a line from its second
  // point to the third point's x and the first point's y: pygame-ce's
  // arithmetic, kept because it decides pixels. With two points pygame-ce
  // reads past its buffer there; here the segment then draws no extra ends.
  FloatSegment previous = segment(0, 1);
  bool extra = false;
  if (n > 2) {
    const bool turned_steep =
        std::fabs(xs[2] - previous.x1) < std::fabs(ys[2] - previous.y0);
    extra = previous.Steep() && !turned_steep;
  }
  bool skip = previous.SkipsEnds();
  draw(previous,
       {.skip_first = closed && skip, .skip_second = skip, .extra = extra});

  // The middle segments, then the last one (for two points, the first again).
  auto next = [&](const FloatSegment& s, AaLineEnds ends) {
    ends.extra = previous.Steep() != s.Steep();
    previous = s;
    draw(s, ends);
  };
  for (std::size_t i = 2; i + 1 < n; ++i) {
    const FloatSegment s = segment(i - 1, i);
    skip = s.SkipsEnds();
    next(s, {.skip_first = skip, .skip_second = skip});
  }
  const FloatSegment last = segment(n - 2, n - 1);
  skip = last.SkipsEnds();
  next(last, {.skip_first = skip, .skip_second = closed && skip});
  if (closed && n > 2) {
    const FloatSegment closing = segment(n - 1, 0);
    skip = closing.SkipsEnds();
    next(closing, {.skip_first = skip, .skip_second = skip});
  }
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_CE_AALINES_H_
