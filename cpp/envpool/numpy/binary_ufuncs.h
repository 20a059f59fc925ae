// numpy's own float64 kernels for the two-argument functions the envs apply
// (np.arctan2 in mpe2's simple_formation), handed over by
// envpool.numpy_parity as the one-argument ones in ufuncs.h are: numpy's
// SIMD arctan2 differs from libm's atan2 in the last bit for a few percent
// of arguments. Until installed, libm stands in.
#ifndef ENVPOOL_NUMPY_BINARY_UFUNCS_H_
#define ENVPOOL_NUMPY_BINARY_UFUNCS_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "envpool/numpy/ufuncs.h"

namespace envpool {

enum class NumpyBinaryFunc : std::uint8_t {
  kArctan2,
  kCount,
};

// numpy's names for them, in NumpyBinaryFunc's order.
inline constexpr std::array<std::string_view,
                            static_cast<std::size_t>(NumpyBinaryFunc::kCount)>
    kNumpyBinaryFuncNames = {"arctan2"};

class NumpyBinaryUfuncs {
 public:
  static NumpyBinaryUfuncs& Get() {
    static NumpyBinaryUfuncs ufuncs;
    return ufuncs;
  }

  // Installs numpy's loop for `name`; false for a name not in
  // kNumpyBinaryFuncNames.
  bool Set(std::string_view name, std::uintptr_t loop, std::uintptr_t data) {
    for (std::size_t i = 0; i < kNumpyBinaryFuncNames.size(); ++i) {
      if (kNumpyBinaryFuncNames[i] == name) {
        loops_[i] = reinterpret_cast<UfuncLoop>(loop);  // NOLINT
        data_[i] = reinterpret_cast<void*>(data);       // NOLINT
        return true;
      }
    }
    return false;
  }

  double Call(NumpyBinaryFunc f, double x, double y) const {
    const auto i = static_cast<std::size_t>(f);
    if (loops_[i] == nullptr) {
      return std::atan2(x, y);
    }
    // the inputs and the output well apart, as in NumpyUfuncs::Call
    alignas(64) std::array<double, 48> buffer{};
    buffer[0] = x;
    buffer[16] = y;
    std::array<char*, 3> args{reinterpret_cast<char*>(&buffer[0]),    // NOLINT
                              reinterpret_cast<char*>(&buffer[16]),   // NOLINT
                              reinterpret_cast<char*>(&buffer[32])};  // NOLINT
    const std::ptrdiff_t n = 1;
    const std::array<std::ptrdiff_t, 3> steps{sizeof(double), sizeof(double),
                                              sizeof(double)};
    loops_[i](args.data(), &n, steps.data(), data_[i]);
    return buffer[32];
  }

 private:
  std::array<UfuncLoop, kNumpyBinaryFuncNames.size()> loops_{};
  std::array<void*, kNumpyBinaryFuncNames.size()> data_{};
};

// np.arctan2(y, x) of two float64s.
inline double NpArctan2(double y, double x) {
  return NumpyBinaryUfuncs::Get().Call(NumpyBinaryFunc::kArctan2, y, x);
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_BINARY_UFUNCS_H_
