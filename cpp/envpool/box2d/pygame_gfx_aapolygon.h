// pygame.gfxdraw.aapolygon as SDL_gfx (bundled with pygame 2.6.1) draws it:
// Wu anti-aliased lines in 32-bit fixed point between Sint16 vertices, each
// blended onto the surface with SDL_gfx's 8-bit weights.
#ifndef ENVPOOL_BOX2D_PYGAME_GFX_AAPOLYGON_H_
#define ENVPOOL_BOX2D_PYGAME_GFX_AAPOLYGON_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

namespace pygame_detail {

// SDL_gfx's vlineColor (opaque): swapped into order, clipped.
inline void GfxVerticalLine(Canvas& canvas, std::int16_t x, std::int16_t y1,
                            std::int16_t y2, Color c) {
  if (y1 > y2) {
    std::swap(y1, y2);
  }
  if (x < 0 || x > canvas.width() - 1 || y2 < 0 || y1 > canvas.height() - 1) {
    return;
  }
  int from = std::max<int>(y1, 0);
  int to = std::min<int>(y2, canvas.height() - 1);
  for (int y = from; y <= to; ++y) {
    canvas.Put(x, y, c);
  }
}

// SDL_gfx's pixelColorWeight with an opaque colour: alpha = 255*w >> 8,
// blended as dst + ((src - dst) * alpha >> 8).
inline void GfxWeightedPixel(Canvas& canvas, std::int64_t x, std::int64_t y,
                             Color c, std::uint32_t weight) {
  if (!canvas.Inside(x, y)) {
    return;
  }
  int alpha = static_cast<int>((255U * weight) >> 8);
  std::uint8_t* p = canvas.PixelAt(static_cast<int>(x), static_cast<int>(y));
  auto blend = [alpha](std::uint8_t dst, std::uint8_t src) {
    return static_cast<std::uint8_t>(dst + (((src - dst) * alpha) >> 8));
  };
  p[0] = blend(p[0], c.r);
  p[1] = blend(p[1], c.g);
  p[2] = blend(p[2], c.b);
}

// SDL_gfx's Cohen-Sutherland clip (_clipLine), float slope included; it
// may swap the end points, which changes the first pixel drawn.
inline bool GfxClipLine(const Canvas& canvas, std::int16_t& x1,
                        std::int16_t& y1, std::int16_t& x2, std::int16_t& y2) {
  const std::int16_t left = 0;
  const std::int16_t top = 0;
  const auto right = WrapToInt16(canvas.width() - 1);
  const auto bottom = WrapToInt16(canvas.height() - 1);
  auto encode = [&](std::int16_t x, std::int16_t y) {
    int code = 0;
    if (x < left) {
      code |= 1;
    } else if (x > right) {
      code |= 2;
    }
    if (y < top) {
      code |= 8;
    } else if (y > bottom) {
      code |= 4;
    }
    return code;
  };
  for (int guard = 0; guard < 64; ++guard) {
    int code1 = encode(x1, y1);
    int code2 = encode(x2, y2);
    if ((code1 | code2) == 0) {
      return true;
    }
    if ((code1 & code2) != 0) {
      return false;
    }
    if (code1 == 0) {
      std::swap(x1, x2);
      std::swap(y1, y2);
      std::swap(code1, code2);
    }
    float m = 1.0F;
    if (x2 != x1) {
      m = static_cast<float>(y2 - y1) / static_cast<float>(x2 - x1);
    }
    auto shift = [](float v) { return WrapToInt16(TruncateFloatToInt(v)); };
    if ((code1 & 1) != 0) {
      y1 = WrapToInt16(y1 + shift(static_cast<float>(left - x1) * m));
      x1 = left;
    } else if ((code1 & 2) != 0) {
      y1 = WrapToInt16(y1 + shift(static_cast<float>(right - x1) * m));
      x1 = right;
    } else if ((code1 & 4) != 0) {
      if (x2 != x1) {
        x1 = WrapToInt16(x1 + shift(static_cast<float>(bottom - y1) / m));
      }
      y1 = bottom;
    } else if ((code1 & 8) != 0) {
      if (x2 != x1) {
        x1 = WrapToInt16(x1 + shift(static_cast<float>(top - y1) / m));
      }
      y1 = top;
    }
  }
  return false;
}

// SDL_gfx's _aalineColor with draw_endpoint = 0 (what aapolygon uses).
inline void GfxAaLine(Canvas& canvas, std::int16_t x1, std::int16_t y1,
                      std::int16_t x2, std::int16_t y2, Color c) {
  if (canvas.width() == 0 || canvas.height() == 0) {
    return;
  }
  if (!GfxClipLine(canvas, x1, y1, x2, y2)) {
    return;
  }
  std::int32_t xx0 = x1;
  std::int32_t yy0 = y1;
  std::int32_t xx1 = x2;
  std::int32_t yy1 = y2;
  if (yy0 > yy1) {
    std::swap(yy0, yy1);
    std::swap(xx0, xx1);
  }
  std::int32_t dx = xx1 - xx0;
  std::int32_t dy = yy1 - yy0;
  if (dx == 0) {
    if (dy > 0) {
      GfxVerticalLine(canvas, x1, WrapToInt16(yy0), WrapToInt16(yy0 + dy), c);
    } else {
      canvas.PutClipped(x1, y1, c);
    }
    return;
  }
  if (dy == 0) {
    canvas.GfxHorizontalLine(WrapToInt16(xx0), WrapToInt16(xx0 + dx), y1, c);
    return;
  }
  std::int32_t xdir = 1;
  if (dx < 0) {
    xdir = -1;
    dx = -dx;
  }
  std::uint32_t erracc = 0;
  canvas.PutClipped(x1, y1, c);
  // ((d << 16) / D) << 16 in 32-bit int: an exact diagonal overflows to 0.
  auto adjust = [](std::int32_t minor, std::int32_t major) {
    std::int32_t q =
        WrapToInt32(static_cast<std::int64_t>(minor) << 16) / major;
    return static_cast<std::uint32_t>(
        WrapToInt32(static_cast<std::int64_t>(q) << 16));
  };
  if (dy > dx) {
    std::uint32_t erradj = adjust(dx, dy);
    std::int32_t x0pxdir = xx0 + xdir;
    while (--dy != 0) {
      std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        xx0 = x0pxdir;
        x0pxdir += xdir;
      }
      ++yy0;
      std::uint32_t wgt = (erracc >> 24) & 255U;
      GfxWeightedPixel(canvas, WrapToInt16(xx0), WrapToInt16(yy0), c,
                       255 - wgt);
      GfxWeightedPixel(canvas, WrapToInt16(x0pxdir), WrapToInt16(yy0), c, wgt);
    }
  } else {
    std::uint32_t erradj = adjust(dy, dx);
    std::int32_t y0p1 = yy0 + 1;
    while (--dx != 0) {
      std::uint32_t before = erracc;
      erracc += erradj;
      if (erracc <= before) {
        yy0 = y0p1;
        ++y0p1;
      }
      xx0 += xdir;
      std::uint32_t wgt = (erracc >> 24) & 255U;
      GfxWeightedPixel(canvas, WrapToInt16(xx0), WrapToInt16(yy0), c,
                       255 - wgt);
      GfxWeightedPixel(canvas, WrapToInt16(xx0), WrapToInt16(y0p1), c, wgt);
    }
  }
}

}  // namespace pygame_detail

// pygame.gfxdraw.aapolygon: SDL_gfx's Wu lines between consecutive Sint16
// vertices, the closing edge included, each without its end pixel.
inline void AaPolygon(Canvas& canvas, std::span<const Point> points, Color c) {
  std::vector<std::int16_t> xs;
  std::vector<std::int16_t> ys;
  if (!pygame_detail::GfxVertices(points, xs, ys)) {
    return;
  }
  std::size_t n = xs.size();
  for (std::size_t i = 1; i < n; ++i) {
    pygame_detail::GfxAaLine(canvas, xs[i - 1], ys[i - 1], xs[i], ys[i], c);
  }
  pygame_detail::GfxAaLine(canvas, xs[n - 1], ys[n - 1], xs[0], ys[0], c);
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_GFX_AAPOLYGON_H_
