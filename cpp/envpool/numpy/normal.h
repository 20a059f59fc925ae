// Generator.normal(loc, scale), draw for draw, with numpy's own sampler.
//
// numpy draws normals by its ziggurat (random_standard_normal), whose tables
// and tail test live in numpy's random module; numpy's _generator extension
// exports random_normal(bitgen_t*, loc, scale), and envpool.numpy_parity
// hands its address over after checking it against Generator.normal. Here
// NumpyRandom is wrapped as the bitgen_t numpy's samplers read, so the draws
// come from the env's own generator in numpy's order.
#ifndef ENVPOOL_NUMPY_NORMAL_H_
#define ENVPOOL_NUMPY_NORMAL_H_

#include <cstdint>
#include <stdexcept>

#include "envpool/numpy/random.h"

namespace envpool {

class NumpyNormal {
 public:
  static NumpyNormal& Get() {
    static NumpyNormal normal;
    return normal;
  }

  // Installs numpy's random_normal (set once, before any env exists).
  void Set(std::uintptr_t random_normal) {
    sampler_ = reinterpret_cast<Sampler>(random_normal);  // NOLINT
  }

  bool Has() const { return sampler_ != nullptr; }

  // rng.normal(loc, scale) for a scalar loc and scale (each element of
  // rng.normal(loc, scale, size=n) is one such draw, in order).
  double Draw(NumpyRandom& rng, double loc, double scale) const {
    if (sampler_ == nullptr) {
      throw std::runtime_error(
          "numpy's normal sampler was not handed over (envpool.numpy_parity "
          "found no random_normal in numpy.random._generator)");
    }
    BitGen bitgen{&rng, &NextUint64, &NextUint32, &NextDouble, &NextUint64};
    return sampler_(&bitgen, loc, scale);
  }

 private:
  // numpy's bitgen_t (numpy/random/bitgen.h): a state and its four draws.
  struct BitGen {
    void* state;
    std::uint64_t (*next_uint64)(void*);
    std::uint32_t (*next_uint32)(void*);
    double (*next_double)(void*);
    std::uint64_t (*next_raw)(void*);
  };
  using Sampler = double (*)(BitGen*, double, double);

  static std::uint64_t NextUint64(void* rng) {
    return static_cast<NumpyRandom*>(rng)->NextUint64();
  }
  static std::uint32_t NextUint32(void* rng) {
    return static_cast<NumpyRandom*>(rng)->NextUint32();
  }
  static double NextDouble(void* rng) {
    return static_cast<NumpyRandom*>(rng)->Random();
  }

  Sampler sampler_ = nullptr;
};

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_NORMAL_H_
