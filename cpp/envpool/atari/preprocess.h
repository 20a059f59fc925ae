// Frame preprocessing for the Atari envs: the max over the last two frames of
// a skip, an area resize that gives the same bytes as OpenCV's
// cv2.resize(..., interpolation=cv2.INTER_AREA) when shrinking uint8 images,
// and the ring of recent frames that forms the stacked observation.
//
// All three work on plain byte buffers, hold their scratch memory for the
// whole life of an env and allocate nothing per frame.
#ifndef ENVPOOL_ATARI_PREPROCESS_H_
#define ENVPOOL_ATARI_PREPROCESS_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace envpool::atari {

// acc[i] = max(acc[i], other[i]) for i < n; a byte loop that compilers turn
// into packed unsigned-max instructions.
inline void MaxPoolInPlace(std::uint8_t* __restrict acc,
                           const std::uint8_t* __restrict other,
                           std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    acc[i] = std::max(acc[i], other[i]);
  }
}

// Area-weighted resize of interleaved uint8 images (height x width x
// channels) into channel planes (channels x out_height x out_width).
//
// Each output pixel is the mean of the source area it covers. The arithmetic
// follows OpenCV's INTER_AREA for non-integer shrink factors step by step, so
// the bytes agree exactly:
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
// block sums are integers instead, as in OpenCV: a 2x2 block rounds
// (sum + 2) / 4 down, any other block rounds float(sum) * (1.0f / area) to
// nearest even. Enlarging (OpenCV switches to a bilinear variant there) uses
// the same area weights, which is not byte-exact with OpenCV.
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
    if (in_height <= 0 || in_width <= 0 || out_height <= 0 ||
        out_width <= 0 || channels <= 0) {
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
      block_sums_.assign(static_cast<std::size_t>(in_width) * channels, 0);
      return;
    }
    cols_ = AxisWeights(in_width, out_width);
    rows_ = AxisWeights(in_height, out_height);
    // One converted source row, padded so that every zero-weight tap past
    // the row's end still reads memory (zeros) of this buffer.
    row_.assign(static_cast<std::size_t>(in_width + cols_.taps) * channels_,
                0.0F);
    // Horizontal sums of every source row, one plane per channel, with
    // zero rows past the end for the vertical zero-weight taps.
    plane_stride_ = static_cast<std::size_t>(in_height + rows_.taps) *
                    static_cast<std::size_t>(out_width);
    sums_.assign(plane_stride_ * channels_, 0.0F);
    acc_.assign(static_cast<std::size_t>(out_width), 0.0F);
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

  // `in`: in_size() bytes, interleaved; `out`: out_size() bytes, planar.
  void Run(const std::uint8_t* in, std::uint8_t* out) {
    if (block_x_ > 0) {
      RunBlocks(in, out);
      return;
    }
    const int c_n = channels_;
    const std::size_t row_len = static_cast<std::size_t>(in_width_) * c_n;
    for (int y = 0; y < in_height_; ++y) {
      const std::uint8_t* src = in + static_cast<std::size_t>(y) * row_len;
      float* row = row_.data();
      for (std::size_t i = 0; i < row_len; ++i) {
        row[i] = static_cast<float>(src[i]);
      }
      if (c_n == 1) {
        SumRow1(row, sums_.data() + static_cast<std::size_t>(y) * out_width_);
      } else {
        for (int c = 0; c < c_n; ++c) {
          SumRowStrided(row + c, c_n,
                        sums_.data() + c * plane_stride_ +
                            static_cast<std::size_t>(y) * out_width_);
        }
      }
    }
    const std::size_t out_plane =
        static_cast<std::size_t>(out_height_) * out_width_;
    for (int c = 0; c < c_n; ++c) {
      const float* plane = sums_.data() + c * plane_stride_;
      std::uint8_t* dst = out + c * out_plane;
      for (int y = 0; y < out_height_; ++y) {
        AccumulateColumn(plane, y, dst + static_cast<std::size_t>(y) *
                                             out_width_);
      }
    }
  }

 private:
  // Output cell i of one axis reads source pixels first[i] ... first[i] +
  // taps - 1 with weights weight[i * taps + k]; cells with fewer real taps
  // are padded with zero weights at the end, which leave float sums of
  // non-negative terms unchanged.
  struct Axis {
    int taps = 0;
    std::vector<int> first;
    std::vector<float> weight;
  };

  // The whole number in / out if the shrink factor is one (to within
  // double epsilon, as OpenCV decides), else 0.
  static int WholeFactor(int in, int out) {
    const double scale = 1.0 / (static_cast<double>(out) / in);
    const double whole = std::round(scale);
    return whole >= 1.0 && std::abs(scale - whole) < 0x1p-52
               ? static_cast<int>(whole)
               : 0;
  }

  // Integer sums over block_y_ x block_x_ source blocks.
  void RunBlocks(const std::uint8_t* in, std::uint8_t* out) {
    const int c_n = channels_;
    const std::size_t row_len = static_cast<std::size_t>(in_width_) * c_n;
    const std::size_t out_plane =
        static_cast<std::size_t>(out_height_) * out_width_;
    const int area = block_x_ * block_y_;
    const float inv_area = 1.0F / static_cast<float>(area);
    std::int32_t* sums = block_sums_.data();
    for (int y = 0; y < out_height_; ++y) {
      const std::uint8_t* src =
          in + static_cast<std::size_t>(y) * block_y_ * row_len;
      for (std::size_t i = 0; i < row_len; ++i) {
        sums[i] = src[i];
      }
      for (int k = 1; k < block_y_; ++k) {
        const std::uint8_t* line = src + k * row_len;
        for (std::size_t i = 0; i < row_len; ++i) {
          sums[i] += line[i];
        }
      }
      for (int c = 0; c < c_n; ++c) {
        std::uint8_t* dst =
            out + c * out_plane + static_cast<std::size_t>(y) * out_width_;
        for (int x = 0; x < out_width_; ++x) {
          const std::int32_t* block = sums + x * block_x_ * c_n + c;
          std::int32_t sum = 0;
          for (int k = 0; k < block_x_; ++k) {
            sum += block[k * c_n];
          }
          dst[x] = area == 4 && block_x_ == 2
                       ? static_cast<std::uint8_t>((sum + 2) >> 2)
                       : RoundToByte(static_cast<float>(sum) * inv_area);
        }
      }
    }
  }

  static Axis AxisWeights(int in, int out) {
    const double scale = 1.0 / (static_cast<double>(out) / in);
    std::vector<std::vector<std::pair<int, float>>> cells(out);
    for (int i = 0; i < out; ++i) {
      const double start = i * scale;
      const double end = start + scale;
      const double cell = std::min(scale, in - start);
      int last = std::min(static_cast<int>(std::floor(end)), in - 1);
      int begin = std::min(static_cast<int>(std::ceil(start)), last);
      auto& taps = cells[i];
      if (begin - start > 1e-3) {
        taps.emplace_back(begin - 1, static_cast<float>((begin - start) / cell));
      }
      for (int p = begin; p < last; ++p) {
        taps.emplace_back(p, static_cast<float>(1.0 / cell));
      }
      if (end - last > 1e-3) {
        taps.emplace_back(
            last,
            static_cast<float>(std::min(std::min(end - last, 1.0), cell) /
                               cell));
      }
    }
    Axis axis;
    for (const auto& taps : cells) {
      axis.taps = std::max(axis.taps, static_cast<int>(taps.size()));
    }
    axis.first.assign(out, 0);
    axis.weight.assign(static_cast<std::size_t>(out) * axis.taps, 0.0F);
    for (int i = 0; i < out; ++i) {
      const auto& taps = cells[i];
      if (taps.empty()) {
        continue;
      }
      axis.first[i] = taps.front().first;
      for (const auto& [pixel, w] : taps) {
        axis.weight[static_cast<std::size_t>(i) * axis.taps +
                    (pixel - axis.first[i])] = w;
      }
    }
    return axis;
  }

  // Horizontal sums of one grey row into out_width_ floats.
  void SumRow1(const float* row, float* dst) const {
    const int taps = cols_.taps;
    const int* first = cols_.first.data();
    const float* w = cols_.weight.data();
    switch (taps) {
      case 2:
        SumRowFixed<2>(row, first, w, dst);
        return;
      case 3:
        SumRowFixed<3>(row, first, w, dst);
        return;
      case 4:
        SumRowFixed<4>(row, first, w, dst);
        return;
      case 5:
        SumRowFixed<5>(row, first, w, dst);
        return;
      default:
        SumRowStrided(row, 1, dst);
    }
  }

  template <int kTaps>
  void SumRowFixed(const float* row, const int* first, const float* w,
                   float* dst) const {
    for (int x = 0; x < out_width_; ++x) {
      const float* src = row + first[x];
      const float* wx = w + x * kTaps;
      float sum = 0.0F;
      for (int k = 0; k < kTaps; ++k) {
        sum += src[k] * wx[k];
      }
      dst[x] = sum;
    }
  }

  // Horizontal sums of one channel of a row whose pixels are `stride`
  // floats apart.
  void SumRowStrided(const float* row, int stride, float* dst) const {
    const int taps = cols_.taps;
    for (int x = 0; x < out_width_; ++x) {
      const float* src = row + static_cast<std::ptrdiff_t>(cols_.first[x]) *
                                   stride;
      const float* wx = cols_.weight.data() + static_cast<std::size_t>(x) *
                                                  taps;
      float sum = 0.0F;
      for (int k = 0; k < taps; ++k) {
        sum += src[static_cast<std::ptrdiff_t>(k) * stride] * wx[k];
      }
      dst[x] = sum;
    }
  }

  // Output row y of one channel plane of row sums.
  void AccumulateColumn(const float* plane, int y, std::uint8_t* dst) {
    const int taps = rows_.taps;
    const int width = out_width_;
    const float* wy =
        rows_.weight.data() + static_cast<std::size_t>(y) * taps;
    float* acc = acc_.data();
    const float* src =
        plane + static_cast<std::size_t>(rows_.first[y]) * width;
    for (int x = 0; x < width; ++x) {
      acc[x] = src[x] * wy[0];
    }
    for (int k = 1; k < taps; ++k) {
      const float* line = src + static_cast<std::size_t>(k) * width;
      const float wk = wy[k];
      for (int x = 0; x < width; ++x) {
        acc[x] += line[x] * wk;
      }
    }
    for (int x = 0; x < width; ++x) {
      dst[x] = RoundToByte(acc[x]);
    }
  }

  // Round to nearest, ties to even, then clamp to 0..255. Adding and
  // removing 1.5 * 2^23 leaves the float with no fraction bits, so the
  // addition itself rounds under the default rounding mode; exact for
  // |v| < 2^22.
  static std::uint8_t RoundToByte(float v) {
    constexpr float kMagic = 12582912.0F;  // 1.5 * 2^23
    float r = (v + kMagic) - kMagic;
    r = std::min(std::max(r, 0.0F), 255.0F);
    return static_cast<std::uint8_t>(r);
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
  std::size_t plane_stride_ = 0;
  std::vector<float> row_;
  std::vector<float> sums_;
  std::vector<float> acc_;
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
