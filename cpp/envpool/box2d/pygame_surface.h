// The surface every pygame-faithful drawing call writes to: a 32-bit RGB
// pygame.Surface as a packed RGB canvas, the pixel and span primitives the
// drawing headers share, and the C number conversions pygame's code relies
// on (as compiled for x86-64 Linux). Every write is bounds-checked, whatever
// the coordinates.
#ifndef ENVPOOL_BOX2D_PYGAME_SURFACE_H_
#define ENVPOOL_BOX2D_PYGAME_SURFACE_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace envpool::box2d {

struct Color {
  std::uint8_t r, g, b;
};

struct Point {
  double x, y;
};

namespace pygame_detail {

// The segments pygame.draw.lines and draw.aalines draw through `points`:
// each point to the next, then the last back to the first when `closed` and
// there are more than two.
template <typename Segment>
void ForEachSegment(std::span<const Point> points, bool closed,
                    Segment&& segment) {
  for (std::size_t i = 1; i < points.size(); ++i) {
    segment(points[i - 1], points[i]);
  }
  if (closed && points.size() > 2) {
    segment(points.back(), points.front());
  }
}

// C's (int)double on x86-64 (cvttsd2si): truncation, and INT_MIN for NaN or
// anything outside int's range.
inline int TruncateToInt(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) {
    return std::numeric_limits<int>::min();
  }
  return static_cast<int>(v);
}

// C's (int)float on x86-64 (cvttss2si).
inline int TruncateFloatToInt(float v) {
  if (!(v > -2147483649.0F && v < 2147483648.0F)) {
    return std::numeric_limits<int>::min();
  }
  return static_cast<int>(v);
}

// Two's-complement narrowing, what C does for out-of-range integer casts.
inline std::int16_t WrapToInt16(std::int64_t v) {
  return static_cast<std::int16_t>(
      static_cast<std::uint16_t>(static_cast<std::uint64_t>(v) & 0xFFFFU));
}

inline std::int32_t WrapToInt32(std::int64_t v) {
  return static_cast<std::int32_t>(
      static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & 0xFFFFFFFFU));
}

// pygame.gfxdraw's Sint16 parsing: int(v) (truncation), which raises for NaN,
// infinities and values beyond a C long; otherwise wrapped to 16 bits.
inline std::optional<std::int16_t> GfxCoordinate(double v) {
  if (!std::isfinite(v)) {
    return std::nullopt;
  }
  double t = std::trunc(v);
  if (!(t >= -9223372036854775808.0 && t < 9223372036854775808.0)) {
    return std::nullopt;
  }
  return WrapToInt16(static_cast<std::int64_t>(t));
}

// SDL_gfx's vertex lists as pygame.gfxdraw parses them; false (nothing is
// drawn) for fewer than 3 points or a coordinate pygame rejects.
inline bool GfxVertices(std::span<const Point> points,
                        std::vector<std::int16_t>& xs,
                        std::vector<std::int16_t>& ys) {
  if (points.size() < 3) {
    return false;
  }
  xs.resize(points.size());
  ys.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    auto x = GfxCoordinate(points[i].x);
    auto y = GfxCoordinate(points[i].y);
    if (!x || !y) {
      return false;  // pygame raises before drawing anything
    }
    xs[i] = *x;
    ys[i] = *y;
  }
  return true;
}

// 32-bit wrapping int arithmetic, the way the compiled C behaves.
inline int W(std::int64_t v) { return WrapToInt32(v); }

}  // namespace pygame_detail

class Canvas {
 public:
  // The pixels are followed by kSlackBytes that belong to no pixel, so that
  // SmoothScale's row pass may read a few bytes past a row's last pixel.
  static constexpr std::size_t kSlackBytes = 16;

  Canvas(int width, int height)
      : width_(std::max(width, 0)),
        height_(std::max(height, 0)),
        pixels_(static_cast<std::size_t>(width_) * height_ * 3 + kSlackBytes,
                0) {}

  [[nodiscard]] int width() const { return width_; }
  [[nodiscard]] int height() const { return height_; }
  std::span<std::uint8_t> pixels() {
    return {pixels_.data(), pixels_.size() - kSlackBytes};
  }
  [[nodiscard]] std::span<const std::uint8_t> pixels() const {
    return {pixels_.data(), pixels_.size() - kSlackBytes};
  }
  // Row y's first pixel.
  [[nodiscard]] const std::uint8_t* Row(int y) const {
    return pixels_.data() + static_cast<std::size_t>(y) * width_ * 3;
  }

  void Fill(Color c) {
    for (int y = 0; y < height_; ++y) {
      FillRun(y, 0, width_ - 1, c);
    }
  }

  // pygame.draw.rect(surf, c, (x, y, w, h)) with width 0, or surf.fill(c,
  // rect): the rect intersected with the surface; empty for w or h <= 0.
  void FillRect(int x, int y, int w, int h, Color c) {
    if (w <= 0 || h <= 0) {
      return;
    }
    std::int64_t x0 = std::max<std::int64_t>(x, 0);
    std::int64_t y0 = std::max<std::int64_t>(y, 0);
    std::int64_t x1 =
        std::min<std::int64_t>(static_cast<std::int64_t>(x) + w, width_);
    std::int64_t y1 =
        std::min<std::int64_t>(static_cast<std::int64_t>(y) + h, height_);
    for (std::int64_t row = y0; row < y1; ++row) {
      if (x0 < x1) {
        FillRun(static_cast<int>(row), static_cast<int>(x0),
                static_cast<int>(x1 - 1), c);
      }
    }
  }

  // One pixel, dropped outside the canvas (a straight, opaque blit).
  void SetPixel(std::int64_t x, std::int64_t y, Color c) {
    PutClipped(x, y, c);
  }

  // pygame.transform.flip(surf, False, True).
  void FlipVertical() { SwapMirroredRows(0); }

  // Copies each row y >= first onto its mirror row height - 1 - y (the first
  // half of a SwapMirroredRows(first), for rows y >= first drawn over next).
  void CopyRowsToMirrors(int first) {
    const std::size_t row_bytes = static_cast<std::size_t>(width_) * 3;
    for (int y = std::max(first, (height_ + 1) / 2); y < height_; ++y) {
      std::memcpy(pixels_.data() + (height_ - 1 - y) * row_bytes,
                  pixels_.data() + y * row_bytes, row_bytes);
    }
  }

  // Swaps each row y >= first with its mirror row height - 1 - y (a
  // vertical flip of those rows and their mirrors only; all rows for 0).
  void SwapMirroredRows(int first) {
    std::size_t row_bytes = static_cast<std::size_t>(width_) * 3;
    std::vector<std::uint8_t> row(row_bytes);
    for (int top = 0, bottom = height_ - 1; top < bottom; ++top, --bottom) {
      if (bottom < first) {
        break;
      }
      std::uint8_t* a = pixels_.data() + top * row_bytes;
      std::uint8_t* b = pixels_.data() + bottom * row_bytes;
      std::memcpy(row.data(), a, row_bytes);
      std::memcpy(a, b, row_bytes);
      std::memcpy(b, row.data(), row_bytes);
    }
  }

  // The primitives the drawing headers (pygame_*.h) build on.
  [[nodiscard]] bool Inside(std::int64_t x, std::int64_t y) const {
    return x >= 0 && x < width_ && y >= 0 && y < height_;
  }

  // Pixel (x, y), which must be inside the canvas.
  std::uint8_t* PixelAt(int x, int y) {
    return pixels_.data() + (static_cast<std::size_t>(y) * width_ + x) * 3;
  }

  void Put(int x, int y, Color c) {
    std::uint8_t* p = PixelAt(x, y);
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
  }

  // Pixels from..to (inclusive, inside the canvas) of row y: four pixels at
  // a time as three 32-bit words.
  void FillRun(int y, int from, int to, Color c) {
    static_assert(std::endian::native == std::endian::little);
    if (from > to) {
      return;
    }
    std::uint8_t* p = PixelAt(from, y);
    int n = to - from + 1;
    const std::uint32_t r = c.r;
    const std::uint32_t g = c.g;
    const std::uint32_t b = c.b;
    const std::uint32_t w0 = r | (g << 8) | (b << 16) | (r << 24);
    const std::uint32_t w1 = g | (b << 8) | (r << 16) | (g << 24);
    const std::uint32_t w2 = b | (r << 8) | (g << 16) | (b << 24);
#if defined(__SSE2__)
    if (n >= 16) {  // sixteen pixels as three 16-byte stores
      const __m128i v0 =
          _mm_setr_epi32(static_cast<int>(w0), static_cast<int>(w1),
                         static_cast<int>(w2), static_cast<int>(w0));
      const __m128i v1 =
          _mm_setr_epi32(static_cast<int>(w1), static_cast<int>(w2),
                         static_cast<int>(w0), static_cast<int>(w1));
      const __m128i v2 =
          _mm_setr_epi32(static_cast<int>(w2), static_cast<int>(w0),
                         static_cast<int>(w1), static_cast<int>(w2));
      for (; n >= 16; n -= 16, p += 48) {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v0);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 16), v1);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(p + 32), v2);
      }
    }
#endif
    for (; n >= 4; n -= 4, p += 12) {
      std::memcpy(p, &w0, 4);
      std::memcpy(p + 4, &w1, 4);
      std::memcpy(p + 8, &w2, 4);
    }
    for (; n > 0; --n, p += 3) {
      p[0] = c.r;
      p[1] = c.g;
      p[2] = c.b;
    }
  }

  void PutClipped(std::int64_t x, std::int64_t y, Color c) {
    if (Inside(x, y)) {
      Put(static_cast<int>(x), static_cast<int>(y), c);
    }
  }

  // draw.c's drawhorzlineclip: y outside -> nothing; x range clipped.
  void HorizontalLineClipped(int x1, int y, int x2, Color c) {
    if (y < 0 || y >= height_) {
      return;
    }
    if (x2 < x1) {
      std::swap(x1, x2);
    }
    x1 = std::max(x1, 0);
    x2 = std::min(x2, width_ - 1);
    FillRun(y, x1, x2, c);
  }

  // SDL_gfx's hlineColor (opaque): swapped into order, clipped.
  void GfxHorizontalLine(std::int16_t x1, std::int16_t x2, std::int16_t y,
                         Color c) {
    if (x1 > x2) {
      std::swap(x1, x2);
    }
    if (x2 < 0 || x1 > width_ - 1 || y < 0 || y > height_ - 1) {
      return;
    }
    int from = std::max<int>(x1, 0);
    int to = std::min<int>(x2, width_ - 1);
    FillRun(y, from, to, c);
  }

 private:
  int width_;
  int height_;
  std::vector<std::uint8_t> pixels_;
};

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_SURFACE_H_
