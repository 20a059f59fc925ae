// numpy's Generator(PCG64(SeedSequence(seed))), draw for draw: the generator
// that gymnasium's seeding.np_random(seed) gives every env as env.np_random.
//
// An env that draws through NumpyRandom, seeded with the env's seed (see the
// Seedable concept in env.h), makes exactly the draws gymnasium's env makes
// after reset(seed=seed), across its later unseeded resets too. So any
// episode replays in gymnasium from the seed alone.
//
// Implemented from numpy's documented algorithms (SeedSequence's hash mixing,
// PCG64 XSL-RR 128/64, Lemire's bounded integers); tests/test_numpy_random.py
// checks every method against numpy itself.
#ifndef ENVPOOL_NUMPY_RANDOM_H_
#define ENVPOOL_NUMPY_RANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

namespace envpool {

class NumpyRandom {
 public:
  explicit NumpyRandom(std::uint64_t seed = 0) { Seed(seed); }

  // seeding.np_random(seed) for a non-negative integer seed.
  void Seed(std::uint64_t seed) {
    const std::array<std::uint32_t, 8> words = SeedSequenceState(seed);
    auto u64 = [&](std::size_t i) {
      return static_cast<std::uint64_t>(words[2 * i]) |
             (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
    };
    const Uint128 init_state = (static_cast<Uint128>(u64(0)) << 64) | u64(1);
    const Uint128 init_seq = (static_cast<Uint128>(u64(2)) << 64) | u64(3);
    state_ = 0;
    increment_ = (init_seq << 1) | 1;
    Advance();
    state_ += init_state;
    Advance();
    has_uint32_ = false;
    uint32_ = 0;
  }

  // bit_generator.random_raw(): the next 64 bits.
  std::uint64_t NextUint64() {
    Advance();
    const auto high = static_cast<std::uint64_t>(state_ >> 64);
    const auto low = static_cast<std::uint64_t>(state_);
    const unsigned rot = static_cast<unsigned>(state_ >> 122);
    const std::uint64_t x = high ^ low;
    return (x >> rot) | (x << ((64 - rot) & 63));
  }

  // Generator.random(): a double in [0, 1) from 53 bits.
  double Random() {
    return static_cast<double>(NextUint64() >> 11) * (1.0 / 9007199254740992.0);
  }

  // Generator.uniform(low, high) for scalars.
  double Uniform(double low, double high) {
    return low + (high - low) * Random();
  }

  // Generator.integers(low, high) (high excluded, int64 result).
  std::int64_t Integers(std::int64_t low, std::int64_t high) {
    if (high <= low) {
      throw std::invalid_argument("NumpyRandom::Integers: high <= low");
    }
    const auto range = static_cast<std::uint64_t>(high - low - 1);
    if (range == 0) {
      return low;
    }
    if (range == 0xFFFFFFFFULL) {
      return low + static_cast<std::int64_t>(NextUint32());
    }
    if (range < 0xFFFFFFFFULL) {
      return low + static_cast<std::int64_t>(
                       BoundedLemire32(static_cast<std::uint32_t>(range)));
    }
    if (range == ~0ULL) {
      return low + static_cast<std::int64_t>(NextUint64());
    }
    return low + static_cast<std::int64_t>(BoundedLemire64(range));
  }

  // next_uint32 of numpy's PCG64: the low then the high half of one draw.
  std::uint32_t NextUint32() {
    if (has_uint32_) {
      has_uint32_ = false;
      return uint32_;
    }
    const std::uint64_t next = NextUint64();
    has_uint32_ = true;
    uint32_ = static_cast<std::uint32_t>(next >> 32);
    return static_cast<std::uint32_t>(next);
  }

  // The index gymnasium's categorical_sample picks:
  // argmax(cumsum(probs) > random()), 0 when no entry exceeds the draw.
  std::size_t Categorical(std::span<const double> probs) {
    const double u = Random();
    double cumulative = 0.0;
    for (std::size_t i = 0; i < probs.size(); ++i) {
      cumulative += probs[i];
      if (cumulative > u) {
        return i;
      }
    }
    return 0;
  }

  // numpy's random_interval(max): a uniform integer in [0, max] by masked
  // rejection, the draw behind each swap of Generator.shuffle.
  std::uint64_t Interval(std::uint64_t max) {
    if (max == 0) {
      return 0;
    }
    std::uint64_t mask = max;
    for (unsigned shift = 1; shift < 64; shift *= 2) {
      mask |= mask >> shift;
    }
    std::uint64_t value = 0;
    if (max <= 0xFFFFFFFFULL) {
      do {
        value = NextUint32() & mask;
      } while (value > max);
    } else {
      do {
        value = NextUint64() & mask;
      } while (value > max);
    }
    return value;
  }

  // Generator.shuffle(x) in place: for i from the last index down to 1, swap
  // x[i] with x[Interval(i)].
  template <typename T>
  void Shuffle(std::span<T> items) {
    for (std::size_t i = items.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(Interval(i));
      std::swap(items[i], items[j]);
    }
  }

 private:
  using Uint128 = unsigned __int128;

  static constexpr Uint128 kMultiplier =
      (static_cast<Uint128>(2549297995355413924ULL) << 64) |
      4865540595714422341ULL;

  void Advance() { state_ = state_ * kMultiplier + increment_; }

  // A uniform integer in [0, range], range < 2**32 - 1.
  std::uint32_t BoundedLemire32(std::uint32_t range) {
    const std::uint32_t range_excl = range + 1;
    std::uint64_t m = static_cast<std::uint64_t>(NextUint32()) * range_excl;
    auto leftover = static_cast<std::uint32_t>(m);
    if (leftover < range_excl) {
      const std::uint32_t threshold = (0xFFFFFFFFU - range) % range_excl;
      while (leftover < threshold) {
        m = static_cast<std::uint64_t>(NextUint32()) * range_excl;
        leftover = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

  // A uniform integer in [0, range], 2**32 - 1 < range < 2**64 - 1.
  std::uint64_t BoundedLemire64(std::uint64_t range) {
    const std::uint64_t range_excl = range + 1;
    Uint128 m = static_cast<Uint128>(NextUint64()) * range_excl;
    auto leftover = static_cast<std::uint64_t>(m);
    if (leftover < range_excl) {
      const std::uint64_t threshold = (~0ULL - range) % range_excl;
      while (leftover < threshold) {
        m = static_cast<Uint128>(NextUint64()) * range_excl;
        leftover = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // SeedSequence(seed).generate_state(4, uint64) as 8 little-endian words.
  static std::array<std::uint32_t, 8> SeedSequenceState(std::uint64_t seed) {
    constexpr std::uint32_t kInitA = 0x43b0d7e5U;
    constexpr std::uint32_t kMultA = 0x931e8875U;
    constexpr std::uint32_t kInitB = 0x8b51f9ddU;
    constexpr std::uint32_t kMultB = 0x58f38dedU;
    constexpr std::uint32_t kMixMultL = 0xca01f9ddU;
    constexpr std::uint32_t kMixMultR = 0x4973f715U;
    constexpr int kShift = 16;

    // The seed as 32-bit words, least significant first ([0] for 0).
    std::vector<std::uint32_t> entropy;
    for (std::uint64_t n = seed; n > 0; n >>= 32) {
      entropy.push_back(static_cast<std::uint32_t>(n));
    }
    if (entropy.empty()) {
      entropy.push_back(0);
    }

    std::uint32_t hash_const = kInitA;
    auto hashmix = [&](std::uint32_t value) {
      value ^= hash_const;
      hash_const *= kMultA;
      value *= hash_const;
      value ^= value >> kShift;
      return value;
    };
    auto mix = [](std::uint32_t x, std::uint32_t y) {
      std::uint32_t result = kMixMultL * x - kMixMultR * y;
      result ^= result >> kShift;
      return result;
    };
    std::array<std::uint32_t, 4> pool{};
    for (std::size_t i = 0; i < pool.size(); ++i) {
      pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0U);
    }
    for (std::size_t src = 0; src < pool.size(); ++src) {
      for (std::size_t dst = 0; dst < pool.size(); ++dst) {
        if (src != dst) {
          pool[dst] = mix(pool[dst], hashmix(pool[src]));
        }
      }
    }
    // (a seed has at most 2 words, so no entropy is left past the pool)

    std::array<std::uint32_t, 8> state{};
    std::uint32_t out_const = kInitB;
    for (std::size_t i = 0; i < state.size(); ++i) {
      std::uint32_t value = pool[i % pool.size()];
      value ^= out_const;
      out_const *= kMultB;
      value *= out_const;
      value ^= value >> kShift;
      state[i] = value;
    }
    return state;
  }

  Uint128 state_ = 0;
  Uint128 increment_ = 0;
  bool has_uint32_ = false;
  std::uint32_t uint32_ = 0;
};

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_RANDOM_H_
