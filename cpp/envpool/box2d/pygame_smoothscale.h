// pygame.transform.smoothscale as pygame 2.6.1 runs it on x86-64 (its SSE
// filters), for the 32-bit RGB canvas of pygame_surface.h.
#ifndef ENVPOOL_BOX2D_PYGAME_SMOOTHSCALE_H_
#define ENVPOOL_BOX2D_PYGAME_SMOOTHSCALE_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "envpool/box2d/pygame_surface.h"

namespace envpool::box2d {

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

// Whether the 64 bytes at a and b are equal.
inline bool SameBytes64(const std::uint8_t* a, const std::uint8_t* b) {
  auto equal = [&](int offset) {
    return _mm_cmpeq_epi8(
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + offset)),
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + offset)));
  };
  const __m128i all = _mm_and_si128(_mm_and_si128(equal(0), equal(16)),
                                    _mm_and_si128(equal(32), equal(48)));
  return _mm_movemask_epi8(all) == 0xFFFF;
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
  const int whole_chunks = row_bytes / 16;  // chunks inside the row
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
      // Runs of four chunks equal to the row above are passed over at once.
      while (c + 4 <= whole_chunks &&
             SameBytes64(in + 16 * c, above + 16 * c)) {
        c += 4;
      }
      if (c >= chunk_count) {
        break;
      }
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

#endif  // ENVPOOL_BOX2D_PYGAME_SMOOTHSCALE_H_
