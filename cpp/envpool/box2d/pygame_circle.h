// pygame.draw.circle (filled) as draw.c (pygame 2.6.1) draws it.
#ifndef ENVPOOL_BOX2D_PYGAME_CIRCLE_H_
#define ENVPOOL_BOX2D_PYGAME_CIRCLE_H_

#include <cstdint>

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

// pygame.draw.circle(surf, c, center, radius) (filled): centre and radius
// truncated to int, then draw.c's midpoint fill.
inline void FillCircle(Canvas& canvas, Point center, double radius, Color c) {
  int x0 = pygame_detail::TruncateToInt(center.x);
  int y0 = pygame_detail::TruncateToInt(center.y);
  int r = pygame_detail::TruncateToInt(radius);
  if (r < 1) {
    return;
  }
  if (x0 > pygame_detail::W(static_cast<std::int64_t>(canvas.width()) + r) ||
      x0 < pygame_detail::W(-static_cast<std::int64_t>(r)) ||
      y0 > pygame_detail::W(static_cast<std::int64_t>(canvas.height()) + r) ||
      y0 < pygame_detail::W(-static_cast<std::int64_t>(r))) {
    return;
  }
  std::int64_t f = 1 - static_cast<std::int64_t>(r);
  std::int64_t ddf_x = 0;
  std::int64_t ddf_y = -2 * static_cast<std::int64_t>(r);
  std::int64_t x = 0;
  std::int64_t y = r;
  auto span = [&](std::int64_t xa, std::int64_t row, std::int64_t xb) {
    canvas.HorizontalLineClipped(pygame_detail::W(xa), pygame_detail::W(row),
                                 pygame_detail::W(xb), c);
  };
  while (x < y) {
    if (f >= 0) {
      --y;
      ddf_y += 2;
      f += ddf_y;
    }
    ++x;
    ddf_x += 2;
    f += ddf_x + 1;
    if (f >= 0) {
      span(x0 - x, y0 + y - 1, x0 + x - 1);
      span(x0 - x, y0 - y, x0 + x - 1);
    }
    span(x0 - y, y0 + x - 1, x0 + y - 1);
    span(x0 - y, y0 - x, x0 + y - 1);
  }
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_CIRCLE_H_
