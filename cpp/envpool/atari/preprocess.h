// Frame preprocessing for the Atari envs: palette lookup, the max over the
// last two frames of a skip, an area resize that gives the same bytes as
// OpenCV's cv2.resize(..., interpolation=cv2.INTER_AREA) when shrinking uint8
// images, and the ring of recent frames that forms the stacked observation.
//
// Images are planar: `channels` planes of height x width bytes (grey: one
// plane; RGB: R, G and B planes). Every piece keeps its scratch memory for
// the life of an env and allocates nothing per frame.
#ifndef ENVPOOL_ATARI_PREPROCESS_H_
#define ENVPOOL_ATARI_PREPROCESS_H_

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace envpool::atari {

// One frame converted from palette indices into `channels` planes of bytes:
// pixels[c][y][x] = tables[c * 256 + indices[y][x]]. Conversion skips the
// rows whose indices are the same as at the previous Convert (their bytes
// are still here), and copies a row whose indices equal the row above; on
// Atari screens that leaves little to look up.
class PaletteFrame {
 public:
  PaletteFrame(int height, int width, int channels)
      : height_(height),
        width_(width),
        channels_(channels),
        pixels_(static_cast<std::size_t>(height) * width * channels, 0),
        indices_(static_cast<std::size_t>(height) * width, 0) {}

  const std::uint8_t* data() const { return pixels_.data(); }
  std::size_t size() const { return pixels_.size(); }

  // `tables` must be the same at every call (else Fill first).
  void Convert(const std::uint8_t* indices, const std::uint8_t* tables) {
    const std::size_t w = static_cast<std::size_t>(width_);
    const std::size_t plane = static_cast<std::size_t>(height_) * w;
    for (int y = 0; y < height_; ++y) {
      const std::uint8_t* src = indices + y * w;
      std::uint8_t* seen = indices_.data() + y * w;
      if (valid_ && std::memcmp(src, seen, w) == 0) {
        continue;
      }
      std::memcpy(seen, src, w);
      const bool repeat = y > 0 && std::memcmp(src, src - w, w) == 0;
      for (int c = 0; c < channels_; ++c) {
        std::uint8_t* dst = pixels_.data() + c * plane + y * w;
        if (repeat) {
          std::memcpy(dst, dst - w, w);
        } else {
          Lookup(src, tables + static_cast<std::ptrdiff_t>(c) * 256, dst, w);
        }
      }
    }
    valid_ = true;
  }

  // Sets every byte to `value` (and forgets the indices).
  void Fill(std::uint8_t value) {
    std::fill(pixels_.begin(), pixels_.end(), value);
    valid_ = false;
  }

 private:
  static void Lookup(const std::uint8_t* __restrict src,
                     const std::uint8_t* __restrict table,
                     std::uint8_t* __restrict dst, std::size_t n) {
    for (std::size_t x = 0; x < n; ++x) {
      dst[x] = table[src[x]];
    }
  }

  int height_;
  int width_;
  int channels_;
  std::vector<std::uint8_t> pixels_;
  std::vector<std::uint8_t> indices_;  // what pixels_ was converted from
  bool valid_ = false;
};

// out[i] = max(a[i], b[i]) for i < n; `out` may be `a`. A byte loop that
// compilers turn into packed unsigned-max instructions.
inline void MaxPool(const std::uint8_t* a, const std::uint8_t* b,
                    std::uint8_t* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = std::max(a[i], b[i]);
  }
}

// Calls f(std::integral_constant<int, n>{}) for n == taps when 1 <= taps <=
// kMax, so that a loop over taps can be unrolled for each count; false when
// taps is outside that range.
template <int kMax, typename F>
bool WithTapCount(int taps, F&& f) {
  return [&]<int... kN>(std::integer_sequence<int, kN...>) {
    return ((taps == kN + 1 ? (f(std::integral_constant<int, kN + 1>{}), true)
                            : false) ||
            ...);
  }(std::make_integer_sequence<int, kMax>{});
}

// Area-weighted resize of planar uint8 images: `channels` planes of
// in_height x in_width into `channels` planes of out_height x out_width.
//
// Each output pixel is the mean of the source area it covers. For shrinking
// by factors that are not both whole numbers the arithmetic follows OpenCV's
// INTER_AREA step by step, so the bytes agree exactly:
//   * along each axis, output cell i covers [i*s, i*s + s) in source pixels,
//     s = 1 / (out / in) in double; a source pixel's weight is its overlap
//     with the cell divided by min(s, in - i*s), rounded to float; partial
//     overlaps of 1e-3 or less are left out;
//   * every source row is first summed horizontally in float, each cell's
//     source pixels added in increasing order onto 0;
//   * those row sums are then accumulated in float with the vertical weights,
//     rows in increasing order;
//   * the result is rounded to nearest, ties to even, and saturated to 0..255.
// When both factors are whole numbers (210x160 -> 105x80, 70x32, ...) the
// block sums are integers, as in OpenCV: a 2x2 block rounds (sum + 2) / 4
// down, any other block rounds float(sum) * (1.0f / area) to nearest even.
// Enlarging (where OpenCV switches to a bilinear variant) uses the same area
// weights, which is not byte-exact with OpenCV.
//
// The build must not contract a*b+c into fused multiply-adds (the project
// compiles with -ffp-contract=off), or the float sums would round
// differently.
class AreaResize {
 public:
  AreaResize(int in_height, int in_width, int out_height, int out_width,
             int channels)
      : in_height_(in_height),
        in_width_(in_width),
        out_height_(out_height),
        out_width_(out_width),
        channels_(channels) {
    if (in_height <= 0 || in_width <= 0 || out_height <= 0 || out_width <= 0 ||
        channels <= 0) {
      throw std::invalid_argument(
          "AreaResize: sizes and channels must be positive, got " +
          std::to_string(in_height) + "x" + std::to_string(in_width) + " -> " +
          std::to_string(out_height) + "x" + std::to_string(out_width) +
          " with " + std::to_string(channels) + " channels");
    }
    const int block_x = WholeFactor(in_width, out_width);
    const int block_y = WholeFactor(in_height, out_height);
    if (block_x > 0 && block_y > 0) {
      block_x_ = block_x;
      block_y_ = block_y;
      block_sums_.assign(static_cast<std::size_t>(in_width), 0);
      return;
    }
    cols_ = AxisWeights(in_width, out_width);
    rows_ = AxisWeights(in_height, out_height);
    // The packed path reads the taps of each output column as one 4-byte
    // word, which may run up to 3 bytes past the end of a row: harmless
    // (zero weights) inside the image, but the last row is read from a
    // padded copy.
    packed_ = cols_.taps <= 4 && std::endian::native == std::endian::little;
    words_.assign(static_cast<std::size_t>(out_width), 0);
    last_row_.assign(static_cast<std::size_t>(in_width) + 4, 0);
    sums_.assign(static_cast<std::size_t>(in_height) * out_width * channels,
                 0.0F);
    acc_.assign(static_cast<std::size_t>(out_width), 0.0F);
    previous_in_.assign(in_size(), 0);
    previous_out_.assign(out_size(), 0);
    changed_.assign(static_cast<std::size_t>(in_height), 1);
  }

  int in_height() const { return in_height_; }
  int in_width() const { return in_width_; }
  int out_height() const { return out_height_; }
  int out_width() const { return out_width_; }
  int channels() const { return channels_; }
  std::size_t in_size() const {
    return static_cast<std::size_t>(in_height_) * in_width_ * channels_;
  }
  std::size_t out_size() const {
    return static_cast<std::size_t>(out_height_) * out_width_ * channels_;
  }

  // `in`: in_size() bytes; `out`: out_size() bytes; both planar.
  //
  // Consecutive frames of a game mostly repeat, so the resize remembers its
  // last input and output: a source row with the same bytes as last time
  // keeps its horizontal sums, and an output row whose source rows are all
  // unchanged is copied from the last output.
  void Run(const std::uint8_t* in, std::uint8_t* out) {
    const std::size_t in_plane =
        static_cast<std::size_t>(in_height_) * in_width_;
    const std::size_t out_plane =
        static_cast<std::size_t>(out_height_) * out_width_;
    for (int c = 0; c < channels_; ++c) {
      if (block_x_ > 0) {
        RunBlocks(in + c * in_plane, out + c * out_plane);
      } else {
        SumRows(in + c * in_plane, c);
        SumColumns(out + c * out_plane, c);
      }
    }
    have_previous_ = true;
  }

 private:
  // The taps of one axis. Output cell i reads source pixels first[i],
  // first[i] + 1, ... with weights weight[k * out + i] for k < count[i];
  // weight[k * out + i] is 0 for count[i] <= k < taps.
  struct Axis {
    int taps = 0;
    std::vector<int> first;
    std::vector<int> count;
    std::vector<float> weight;
  };

  static Axis AxisWeights(int in, int out) {
    const double scale = 1.0 / (static_cast<double>(out) / in);
    std::vector<std::vector<std::pair<int, float>>> cells(out);
    for (int i = 0; i < out; ++i) {
      const double start = i * scale;
      const double end = start + scale;
      const double cell = std::min(scale, in - start);
      const int last = std::min(static_cast<int>(std::floor(end)), in - 1);
      const int begin = std::min(static_cast<int>(std::ceil(start)), last);
      auto& taps = cells[i];
      if (begin - start > 1e-3) {
        taps.emplace_back(begin - 1,
                          static_cast<float>((begin - start) / cell));
      }
      for (int p = begin; p < last; ++p) {
        taps.emplace_back(p, static_cast<float>(1.0 / cell));
      }
      if (end - last > 1e-3) {
        taps.emplace_back(
            last, static_cast<float>(std::min(std::min(end - last, 1.0), cell) /
                                     cell));
      }
    }
    Axis axis;
    for (const auto& taps : cells) {
      axis.taps = std::max(axis.taps, static_cast<int>(taps.size()));
    }
    axis.first.assign(out, 0);
    axis.count.assign(out, 0);
    axis.weight.assign(static_cast<std::size_t>(axis.taps) * out, 0.0F);
    for (int i = 0; i < out; ++i) {
      const auto& taps = cells[i];
      axis.count[i] = static_cast<int>(taps.size());
      if (taps.empty()) {
        continue;
      }
      axis.first[i] = taps.front().first;
      for (const auto& [pixel, w] : taps) {
        const int k = pixel - axis.first[i];
        axis.weight[static_cast<std::size_t>(k) * out + i] = w;
      }
    }
    return axis;
  }

  // The whole number in / out if the shrink factor is one (to within
  // double epsilon, as OpenCV decides), else 0.
  static int WholeFactor(int in, int out) {
    const double scale = 1.0 / (static_cast<double>(out) / in);
    const double whole = std::round(scale);
    return whole >= 1.0 && std::abs(scale - whole) < 0x1p-52
               ? static_cast<int>(whole)
               : 0;
  }

  // Horizontal sums of the rows of plane `c` that changed since the last
  // Run. A row with the same bytes as the one above copies its sums.
  void SumRows(const std::uint8_t* plane, int c) {
    const std::size_t w = static_cast<std::size_t>(in_width_);
    const std::size_t n = static_cast<std::size_t>(out_width_);
    std::uint8_t* previous =
        previous_in_.data() + static_cast<std::size_t>(c) * in_height_ * w;
    for (int y = 0; y < in_height_; ++y) {
      const std::uint8_t* src = plane + y * w;
      std::uint8_t* seen = previous + y * w;
      if (have_previous_ && std::memcmp(src, seen, w) == 0) {
        changed_[y] = 0;
        continue;
      }
      changed_[y] = 1;
      std::memcpy(seen, src, w);
      float* dst = RowSums(c, y);
      if (y > 0 && std::memcmp(src, src - w, w) == 0) {
        std::memcpy(dst, dst - n, n * sizeof(float));
        continue;
      }
      if (!packed_) {
        SumRowGeneric(src, dst);
        continue;
      }
      if (y == in_height_ - 1) {
        std::memcpy(last_row_.data(), src, w);
        src = last_row_.data();
      }
      if (!WithTapCount<3>(
              cols_.taps, [&](auto taps) { SumRowPacked<taps()>(src, dst); })) {
        SumRowPacked<4>(src, dst);
      }
    }
  }

  float* RowSums(int c, int y) {
    return sums_.data() +
           (static_cast<std::size_t>(c) * in_height_ + y) * out_width_;
  }

  // The taps of output column x are bytes first[x] ... first[x] + 3 of the
  // row, fetched as one little-endian word each; the arithmetic then runs
  // over all columns at once (it vectorises).
  template <int kTaps>
  void SumRowPacked(const std::uint8_t* src, float* dst) {
    const int n = out_width_;
    const int* first = cols_.first.data();
    std::uint32_t* words = words_.data();
    for (int x = 0; x < n; ++x) {
      std::memcpy(&words[x], src + first[x], 4);
    }
    const float* w0 = cols_.weight.data();
    const float* w1 = w0 + (kTaps > 1 ? n : 0);
    const float* w2 = w0 + (kTaps > 2 ? 2 * n : 0);
    const float* w3 = w0 + (kTaps > 3 ? 3 * n : 0);
    for (int x = 0; x < n; ++x) {
      const std::uint32_t word = words[x];
      float sum = 0.0F;
      sum += static_cast<float>(static_cast<int>(word & 0xFFU)) * w0[x];
      if constexpr (kTaps > 1) {
        sum +=
            static_cast<float>(static_cast<int>((word >> 8) & 0xFFU)) * w1[x];
      }
      if constexpr (kTaps > 2) {
        sum +=
            static_cast<float>(static_cast<int>((word >> 16) & 0xFFU)) * w2[x];
      }
      if constexpr (kTaps > 3) {
        sum += static_cast<float>(static_cast<int>(word >> 24)) * w3[x];
      }
      dst[x] = sum;
    }
  }

  void SumRowGeneric(const std::uint8_t* src, float* dst) const {
    const int n = out_width_;
    for (int x = 0; x < n; ++x) {
      const std::uint8_t* taps = src + cols_.first[x];
      float sum = 0.0F;
      for (int k = 0; k < cols_.count[x]; ++k) {
        sum += static_cast<float>(taps[k]) *
               cols_.weight[static_cast<std::size_t>(k) * n + x];
      }
      dst[x] = sum;
    }
  }

  // Vertical accumulation of the row sums of plane `c` into its output.
  void SumColumns(std::uint8_t* out, int c) {
    if (!WithTapCount<5>(rows_.taps,
                         [&](auto taps) { SumColumnsFixed<taps()>(out, c); })) {
      SumColumnsGeneric(out, c);
    }
  }

  // Whether output row y of the plane whose rows were just summed can be
  // copied from the previous output.
  bool Unchanged(int y) const {
    if (!have_previous_) {
      return false;
    }
    const int first = rows_.first[y];
    for (int k = 0; k < rows_.count[y]; ++k) {
      if (changed_[first + k] != 0) {
        return false;
      }
    }
    return true;
  }

  // For each output row of plane c: an unchanged row is copied from the
  // plane's last output, any other is computed by sum_row(y, dst) and kept.
  template <typename SumRow>
  void ForEachOutputRow(std::uint8_t* out, int c, SumRow&& sum_row) {
    const int width = out_width_;
    const int height = out_height_;
    std::uint8_t* previous =
        previous_out_.data() + static_cast<std::size_t>(c) * height * width;
    for (int y = 0; y < height; ++y) {
      std::uint8_t* dst = out + static_cast<std::size_t>(y) * width;
      std::uint8_t* kept = previous + static_cast<std::size_t>(y) * width;
      if (Unchanged(y)) {
        std::memcpy(dst, kept, width);
        continue;
      }
      sum_row(y, dst);
      std::memcpy(kept, dst, width);
    }
  }

  // All kTaps rows of an output row are summed in registers, column by
  // column. Rows past an output row's count get weight 0 (and any valid
  // row), which adds +0 to a non-negative sum: no change.
  template <int kTaps>
  void SumColumnsFixed(std::uint8_t* out, int c) {
    const int width = out_width_;
    const int height = out_height_;
    ForEachOutputRow(out, c, [&](int y, std::uint8_t* dst) {
      const float* line[kTaps];
      float w[kTaps];
      for (int k = 0; k < kTaps; ++k) {
        line[k] = RowSums(c, std::min(rows_.first[y] + k, in_height_ - 1));
        w[k] = rows_.weight[static_cast<std::size_t>(k) * height + y];
      }
      for (int x = 0; x < width; ++x) {
        float sum = line[0][x] * w[0];
        for (int k = 1; k < kTaps; ++k) {
          sum += line[k][x] * w[k];
        }
        dst[x] = RoundToByte(sum);
      }
    });
  }

  void SumColumnsGeneric(std::uint8_t* out, int c) {
    const int width = out_width_;
    const int height = out_height_;
    float* acc = acc_.data();
    ForEachOutputRow(out, c, [&](int y, std::uint8_t* dst) {
      std::fill(acc, acc + width, 0.0F);
      for (int k = 0; k < rows_.count[y]; ++k) {
        const float* line = RowSums(c, rows_.first[y] + k);
        const float wk = rows_.weight[static_cast<std::size_t>(k) * height + y];
        for (int x = 0; x < width; ++x) {
          acc[x] += line[x] * wk;
        }
      }
      for (int x = 0; x < width; ++x) {
        dst[x] = RoundToByte(acc[x]);
      }
    });
  }

  // Integer sums over block_y_ x block_x_ source blocks of one plane.
  void RunBlocks(const std::uint8_t* in, std::uint8_t* out) {
    const std::size_t w = static_cast<std::size_t>(in_width_);
    const int area = block_x_ * block_y_;
    const float inv_area = 1.0F / static_cast<float>(area);
    const bool half_up = block_x_ == 2 && block_y_ == 2;
    std::int32_t* sums = block_sums_.data();
    for (int y = 0; y < out_height_; ++y) {
      const std::uint8_t* src = in + static_cast<std::size_t>(y) * block_y_ * w;
      for (std::size_t i = 0; i < w; ++i) {
        sums[i] = src[i];
      }
      for (int k = 1; k < block_y_; ++k) {
        const std::uint8_t* line = src + k * w;
        for (std::size_t i = 0; i < w; ++i) {
          sums[i] += line[i];
        }
      }
      std::uint8_t* dst = out + static_cast<std::size_t>(y) * out_width_;
      for (int x = 0; x < out_width_; ++x) {
        const std::int32_t* block =
            sums + static_cast<std::ptrdiff_t>(x) * block_x_;
        std::int32_t sum = 0;
        for (int k = 0; k < block_x_; ++k) {
          sum += block[k];
        }
        dst[x] = half_up ? static_cast<std::uint8_t>((sum + 2) >> 2)
                         : RoundToByte(static_cast<float>(sum) * inv_area);
      }
    }
  }

  // Round to nearest, ties to even, then clamp to 255. Adding and
  // removing 1.5 * 2^23 leaves the float with no fraction bits, so the
  // addition itself rounds under the default rounding mode; exact for
  // |v| < 2^22.
  // Sums here are never negative, so only the top needs clamping.
  static std::uint8_t RoundToByte(float v) {
    constexpr float kMagic = 12582912.0F;  // 1.5 * 2^23
    const float r = (v + kMagic) - kMagic;
    return static_cast<std::uint8_t>(
        static_cast<std::int32_t>(r < 255.0F ? r : 255.0F));
  }

  int in_height_;
  int in_width_;
  int out_height_;
  int out_width_;
  int channels_;
  int block_x_ = 0;  // > 0: whole shrink factors, integer block sums
  int block_y_ = 0;
  std::vector<std::int32_t> block_sums_;
  Axis cols_;
  Axis rows_;
  bool packed_ = false;
  std::vector<std::uint32_t> words_;
  std::vector<std::uint8_t> last_row_;
  std::vector<float> sums_;  // every source row's sums, plane by plane
  std::vector<float> acc_;
  bool have_previous_ = false;
  std::vector<std::uint8_t> previous_in_;
  std::vector<std::uint8_t> previous_out_;
  std::vector<std::uint8_t> changed_;  // per source row of the current plane
};

// The last `depth` frames of one env, each `frame_bytes` long, in a ring: a
// new frame is written in place into the slot of the oldest, and the stack
// is copied out, oldest first, once per step straight into the output.
class FrameStack {
 public:
  FrameStack(int depth, std::size_t frame_bytes)
      : depth_(depth),
        frame_bytes_(frame_bytes),
        frames_(static_cast<std::size_t>(depth) * frame_bytes, 0) {}

  int depth() const { return depth_; }
  std::size_t frame_bytes() const { return frame_bytes_; }
  std::size_t stack_bytes() const { return frames_.size(); }

  // The slot the next frame goes into (the oldest); Push() makes it the
  // newest.
  std::uint8_t* NextSlot() { return Slot(next_); }
  void Push() { next_ = next_ + 1 == depth_ ? 0 : next_ + 1; }

  // Fills every older slot with the newest frame (the stack at reset).
  void FillWithNewest() {
    const int newest = next_ == 0 ? depth_ - 1 : next_ - 1;
    for (int i = 0; i < depth_; ++i) {
      if (i != newest) {
        std::memcpy(Slot(i), Slot(newest), frame_bytes_);
      }
    }
  }

  // Writes the stack, oldest frame first, into stack_bytes() bytes.
  void CopyTo(std::uint8_t* dst) const {
    const std::size_t older =
        static_cast<std::size_t>(depth_ - next_) * frame_bytes_;
    std::memcpy(dst, frames_.data() + next_ * frame_bytes_, older);
    std::memcpy(dst + older, frames_.data(), next_ * frame_bytes_);
  }

 private:
  std::uint8_t* Slot(int i) {
    return frames_.data() + static_cast<std::size_t>(i) * frame_bytes_;
  }

  int depth_;
  std::size_t frame_bytes_;
  std::vector<std::uint8_t> frames_;
  int next_ = 0;  // slot of the oldest frame, written next
};

}  // namespace envpool::atari

#endif  // ENVPOOL_ATARI_PREPROCESS_H_
