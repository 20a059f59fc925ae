// The per-env random number generator: xoshiro256** seeded through splitmix64.
#ifndef ENVPOOL_CORE_RNG_H_
#define ENVPOOL_CORE_RNG_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>

namespace envpool {

class Rng {
 public:
  using result_type = std::uint64_t;

  explicit Rng(std::uint64_t seed = 0) { Seed(seed); }

  void Seed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& word : state_) {
      word = SplitMix64(x);
    }
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() {
    return std::numeric_limits<result_type>::max();
  }

  result_type operator()() {
    const std::uint64_t result = RotL(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = RotL(state_[3], 45);
    return result;
  }

  // Uniform double in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

  // Uniform double in [low, high).
  double Uniform(double low, double high) {
    return low + (high - low) * Uniform();
  }

  // Standard normal double (Box-Muller; one of each pair is discarded, so a
  // draw depends only on the two uniforms it consumes).
  double Normal() {
    const double u1 = 1.0 - Uniform();  // (0, 1], so the log is finite
    const double u2 = Uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
  }

  // Uniform integer in [0, n), without modulo bias.
  std::uint64_t Below(std::uint64_t n) {
    const std::uint64_t limit = max() - max() % n;
    std::uint64_t x;
    do {
      x = (*this)();
    } while (x >= limit);
    return x % n;
  }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  static std::uint64_t RotL(std::uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
  }
  static std::uint64_t SplitMix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  std::array<std::uint64_t, 4> state_{};
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_RNG_H_
