// pygame.draw.aaline(s) (blend on) as draw.c (pygame 2.6.1) draws them: a
// Wu-style anti-aliased line in float maths, clipped to the surface.
// pygame-ce's aalines leave out some end pixels (pygame_ce_aalines.h), which
// the same line routine takes as AaLineEnds.
#ifndef ENVPOOL_BOX2D_PYGAME_AALINES_H_
#define ENVPOOL_BOX2D_PYGAME_AALINES_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_detail {

// draw.c's get_antialiased_color (blend on) followed by set_at.
inline void BlendPixel(Canvas& canvas, int x, int y, Color c,
                       float brightness) {
  if (!canvas.Inside(x, y)) {
    return;
  }
  std::uint8_t* p = canvas.PixelAt(x, y);
  auto mix = [brightness](std::uint8_t src, std::uint8_t dst) {
    float v = brightness * static_cast<float>(src) +
              (1.0F - brightness) * static_cast<float>(dst);
    return static_cast<std::uint8_t>(
        static_cast<std::uint32_t>(TruncateFloatToInt(v)) & 0xFFU);
  };
  p[0] = mix(c.r, p[0]);
  p[1] = mix(c.g, p[1]);
  p[2] = mix(c.b, p[2]);
}

inline int FloatToInt(float v) { return TruncateFloatToInt(v); }

// Which end pixel columns a line draws. The ends are the line's own after it
// is turned to run left to right (top to bottom if steep), not the caller's.
// pygame 2.6.1 draws both; pygame-ce's aalines skip them where the polyline
// goes on, but draw them anyway (and, for a skipped first end, its column a
// second time) where it turns between steep and shallow (`extra`).
struct AaLineEnds {
  bool skip_first = false;
  bool skip_second = false;
  bool extra = false;
};

inline void AaLineFloat(Canvas& canvas, float from_x, float from_y, float to_x,
                        float to_y, Color c, AaLineEnds ends = {}) {
  float dx = to_x - from_x;
  float dy = to_y - from_y;
  if (std::fabs(static_cast<double>(dx)) < 0.0001 &&
      std::fabs(static_cast<double>(dy)) < 0.0001) {
    int px = TruncateToInt(std::floor(static_cast<double>(from_x) + 0.5));
    int py = TruncateToInt(std::floor(static_cast<double>(from_y) + 0.5));
    BlendPixel(canvas, px, py, c, 1.0F);
    return;
  }
  float clip_left = 0.0F - 1.0F;
  float clip_right = clip_left + static_cast<float>(canvas.width()) + 1.0F;
  float clip_top = 0.0F - 1.0F;
  float clip_bottom = clip_top + static_cast<float>(canvas.height()) + 1.0F;
  bool steep =
      std::fabs(static_cast<double>(dx)) < std::fabs(static_cast<double>(dy));
  if (steep) {
    std::swap(from_x, from_y);
    std::swap(to_x, to_y);
    std::swap(dx, dy);
    std::swap(clip_left, clip_top);
    std::swap(clip_right, clip_bottom);
  }
  if (dx < 0) {
    std::swap(from_x, to_x);
    std::swap(from_y, to_y);
    dx = -dx;
    dy = -dy;
  }
  if (to_x <= clip_left || from_x >= clip_right) {
    return;
  }
  float gradient = dy / dx;
  if (from_x < clip_left) {
    from_y += gradient * (clip_left - from_x);
    from_x = clip_left;
  }
  if (to_x > clip_right) {
    to_y += gradient * (clip_right - to_x);
    to_x = clip_right;
  }
  // The vertical clip moves the upper end (from, for a rising line) down to
  // clip_top and the lower one up to clip_bottom; false if nothing is left.
  auto clip_y = [&](float& upper_x, float& upper_y, float& lower_x,
                    float& lower_y) {
    if (lower_y <= clip_top || upper_y >= clip_bottom) {
      return false;
    }
    if (upper_y < clip_top) {
      upper_x += (clip_top - upper_y) / gradient;
      upper_y = clip_top;
    }
    if (lower_y > clip_bottom) {
      lower_x += (clip_bottom - lower_y) / gradient;
      lower_y = clip_bottom;
    }
    return true;
  };
  const bool visible = gradient > 0.0F ? clip_y(from_x, from_y, to_x, to_y)
                                       : clip_y(to_x, to_y, from_x, from_y);
  if (!visible) {
    return;
  }
  from_y += 1.0F;
  to_y += 1.0F;
  auto plot = [&](int along, int across, float brightness) {
    if (steep) {
      BlendPixel(canvas, across, along, c, brightness);
    } else {
      BlendPixel(canvas, along, across, c, brightness);
    }
  };
  // An end pixel column: the two pixels about y_endpoint, weighted by how
  // much of the column the line covers (x_gap).
  auto plot_end = [&](int x, float y_endpoint, float x_gap) {
    int y_int = FloatToInt(y_endpoint);
    float brightness = y_endpoint - static_cast<float>(y_int);
    if (static_cast<float>(y_int) < y_endpoint) {
      plot(x, y_int, brightness * x_gap);
    }
    plot(x, W(static_cast<std::int64_t>(y_int) - 1), (1 - brightness) * x_gap);
  };
  int x_pixel_start = FloatToInt(from_x);
  float intersect_y =
      from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
  if ((!ends.skip_first || ends.extra) && to_x > clip_left + 1.0F) {
    plot_end(x_pixel_start, intersect_y,
             static_cast<float>(1 + x_pixel_start) - from_x);
    intersect_y += gradient;
    x_pixel_start = W(static_cast<std::int64_t>(x_pixel_start) + 1);
  }
  if (ends.skip_first) {
    x_pixel_start = TruncateToInt(std::ceil(static_cast<double>(from_x)));
    intersect_y =
        from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
  }
  int x_pixel_end = TruncateToInt(std::ceil(static_cast<double>(to_x)));
  if ((!ends.skip_second || ends.extra) && from_x < clip_right - 1.0F) {
    plot_end(
        x_pixel_end, to_y + gradient * (static_cast<float>(x_pixel_end) - to_x),
        static_cast<float>(1 - static_cast<std::int64_t>(x_pixel_end)) + to_x);
  }
  // A NaN coordinate makes every remaining pixel land off the surface (and
  // can make the span ~2^31 long), so it is skipped outright.
  if (std::isnan(intersect_y)) {
    return;
  }
  for (std::int64_t x = x_pixel_start; x < x_pixel_end; ++x) {
    int y = FloatToInt(intersect_y);
    float brightness = 1 - intersect_y + static_cast<float>(y);
    plot(static_cast<int>(x), W(static_cast<std::int64_t>(y) - 1), brightness);
    if (static_cast<float>(y) < intersect_y) {
      plot(static_cast<int>(x), y, 1 - brightness);
    }
    intersect_y += gradient;
  }
}

}  // namespace pygame_detail

// pygame.draw.aaline(surf, c, a, b) (blend on, width 1), the same in pygame
// 2.6.1 and pygame-ce 2.5.8: coordinates narrowed to float.
inline void AaLine(Canvas& canvas, Point a, Point b, Color c) {
  pygame_detail::AaLineFloat(canvas, static_cast<float>(a.x),
                             static_cast<float>(a.y), static_cast<float>(b.x),
                             static_cast<float>(b.y), c);
}

// pygame.draw.aalines(surf, c, closed, points) (blend on) as pygame 2.6.1
// draws it: each segment a whole aaline.
inline void AaLines(Canvas& canvas, std::span<const Point> points, bool closed,
                    Color c) {
  if (points.size() < 2) {
    return;
  }
  pygame_detail::ForEachSegment(
      points, closed, [&](Point a, Point b) { AaLine(canvas, a, b, c); });
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_AALINES_H_
