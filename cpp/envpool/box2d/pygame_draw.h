// A small software canvas that reproduces, pixel for pixel, what pygame 2.6.1
// draws on a 32-bit RGB pygame.Surface, for the calls gymnasium's Box2D
// renderers make (pygame.draw, pygame.gfxdraw, transform.flip and
// transform.smoothscale). Every rule that decides a pixel (float to int
// conversion, scanline fill, SDL_gfx fixed-point maths, clipping, sort order)
// follows pygame's behaviour on x86-64 Linux; every write is bounds-checked,
// whatever the coordinates.
#ifndef ENVPOOL_BOX2D_PYGAME_DRAW_H_
#define ENVPOOL_BOX2D_PYGAME_DRAW_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <span>
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

  // pygame.draw.polygon(surf, c, points) (width 0): points truncated to int,
  // then draw.c's scanline fill.
  void FillPolygon(std::span<const Point> points, Color c) {
    if (points.size() < 3) {
      return;
    }
    std::vector<int> xs(points.size());
    std::vector<int> ys(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      xs[i] = pygame_detail::TruncateToInt(points[i].x);
      ys[i] = pygame_detail::TruncateToInt(points[i].y);
    }
    FillPolygonInts(xs, ys, c);
  }

  // pygame.gfxdraw.aapolygon: SDL_gfx's Wu lines between consecutive Sint16
  // vertices, the closing edge included, each without its end pixel.
  void AaPolygon(std::span<const Point> points, Color c) {
    std::vector<std::int16_t> xs;
    std::vector<std::int16_t> ys;
    if (!GfxVertices(points, xs, ys)) {
      return;
    }
    std::size_t n = xs.size();
    for (std::size_t i = 1; i < n; ++i) {
      GfxAaLine(xs[i - 1], ys[i - 1], xs[i], ys[i], c);
    }
    GfxAaLine(xs[n - 1], ys[n - 1], xs[0], ys[0], c);
  }

  // pygame.gfxdraw.filled_polygon: SDL_gfx's 16.16 fixed-point scanline fill.
  void GfxFilledPolygon(std::span<const Point> points, Color c) {
    std::vector<std::int16_t> xs;
    std::vector<std::int16_t> ys;
    if (!GfxVertices(points, xs, ys)) {
      return;
    }
    GfxFilledPolygonInts(xs, ys, c);
  }

  // Whether GfxFilledPolygon(quad, c) paints every pixel of the canvas: the
  // quadrilateral is convex (every turn the same way) and holds the canvas
  // with two pixels to spare (the fill rounds its edges by less than one).
  [[nodiscard]] bool GfxQuadCovers(std::span<const Point> quad) const {
    std::vector<std::int16_t> xs;
    std::vector<std::int16_t> ys;
    if (quad.size() != 4 || !GfxVertices(quad, xs, ys)) {
      return false;
    }
    const std::array<std::array<std::int64_t, 2>, 4> corners = {
        {{-2, -2},
         {width_ + 1, -2},
         {width_ + 1, height_ + 1},
         {-2, height_ + 1}}};
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

  // pygame.draw.line(surf, c, a, b, width): int-truncated end points, the
  // Liang-Barsky clip of draw.c, then Bresenham (thick lines grow along the
  // minor axis).
  void Line(Point a, Point b, Color c, int width = 1) {
    if (width < 1) {
      return;
    }
    LineInts(pygame_detail::TruncateToInt(a.x),
             pygame_detail::TruncateToInt(a.y),
             pygame_detail::TruncateToInt(b.x),
             pygame_detail::TruncateToInt(b.y), c, width);
  }

  // pygame.draw.lines(surf, c, closed, points, width).
  void Lines(std::span<const Point> points, bool closed, Color c, int width) {
    if (points.size() < 2 || width < 1) {
      return;
    }
    for (std::size_t i = 1; i < points.size(); ++i) {
      Line(points[i - 1], points[i], c, width);
    }
    if (closed && points.size() > 2) {
      Line(points.back(), points.front(), c, width);
    }
  }

  // pygame.draw.circle(surf, c, center, radius) (filled): centre and radius
  // truncated to int, then draw.c's midpoint fill.
  void FillCircle(Point center, double radius, Color c) {
    int x0 = pygame_detail::TruncateToInt(center.x);
    int y0 = pygame_detail::TruncateToInt(center.y);
    int r = pygame_detail::TruncateToInt(radius);
    if (r < 1) {
      return;
    }
    if (x0 > W(static_cast<std::int64_t>(width_) + r) ||
        x0 < W(-static_cast<std::int64_t>(r)) ||
        y0 > W(static_cast<std::int64_t>(height_) + r) ||
        y0 < W(-static_cast<std::int64_t>(r))) {
      return;
    }
    std::int64_t f = 1 - static_cast<std::int64_t>(r);
    std::int64_t ddf_x = 0;
    std::int64_t ddf_y = -2 * static_cast<std::int64_t>(r);
    std::int64_t x = 0;
    std::int64_t y = r;
    auto span = [&](std::int64_t xa, std::int64_t row, std::int64_t xb) {
      HorizontalLineClipped(W(xa), W(row), W(xb), c);
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

  // pygame.draw.aalines(surf, c, closed, points) (blend on): coordinates
  // narrowed to float, draw.c's Wu-style line with float maths.
  void AaLines(std::span<const Point> points, bool closed, Color c) {
    if (points.size() < 2) {
      return;
    }
    for (std::size_t i = 1; i < points.size(); ++i) {
      AaLineFloat(static_cast<float>(points[i - 1].x),
                  static_cast<float>(points[i - 1].y),
                  static_cast<float>(points[i].x),
                  static_cast<float>(points[i].y), c);
    }
    if (closed && points.size() > 2) {
      AaLineFloat(static_cast<float>(points.back().x),
                  static_cast<float>(points.back().y),
                  static_cast<float>(points.front().x),
                  static_cast<float>(points.front().y), c);
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

 private:
  [[nodiscard]] bool Inside(std::int64_t x, std::int64_t y) const {
    return x >= 0 && x < width_ && y >= 0 && y < height_;
  }

  void Put(int x, int y, Color c) {
    std::uint8_t* p =
        pixels_.data() + (static_cast<std::size_t>(y) * width_ + x) * 3;
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
    std::uint8_t* p =
        pixels_.data() + (static_cast<std::size_t>(y) * width_ + from) * 3;
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

  void FillPolygonInts(const std::vector<int>& xs, const std::vector<int>& ys,
                       Color c) {
    std::size_t n = xs.size();
    double miny = ys[0];
    double maxy = ys[0];
    for (std::size_t i = 1; i < n; ++i) {
      miny = std::min<double>(miny, ys[i]);
      maxy = std::max<double>(maxy, ys[i]);
    }
    if (miny == maxy) {
      int minx = *std::min_element(xs.begin(), xs.end());
      int maxx = *std::max_element(xs.begin(), xs.end());
      HorizontalLineClipped(minx, static_cast<int>(miny), maxx, c);
      return;
    }
    std::vector<int> crossings(n);
    std::vector<int> tmp(n);
    // Rows outside the surface draw nothing, so only visible rows are scanned
    // (the scan visits integer y values, so clamping keeps the same rows).
    double first = std::max(miny, 0.0);
    double last = std::min(maxy, static_cast<double>(height_) - 1.0);
    // A double y as in pygame's loop: it takes small integer values only, so
    // ++y is exact and the loop visits the same rows as an int would.
    // NOLINTNEXTLINE(bugprone-float-loop-counter,*.FloatLoopCounter)
    for (double y = first; y <= last; ++y) {
      std::size_t count = 0;
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t prev = i == 0 ? n - 1 : i - 1;
        double y1 = ys[prev];
        double y2 = ys[i];
        double x1;
        double x2;
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
          crossings[count++] = pygame_detail::TruncateToInt(
              (y - y1) * (x2 - x1) / (y2 - y1) + x1);
        }
      }
      pygame_detail::GlibcQsortInts(crossings, count, tmp);
      for (std::size_t i = 0; i + 1 < count; i += 2) {
        HorizontalLineClipped(crossings[i], static_cast<int>(y),
                              crossings[i + 1], c);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t prev = i == 0 ? n - 1 : i - 1;
      double y = ys[i];
      if (miny < y && ys[prev] == ys[i] && y < maxy) {
        HorizontalLineClipped(xs[i], ys[i], xs[prev], c);
      }
    }
  }

  static bool GfxVertices(std::span<const Point> points,
                          std::vector<std::int16_t>& xs,
                          std::vector<std::int16_t>& ys) {
    if (points.size() < 3) {
      return false;
    }
    xs.resize(points.size());
    ys.resize(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      auto x = pygame_detail::GfxCoordinate(points[i].x);
      auto y = pygame_detail::GfxCoordinate(points[i].y);
      if (!x || !y) {
        return false;  // pygame raises before drawing anything
      }
      xs[i] = *x;
      ys[i] = *y;
    }
    return true;
  }

  // SDL_gfx's hlineColor / vlineColor (opaque): swapped into order, clipped.
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

  void GfxVerticalLine(std::int16_t x, std::int16_t y1, std::int16_t y2,
                       Color c) {
    if (y1 > y2) {
      std::swap(y1, y2);
    }
    if (x < 0 || x > width_ - 1 || y2 < 0 || y1 > height_ - 1) {
      return;
    }
    int from = std::max<int>(y1, 0);
    int to = std::min<int>(y2, height_ - 1);
    for (int y = from; y <= to; ++y) {
      Put(x, y, c);
    }
  }

  // SDL_gfx's pixelColorWeight with an opaque colour: alpha = 255*w >> 8,
  // blended as dst + ((src - dst) * alpha >> 8).
  void GfxWeightedPixel(std::int64_t x, std::int64_t y, Color c,
                        std::uint32_t weight) {
    if (!Inside(x, y)) {
      return;
    }
    int alpha = static_cast<int>((255U * weight) >> 8);
    std::uint8_t* p =
        pixels_.data() + (static_cast<std::size_t>(y) * width_ + x) * 3;
    auto blend = [alpha](std::uint8_t dst, std::uint8_t src) {
      return static_cast<std::uint8_t>(dst + (((src - dst) * alpha) >> 8));
    };
    p[0] = blend(p[0], c.r);
    p[1] = blend(p[1], c.g);
    p[2] = blend(p[2], c.b);
  }

  // SDL_gfx's Cohen-Sutherland clip (_clipLine), float slope included; it
  // may swap the end points, which changes the first pixel drawn.
  [[nodiscard]] bool GfxClipLine(std::int16_t& x1, std::int16_t& y1,
                                 std::int16_t& x2, std::int16_t& y2) const {
    const std::int16_t left = 0;
    const std::int16_t top = 0;
    const auto right = pygame_detail::WrapToInt16(width_ - 1);
    const auto bottom = pygame_detail::WrapToInt16(height_ - 1);
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
      auto shift = [](float v) {
        return pygame_detail::WrapToInt16(pygame_detail::TruncateFloatToInt(v));
      };
      if ((code1 & 1) != 0) {
        y1 = pygame_detail::WrapToInt16(
            y1 + shift(static_cast<float>(left - x1) * m));
        x1 = left;
      } else if ((code1 & 2) != 0) {
        y1 = pygame_detail::WrapToInt16(
            y1 + shift(static_cast<float>(right - x1) * m));
        x1 = right;
      } else if ((code1 & 4) != 0) {
        if (x2 != x1) {
          x1 = pygame_detail::WrapToInt16(
              x1 + shift(static_cast<float>(bottom - y1) / m));
        }
        y1 = bottom;
      } else if ((code1 & 8) != 0) {
        if (x2 != x1) {
          x1 = pygame_detail::WrapToInt16(
              x1 + shift(static_cast<float>(top - y1) / m));
        }
        y1 = top;
      }
    }
    return false;
  }

  // SDL_gfx's _aalineColor with draw_endpoint = 0 (what aapolygon uses).
  void GfxAaLine(std::int16_t x1, std::int16_t y1, std::int16_t x2,
                 std::int16_t y2, Color c) {
    if (width_ == 0 || height_ == 0) {
      return;
    }
    if (!GfxClipLine(x1, y1, x2, y2)) {
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
        GfxVerticalLine(x1, pygame_detail::WrapToInt16(yy0),
                        pygame_detail::WrapToInt16(yy0 + dy), c);
      } else {
        PutClipped(x1, y1, c);
      }
      return;
    }
    if (dy == 0) {
      GfxHorizontalLine(pygame_detail::WrapToInt16(xx0),
                        pygame_detail::WrapToInt16(xx0 + dx), y1, c);
      return;
    }
    std::int32_t xdir = 1;
    if (dx < 0) {
      xdir = -1;
      dx = -dx;
    }
    std::uint32_t erracc = 0;
    PutClipped(x1, y1, c);
    // ((d << 16) / D) << 16 in 32-bit int: an exact diagonal overflows to 0.
    auto adjust = [](std::int32_t minor, std::int32_t major) {
      std::int32_t q =
          pygame_detail::WrapToInt32(static_cast<std::int64_t>(minor) << 16) /
          major;
      return static_cast<std::uint32_t>(
          pygame_detail::WrapToInt32(static_cast<std::int64_t>(q) << 16));
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
        GfxWeightedPixel(pygame_detail::WrapToInt16(xx0),
                         pygame_detail::WrapToInt16(yy0), c, 255 - wgt);
        GfxWeightedPixel(pygame_detail::WrapToInt16(x0pxdir),
                         pygame_detail::WrapToInt16(yy0), c, wgt);
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
        GfxWeightedPixel(pygame_detail::WrapToInt16(xx0),
                         pygame_detail::WrapToInt16(yy0), c, 255 - wgt);
        GfxWeightedPixel(pygame_detail::WrapToInt16(xx0),
                         pygame_detail::WrapToInt16(y0p1), c, wgt);
      }
    }
  }

  void GfxFilledPolygonInts(const std::vector<std::int16_t>& xs,
                            const std::vector<std::int16_t>& ys, Color c) {
    if (width_ == 0 || height_ == 0) {
      return;
    }
    std::size_t n = xs.size();
    int miny = ys[0];
    int maxy = ys[0];
    for (std::size_t i = 1; i < n; ++i) {
      if (ys[i] < miny) {
        miny = ys[i];
      } else if (ys[i] > maxy) {
        maxy = ys[i];
      }
    }
    std::vector<int> crossings(n);
    std::vector<int> tmp(n);
    int first = std::max(miny, 0);
    int last = std::min(maxy, height_ - 1);
    for (int y = first; y <= last; ++y) {
      std::size_t count = 0;
      for (std::size_t i = 0; i < n; ++i) {
        std::size_t prev = i == 0 ? n - 1 : i - 1;
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
        if ((y >= y1 && y < y2) || (y == maxy && y > y1 && y <= y2)) {
          // 32-bit int arithmetic that wraps on overflow, as compiled C does.
          std::int32_t scaled = pygame_detail::WrapToInt32(65536LL * (y - y1));
          std::int32_t fraction = scaled / (y2 - y1);
          crossings[count++] = pygame_detail::WrapToInt32(
              static_cast<std::int64_t>(pygame_detail::WrapToInt32(
                  static_cast<std::int64_t>(fraction) * (x2 - x1))) +
              pygame_detail::WrapToInt32(65536LL * x1));
        }
      }
      pygame_detail::GlibcQsortInts(crossings, count, tmp);
      for (std::size_t i = 0; i + 1 < count; i += 2) {
        std::int32_t xa = pygame_detail::WrapToInt32(
            static_cast<std::int64_t>(crossings[i]) + 1);
        xa = (xa >> 16) + ((xa & 32768) >> 15);
        std::int32_t xb = pygame_detail::WrapToInt32(
            static_cast<std::int64_t>(crossings[i + 1]) - 1);
        xb = (xb >> 16) + ((xb & 32768) >> 15);
        GfxHorizontalLine(pygame_detail::WrapToInt16(xa),
                          pygame_detail::WrapToInt16(xb),
                          pygame_detail::WrapToInt16(y), c);
      }
    }
  }

  // 32-bit wrapping int arithmetic, the way the compiled C behaves.
  static int W(std::int64_t v) { return pygame_detail::WrapToInt32(v); }
  static int Abs32(int v) {
    return W(v < 0 ? -static_cast<std::int64_t>(v) : v);
  }
  static int RoundAway(double v) {
    return pygame_detail::TruncateToInt(v < 0 ? v - 0.5 : v + 0.5);
  }

  [[nodiscard]] bool ClipLineInts(int& x1, int& y1, int& x2, int& y2) const {
    int p1 = W(static_cast<std::int64_t>(x1) - x2);
    int p2 = W(-static_cast<std::int64_t>(p1));
    int p3 = W(static_cast<std::int64_t>(y1) - y2);
    int p4 = W(-static_cast<std::int64_t>(p3));
    int q1 = x1;
    int q2 = W(static_cast<std::int64_t>(width_) - x1);
    int q3 = y1;
    int q4 = W(static_cast<std::int64_t>(height_) - y1);
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

  void VerticalRun(int x, int from, int to, Color c) {
    if (x < 0 || x >= width_) {
      return;
    }
    for (std::int64_t y = std::max(from, 0); y <= std::min(to, height_ - 1);
         ++y) {
      PutClipped(x, y, c);
    }
  }

  // draw.c's draw_line (width 1, already clipped).
  void ThinLine(int x1, int y1, int x2, int y2, Color c) {
    if (x1 == x2 && y1 == y2) {
      PutClipped(x1, y1, c);
      return;
    }
    if (y1 == y2) {
      HorizontalLineClipped(x1, y1, x2, c);
      return;
    }
    if (x1 == x2) {
      VerticalRun(x1, std::min(y1, y2), std::max(y1, y2), c);
      return;
    }
    int dx = Abs32(W(static_cast<std::int64_t>(x2) - x1));
    int sx = x1 < x2 ? 1 : -1;
    int dy = Abs32(W(static_cast<std::int64_t>(y2) - y1));
    int sy = y1 < y2 ? 1 : -1;
    int err = (dx > dy ? dx : W(-static_cast<std::int64_t>(dy))) / 2;
    while (x1 != x2 || y1 != y2) {
      PutClipped(x1, y1, c);
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
    PutClipped(x2, y2, c);
  }

  static int Sign(int v, int fallback) {
    return v > 0 ? 1 : (v < 0 ? -1 : fallback);
  }

  // draw.c's draw_line_width.
  void LineInts(int x1, int y1, int x2, int y2, Color c, int width) {
    const int end_x = x2;
    const int end_y = y2;
    const bool xinc = Abs32(W(static_cast<std::int64_t>(x1) - x2)) <=
                      Abs32(W(static_cast<std::int64_t>(y1) - y2));
    const int dx = Abs32(W(static_cast<std::int64_t>(x2) - x1));
    const int sx = x1 < x2 ? 1 : -1;
    const int dy = Abs32(W(static_cast<std::int64_t>(y2) - y1));
    const int sy = y1 < y2 ? 1 : -1;
    int err = (dx > dy ? dx : W(-static_cast<std::int64_t>(dy))) / 2;
    if (!ClipLineInts(x1, y1, x2, y2)) {
      return;
    }
    if (width == 1) {
      ThinLine(x1, y1, x2, y2, c);
      return;
    }
    int left_top =
        W(static_cast<std::int64_t>(xinc ? x1 : y1) - (width - 1) / 2);
    int right_bottom = W(static_cast<std::int64_t>(xinc ? x1 : y1) + width / 2);
    auto draw_span = [&]() {
      if (xinc) {
        HorizontalLineClipped(left_top, y1, right_bottom, c);
      } else {
        VerticalRun(x1, left_top, right_bottom, c);
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
        4 * (static_cast<std::int64_t>(width_) + height_) + 64;
    for (std::int64_t n = 0;
         n < max_steps &&
         (Sign(W(static_cast<std::int64_t>(x1) - x2), sx) != sx ||
          Sign(W(static_cast<std::int64_t>(y1) - y2), sy) != sy);
         ++n) {
      draw_span();
      step();
    }
    for (std::int64_t n = 0; n < max_steps; ++n) {
      bool more = xinc ? y1 != end_y &&
                             (Inside(left_top, y1) || Inside(right_bottom, y1))
                       : x1 != end_x &&
                             (Inside(x1, left_top) || Inside(x1, right_bottom));
      if (!more) {
        break;
      }
      draw_span();
      step();
    }
    draw_span();
  }

  // draw.c's get_antialiased_color (blend on) followed by set_at.
  void BlendPixel(int x, int y, Color c, float brightness) {
    if (!Inside(x, y)) {
      return;
    }
    std::uint8_t* p =
        pixels_.data() + (static_cast<std::size_t>(y) * width_ + x) * 3;
    auto mix = [brightness](std::uint8_t src, std::uint8_t dst) {
      float v = brightness * static_cast<float>(src) +
                (1.0F - brightness) * static_cast<float>(dst);
      return static_cast<std::uint8_t>(
          static_cast<std::uint32_t>(pygame_detail::TruncateFloatToInt(v)) &
          0xFFU);
    };
    p[0] = mix(c.r, p[0]);
    p[1] = mix(c.g, p[1]);
    p[2] = mix(c.b, p[2]);
  }

  static int FloatToInt(float v) {
    return pygame_detail::TruncateFloatToInt(v);
  }

  void AaLineFloat(float from_x, float from_y, float to_x, float to_y,
                   Color c) {
    float dx = to_x - from_x;
    float dy = to_y - from_y;
    if (std::fabs(static_cast<double>(dx)) < 0.0001 &&
        std::fabs(static_cast<double>(dy)) < 0.0001) {
      int px = pygame_detail::TruncateToInt(
          std::floor(static_cast<double>(from_x) + 0.5));
      int py = pygame_detail::TruncateToInt(
          std::floor(static_cast<double>(from_y) + 0.5));
      BlendPixel(px, py, c, 1.0F);
      return;
    }
    float clip_left = 0.0F - 1.0F;
    float clip_right = clip_left + static_cast<float>(width_) + 1.0F;
    float clip_top = 0.0F - 1.0F;
    float clip_bottom = clip_top + static_cast<float>(height_) + 1.0F;
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
    if (gradient > 0.0F) {
      if (to_y <= clip_top || from_y >= clip_bottom) {
        return;
      }
      if (from_y < clip_top) {
        from_x += (clip_top - from_y) / gradient;
        from_y = clip_top;
      }
      if (to_y > clip_bottom) {
        to_x += (clip_bottom - to_y) / gradient;
        to_y = clip_bottom;
      }
    } else {
      if (from_y <= clip_top || to_y >= clip_bottom) {
        return;
      }
      if (to_y < clip_top) {
        to_x += (clip_top - to_y) / gradient;
        to_y = clip_top;
      }
      if (from_y > clip_bottom) {
        from_x += (clip_bottom - from_y) / gradient;
        from_y = clip_bottom;
      }
    }
    from_y += 1.0F;
    to_y += 1.0F;
    auto plot = [&](int along, int across, float brightness) {
      if (steep) {
        BlendPixel(across, along, c, brightness);
      } else {
        BlendPixel(along, across, c, brightness);
      }
    };
    int x_pixel_start = FloatToInt(from_x);
    float intersect_y =
        from_y + gradient * (static_cast<float>(x_pixel_start) - from_x);
    float y_endpoint = intersect_y;
    if (to_x > clip_left + 1.0F) {
      float x_gap = static_cast<float>(1 + x_pixel_start) - from_x;
      int y_int = FloatToInt(y_endpoint);
      float brightness = y_endpoint - static_cast<float>(y_int);
      if (static_cast<float>(y_int) < y_endpoint) {
        plot(x_pixel_start, y_int, brightness * x_gap);
      }
      plot(x_pixel_start, W(static_cast<std::int64_t>(y_int) - 1),
           (1 - brightness) * x_gap);
      intersect_y += gradient;
      x_pixel_start = W(static_cast<std::int64_t>(x_pixel_start) + 1);
    }
    int x_pixel_end =
        pygame_detail::TruncateToInt(std::ceil(static_cast<double>(to_x)));
    if (from_x < clip_right - 1.0F) {
      y_endpoint = to_y + gradient * (static_cast<float>(x_pixel_end) - to_x);
      float x_gap =
          static_cast<float>(1 - static_cast<std::int64_t>(x_pixel_end)) + to_x;
      int y_int = FloatToInt(y_endpoint);
      float brightness = y_endpoint - static_cast<float>(y_int);
      if (static_cast<float>(y_int) < y_endpoint) {
        plot(x_pixel_end, y_int, brightness * x_gap);
      }
      plot(x_pixel_end, W(static_cast<std::int64_t>(y_int) - 1),
           (1 - brightness) * x_gap);
    }
    // A NaN coordinate makes every remaining pixel land off the surface (and
    // can make the span ~2^31 long), so it is skipped outright.
    if (std::isnan(intersect_y)) {
      return;
    }
    for (std::int64_t x = x_pixel_start; x < x_pixel_end; ++x) {
      int y = FloatToInt(intersect_y);
      float brightness = 1 - intersect_y + static_cast<float>(y);
      plot(static_cast<int>(x), W(static_cast<std::int64_t>(y) - 1),
           brightness);
      if (static_cast<float>(y) < intersect_y) {
        plot(static_cast<int>(x), y, 1 - brightness);
      }
      intersect_y += gradient;
    }
  }

  int width_;
  int height_;
  std::vector<std::uint8_t> pixels_;
};

namespace pygame_detail {

// One colour plane stage of pygame's smoothscale, in the arithmetic of its SSE
// backend (the one pygame picks on x86-64): area-averaging shrink in 2.14
// fixed point with 16-bit lanes (pmulhuw, wrapping paddw, packuswb
// saturation) and bilinear expansion with 8-bit weights. Each function maps
// `lines` lines of `src_len` samples (stride `step` between samples, `pitch`
// between lines; 3 interleaved channels) to `dst_len` samples.
struct Plane {
  const std::uint8_t* data;
  std::size_t sample_stride;  // bytes between consecutive samples of a line
  std::size_t line_stride;    // bytes between lines
  // Where given, line i starts at lines[i] instead of data + i * line_stride.
  const std::uint8_t* const* lines = nullptr;

  [[nodiscard]] const std::uint8_t* Line(int i) const {
    return lines != nullptr ? lines[i]
                            : data + static_cast<std::size_t>(i) * line_stride;
  }
};

struct MutablePlane {
  std::uint8_t* data;
  std::size_t sample_stride;
  std::size_t line_stride;
};

inline std::uint8_t PackUnsignedSaturate(std::uint32_t word) {
  const int v = static_cast<std::int16_t>(static_cast<std::uint16_t>(word));
  return static_cast<std::uint8_t>(std::clamp(v, 0, 255));
}

// Which samples make each output of a shrink: the same for every line, so it
// is worked out once. Output k sums samples [begin, boundary) whole and takes
// the `boundary` sample split by `weight` (2.14 fixed point): the part before
// goes to output k, the rest starts output k + 1.
struct ShrinkStep {
  int begin;
  int boundary;
  std::uint32_t weight;
  std::uint32_t rest;
};

inline std::vector<ShrinkStep> PlanShrink(int src_len, int dst_len,
                                          std::int32_t space) {
  std::vector<ShrinkStep> plan;
  std::int32_t counter = space;
  int begin = 0;
  for (int i = 0; i < src_len && static_cast<int>(plan.size()) < dst_len; ++i) {
    if (static_cast<std::uint32_t>(counter) > 0x4000U) {
      counter -= 0x4000;
      continue;
    }
    const std::uint32_t weight = static_cast<std::uint32_t>(counter) & 0xFFFFU;
    plan.push_back({begin, i, weight, (0x4000U - weight) & 0xFFFFU});
    begin = i + 1;
    counter = WrapToInt32(static_cast<std::int64_t>(counter) + space - 0x4000);
  }
  return plan;
}

// Everything a shrink from src_len to dst_len samples needs besides the
// pixels, worked out once per size and thread: the plan and pygame's
// reciprocal.
struct ShrinkSetup {
  int src_len = 0;
  int dst_len = 0;
  std::uint32_t recip = 0;
  std::vector<ShrinkStep> plan;
  // For adding the whole samples of every step of packed RGB lines in the
  // same number of 16-byte loads, five pixels each: step k's load j starts
  // group_offset[k * groups + j] bytes into the line, and group_mask keeps
  // the bytes of its pixels that the step owns.
  int groups = 0;
  std::vector<std::int32_t> group_offset;
  std::vector<std::array<std::uint8_t, 16>> group_mask;
  // Step k's output depends on the bytes [3 * max(begin - 1, 0),
  // 3 * (boundary + 1)) of a packed RGB line (the previous step's boundary
  // pixel to its own). Byte chunk c, [16 c, 16 c + 16), is read by the steps
  // chunk_first_step[c]..chunk_last_step[c] (none where first > last).
  std::vector<std::int32_t> chunk_first_step;
  std::vector<std::int32_t> chunk_last_step;
};

inline const ShrinkSetup& GetShrinkSetup(int src_len, int dst_len) {
  thread_local std::vector<std::unique_ptr<ShrinkSetup>> cache;
  for (const auto& setup : cache) {
    if (setup->src_len == src_len && setup->dst_len == dst_len) {
      return *setup;
    }
  }
  if (cache.size() >= 8) {
    cache.erase(cache.begin());
  }
  auto setup = std::make_unique<ShrinkSetup>();
  setup->src_len = src_len;
  setup->dst_len = dst_len;
  const std::int32_t space = 0x4000 * src_len / dst_len;
  setup->recip = static_cast<std::uint32_t>(0x40000000 / space) & 0xFFFFU;
  setup->plan = PlanShrink(src_len, dst_len, space);
  int most = 0;
  for (const ShrinkStep& p : setup->plan) {
    most = std::max(most, p.boundary - p.begin);
  }
  setup->groups = (most + 4) / 5;
  for (const ShrinkStep& p : setup->plan) {
    for (int j = 0; j < setup->groups; ++j) {
      const int first = p.begin + 5 * j;
      const int count = std::clamp(p.boundary - first, 0, 5);
      // An empty group reads (and masks off) bytes of the step's own pixels.
      setup->group_offset.push_back(3 * (count > 0 ? first : p.begin));
      std::array<std::uint8_t, 16> mask{};
      std::fill_n(mask.begin(), 3 * count, 0xFF);
      setup->group_mask.push_back(mask);
    }
  }
  const int chunk_count = (3 * src_len + 15) / 16;
  setup->chunk_first_step.assign(chunk_count, 0);
  setup->chunk_last_step.assign(chunk_count, -1);
  for (int c = 0; c < chunk_count; ++c) {
    int first = -1;
    int last = -1;
    for (std::size_t k = 0; k < setup->plan.size(); ++k) {
      const ShrinkStep& p = setup->plan[k];
      if (3 * std::max(p.begin - 1, 0) < 16 * (c + 1) &&
          16 * c < 3 * (p.boundary + 1)) {
        first = first < 0 ? static_cast<int>(k) : first;
        last = static_cast<int>(k);
      }
    }
    if (first >= 0) {
      setup->chunk_first_step[c] = first;
      setup->chunk_last_step[c] = last;
    }
  }
  cache.push_back(std::move(setup));
  return *cache.back();
}

// The boundary sample of a shrink step for one channel value: writes the
// output and leaves the carried tail in acc.
inline std::uint8_t FinishShrinkStep(const ShrinkStep& p, std::uint32_t recip,
                                     std::uint8_t sample, std::uint32_t& acc) {
  const std::uint32_t scaled =
      (static_cast<std::uint32_t>(sample) << 2) & 0xFFFFU;
  const std::uint32_t head = (scaled * p.weight) >> 16;
  const std::uint32_t tail = (scaled * p.rest) >> 16;
  const std::uint32_t total = (head + acc) & 0xFFFFU;
  acc = tail;
  return PackUnsignedSaturate((total * recip) >> 16);
}

// ShrinkLines for lines that are adjacent packed pixels (a shrink along
// columns): each step adds whole rows of all lines at once, in memory order.
inline void ShrinkAdjacentLines(Plane src, MutablePlane dst, int lines,
                                const ShrinkSetup& setup) {
  const std::size_t width = static_cast<std::size_t>(lines) * 3;
  std::vector<std::uint32_t> acc(width, 0);
  for (std::size_t k = 0; k < setup.plan.size(); ++k) {
    const ShrinkStep& p = setup.plan[k];
    for (int i = p.begin; i < p.boundary; ++i) {
      const std::uint8_t* row = src.data + i * src.sample_stride;
      for (std::size_t b = 0; b < width; ++b) {
        acc[b] += row[b];
      }
    }
    const std::uint8_t* row = src.data + p.boundary * src.sample_stride;
    std::uint8_t* out = dst.data + k * dst.sample_stride;
    for (std::size_t b = 0; b < width; ++b) {
      out[b] = FinishShrinkStep(p, setup.recip, row[b], acc[b]);
    }
  }
}

#if defined(__SSE2__)
// One packed RGB pixel, and the five bytes after it, as eight 16-bit lanes.
inline __m128i PixelLanes(const std::uint8_t* pixel) {
  return _mm_unpacklo_epi8(
      _mm_loadl_epi64(reinterpret_cast<const __m128i*>(pixel)),
      _mm_setzero_si128());
}

// One output pixel of a shrink step of packed RGB, in 16-bit SSE2 lanes as
// pygame's own filter holds the channels. What the previous step's boundary
// pixel carries over is worked out again from that pixel. The whole samples
// are added five pixels (15 bytes) per 16-byte load: the low and high halves
// are summed apart, the high one moved back a lane so that every lane holds
// one channel (lane % 3), and the lanes folded into 0-2; the sums wrap as
// pygame's do, so the order does not matter. Reads up to 12 bytes past the
// line's last pixel (Canvas::kSlackBytes); writes 3 bytes.
inline void ShrinkRgbStep(const std::uint8_t* in, std::size_t k,
                          const ShrinkSetup& setup, std::uint8_t* out) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i first_pixel = _mm_setr_epi16(-1, -1, -1, 0, 0, 0, 0, 0);
  auto scaled = [&](const std::uint8_t* pixel) {
    return _mm_and_si128(_mm_slli_epi16(PixelLanes(pixel), 2), first_pixel);
  };
  const std::vector<ShrinkStep>& plan = setup.plan;
  const ShrinkStep& p = plan[k];
  __m128i sum = zero;
  if (k > 0) {
    sum = _mm_mulhi_epu16(
        scaled(in + 3 * static_cast<std::ptrdiff_t>(plan[k - 1].boundary)),
        _mm_set1_epi16(static_cast<std::int16_t>(plan[k - 1].rest)));
  }
  __m128i low = zero;   // bytes 0-7 of the loads: channels 0 1 2 0 1 2 0 1
  __m128i high = zero;  // bytes 8-15: channels 2 0 1 2 0 1 2 -
  const std::size_t first_group = k * setup.groups;
  for (int j = 0; j < setup.groups; ++j) {
    const __m128i bytes =
        _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(
                          in + setup.group_offset[first_group + j])),
                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(
                          setup.group_mask[first_group + j].data())));
    low = _mm_add_epi16(low, _mm_unpacklo_epi8(bytes, zero));
    high = _mm_add_epi16(high, _mm_unpackhi_epi8(bytes, zero));
  }
  // Lane i of `lanes` holds channel i % 3; high's lane 0 (channel 2) is
  // added to lane 2 apart.
  const __m128i lanes = _mm_add_epi16(low, _mm_srli_si128(high, 2));
  sum = _mm_add_epi16(sum, lanes);
  sum = _mm_add_epi16(sum, _mm_srli_si128(lanes, 6));
  sum = _mm_add_epi16(sum, _mm_srli_si128(lanes, 12));
  sum = _mm_add_epi16(sum, _mm_slli_si128(high, 4));
  const __m128i head =
      _mm_mulhi_epu16(scaled(in + 3 * static_cast<std::ptrdiff_t>(p.boundary)),
                      _mm_set1_epi16(static_cast<std::int16_t>(p.weight)));
  const __m128i result = _mm_packus_epi16(
      _mm_mulhi_epu16(_mm_add_epi16(head, sum),
                      _mm_set1_epi16(static_cast<std::int16_t>(setup.recip))),
      zero);
  const auto word = static_cast<std::uint32_t>(_mm_cvtsi128_si32(result));
  std::memcpy(out, &word, 3);
}

// ShrinkLines for rows of packed RGB into packed RGB. Rows of a drawing
// mostly repeat the row above: a row starts as a copy of the output above,
// and only the outputs that read a 16-byte chunk that differs from the row
// above are worked out (ShrinkRgbStep).
inline void ShrinkRgbRows(Plane src, MutablePlane dst, int lines,
                          const ShrinkSetup& setup) {
  const std::size_t steps = setup.plan.size();
  const int row_bytes = 3 * setup.src_len;
  const int chunk_count = static_cast<int>(setup.chunk_first_step.size());
  for (int line = 0; line < lines; ++line) {
    const std::uint8_t* in = src.Line(line);
    std::uint8_t* out = dst.data + line * dst.line_stride;
    if (line == 0) {
      for (std::size_t k = 0; k < steps; ++k) {
        ShrinkRgbStep(in, k, setup, out + 3 * k);
      }
      continue;
    }
    const std::uint8_t* above = src.Line(line - 1);
    std::memcpy(out, out - dst.line_stride, 3 * steps);
    int done = -1;  // steps up to here are worked out
    for (std::ptrdiff_t c = 0; c < chunk_count; ++c) {
      int same = _mm_movemask_epi8(_mm_cmpeq_epi8(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * c)),
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(above + 16 * c))));
      if (16 * c + 16 > row_bytes) {  // bytes past the row do not count
        same |= 0xFFFF << (row_bytes - 16 * c);
      }
      if ((same & 0xFFFF) == 0xFFFF) {
        continue;
      }
      for (int k = std::max(done + 1, setup.chunk_first_step[c]);
           k <= setup.chunk_last_step[c]; ++k) {
        ShrinkRgbStep(in, k, setup, out + 3 * static_cast<std::ptrdiff_t>(k));
      }
      done = std::max(done, setup.chunk_last_step[c]);
    }
  }
}
#endif

// The 16-bit lanes wrap, so sums are taken modulo 2**16: adding in 32 bits
// and masking once gives the same value.
inline void ShrinkLines(Plane src, MutablePlane dst, int lines, int src_len,
                        int dst_len) {
  const ShrinkSetup& setup = GetShrinkSetup(src_len, dst_len);
  const std::vector<ShrinkStep>& plan = setup.plan;
  const std::uint32_t recip = setup.recip;
  const std::size_t step = src.sample_stride;
  if (src.lines == nullptr && src.line_stride == 3 && dst.line_stride == 3) {
    ShrinkAdjacentLines(src, dst, lines, setup);
    return;
  }
#if defined(__SSE2__)
  if (step == 3 && dst.sample_stride == 3) {
    ShrinkRgbRows(src, dst, lines, setup);
    return;
  }
#endif
  for (int line = 0; line < lines; ++line) {
    const std::uint8_t* in = src.Line(line);
    std::uint8_t* out = dst.data + line * dst.line_stride;
    std::array<std::uint32_t, 3> acc = {0, 0, 0};
    for (std::size_t k = 0; k < plan.size(); ++k) {
      const ShrinkStep& p = plan[k];
      const std::uint8_t* sample = in + p.begin * step;
      for (int i = p.begin; i < p.boundary; ++i, sample += step) {
        acc[0] += sample[0];
        acc[1] += sample[1];
        acc[2] += sample[2];
      }
      std::uint8_t* o = out + k * dst.sample_stride;
      for (int ch = 0; ch < 3; ++ch) {
        o[ch] = FinishShrinkStep(p, recip, sample[ch], acc[ch]);
      }
    }
  }
}

inline void ExpandLines(Plane src, MutablePlane dst, int lines, int src_len,
                        int dst_len) {
  for (int i = 0; i < dst_len; ++i) {
    const std::int64_t pos = static_cast<std::int64_t>(i) * (src_len - 1);
    const int index = static_cast<int>(pos / dst_len);
    const std::uint32_t w1 =
        static_cast<std::uint32_t>(0x100 * (pos % dst_len) / dst_len);
    const std::uint32_t w0 = 0x100U - w1;
    // The next sample only matters with a non-zero weight; at the last
    // sample (a one-sample line) pygame's weight there is zero.
    const int next = std::min(index + 1, src_len - 1);
    for (int line = 0; line < lines; ++line) {
      const std::uint8_t* a = src.Line(line) + index * src.sample_stride;
      const std::uint8_t* b = src.Line(line) + next * src.sample_stride;
      std::uint8_t* out =
          dst.data + line * dst.line_stride + i * dst.sample_stride;
      for (int ch = 0; ch < 3; ++ch) {
        const std::uint32_t sum =
            ((a[ch] * w0) & 0xFFFFU) + ((b[ch] * w1) & 0xFFFFU);
        out[ch] = PackUnsignedSaturate((sum & 0xFFFFU) >> 8);
      }
    }
  }
}

// Scales one axis: lines are rows (x axis) or columns (y axis).
inline void ScaleAxis(Plane src, MutablePlane dst, int lines, int src_len,
                      int dst_len) {
  if (dst_len < src_len) {
    ShrinkLines(src, dst, lines, src_len, dst_len);
  } else if (dst_len > src_len) {
    ExpandLines(src, dst, lines, src_len, dst_len);
  }
}

}  // namespace pygame_detail

// pygame.transform.smoothscale(src, dst's size) on 32-bit surfaces: the x
// pass into a temporary of dst's width, then the y pass. src_rows, where
// given, are where src's rows 0..height-1 start (rows of src itself in some
// order), so a drawing that is still partly upside down needs no flip first.
inline void SmoothScale(const Canvas& src, Canvas& dst,
                        const std::uint8_t* const* src_rows = nullptr) {
  const int sw = src.width();
  const int sh = src.height();
  const int dw = dst.width();
  const int dh = dst.height();
  if (dw == 0 || dh == 0) {
    return;
  }
  std::span<std::uint8_t> out = dst.pixels();
  const std::size_t src_row = static_cast<std::size_t>(sw) * 3;
  const std::size_t dst_row = static_cast<std::size_t>(dw) * 3;
  if (sw == 0 || sh == 0) {
    return;
  }
  std::vector<std::uint8_t> rows_in_order;
  const std::uint8_t* in = src.Row(0);
  if (src_rows != nullptr && (sw == dw || sh == dh)) {
    // Only the x pass reads rows through src_rows.
    rows_in_order.resize(src_row * sh + Canvas::kSlackBytes);
    for (int y = 0; y < sh; ++y) {
      std::copy_n(src_rows[y], src_row, rows_in_order.data() + y * src_row);
    }
    in = rows_in_order.data();
    src_rows = nullptr;
  }
  if (sw == dw && sh == dh) {
    std::copy_n(in, out.size(), out.begin());
    return;
  }
  using pygame_detail::MutablePlane;
  using pygame_detail::Plane;
  if (sh == dh) {
    pygame_detail::ScaleAxis(Plane{in, 3, src_row},
                             MutablePlane{out.data(), 3, dst_row}, sh, sw, dw);
    return;
  }
  if (sw == dw) {
    pygame_detail::ScaleAxis(Plane{in, src_row, 3},
                             MutablePlane{out.data(), dst_row, 3}, sw, sh, dh);
    return;
  }
  std::vector<std::uint8_t> temp(dst_row * sh);
  pygame_detail::ScaleAxis(Plane{in, 3, src_row, src_rows},
                           MutablePlane{temp.data(), 3, dst_row}, sh, sw, dw);
  pygame_detail::ScaleAxis(Plane{temp.data(), dst_row, 3},
                           MutablePlane{out.data(), dst_row, 3}, dw, sh, dh);
}

}  // namespace envpool::box2d

#endif  // ENVPOOL_BOX2D_PYGAME_DRAW_H_
