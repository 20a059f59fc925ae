// numpy's own float64 kernels for the transcendental functions the envs
// apply (np.exp in dm_control's rewards.tolerance, np.log1p on touch sensors,
// ..., and the two-argument np.arctan2 in mpe2's simple_formation).
//
// numpy computes these with its own SIMD code where the CPU has it (AVX512F
// and SVML on x86-64), whose results differ from libm's in the last bit for a
// few to 30 percent of arguments. So that rewards and observations are bit
// for bit the reference's, envpool.numpy_parity reads the address of each
// ufunc's float64 inner loop from the numpy that is loaded, and the envs call
// that loop on one element (each result depends on its own element only).
// Until it has done so, or where a loop cannot be found, libm stands in.
#ifndef ENVPOOL_NUMPY_UFUNCS_H_
#define ENVPOOL_NUMPY_UFUNCS_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace envpool {

enum class NumpyFunc : std::uint8_t {
  kExp,
  kLog,
  kLog1p,
  kCosh,
  kTanh,
  kSin,
  kCos,
  kArccosh,
  kArccos,
  kArctanh,
  kArcsinh,
  kArctan2,  // the one with two arguments
  kCount,
};

// numpy's names for them, in NumpyFunc's order.
inline constexpr std::array<std::string_view,
                            static_cast<std::size_t>(NumpyFunc::kCount)>
    kNumpyFuncNames = {"exp",    "log",     "log1p",   "cosh",
                       "tanh",   "sin",     "cos",     "arccosh",
                       "arccos", "arctanh", "arcsinh", "arctan2"};

// A ufunc inner loop: numpy's PyUFuncGenericFunction.
using UfuncLoop = void (*)(char** args, const std::ptrdiff_t* dimensions,
                           const std::ptrdiff_t* steps, void* data);

class NumpyUfuncs {
 public:
  static NumpyUfuncs& Get() {
    static NumpyUfuncs ufuncs;
    return ufuncs;
  }

  // Installs numpy's loop for `name` (set once, before any env exists);
  // false for a name not in kNumpyFuncNames.
  bool Set(std::string_view name, std::uintptr_t loop, std::uintptr_t data) {
    for (std::size_t i = 0; i < kNumpyFuncNames.size(); ++i) {
      if (kNumpyFuncNames[i] == name) {
        loops_[i] = reinterpret_cast<UfuncLoop>(loop);  // NOLINT
        data_[i] = reinterpret_cast<void*>(data);       // NOLINT
        return true;
      }
    }
    return false;
  }

  bool Has(NumpyFunc f) const {
    return loops_[static_cast<std::size_t>(f)] != nullptr;
  }

  // f of x (and y, for kArctan2).
  double Call(NumpyFunc f, double x, double y = 0.0) const {
    const auto i = static_cast<std::size_t>(f);
    if (loops_[i] == nullptr) {
      return Libm(f, x, y);
    }
    // Inputs and output 128 bytes apart: numpy's SIMD loops fall back to libm
    // when they overlap within a vector (numpy 1.26 checks 64 bytes), as
    // neighbouring locals would.
    alignas(64) std::array<double, 48> buffer{};
    buffer[0] = x;
    buffer[16] = y;
    char* in0 = reinterpret_cast<char*>(&buffer[0]);   // NOLINT
    char* in1 = reinterpret_cast<char*>(&buffer[16]);  // NOLINT
    char* out = reinterpret_cast<char*>(&buffer[32]);  // NOLINT
    std::array<char*, 3> args{in0, out, out};
    if (f == NumpyFunc::kArctan2) {
      args = {in0, in1, out};
    }
    const std::ptrdiff_t n = 1;
    const std::array<std::ptrdiff_t, 3> steps{sizeof(double), sizeof(double),
                                              sizeof(double)};
    loops_[i](args.data(), &n, steps.data(), data_[i]);
    return buffer[32];
  }

 private:
  static double Libm(NumpyFunc f, double x, double y) {
    switch (f) {
      case NumpyFunc::kExp:
        return std::exp(x);
      case NumpyFunc::kLog:
        return std::log(x);
      case NumpyFunc::kLog1p:
        return std::log1p(x);
      case NumpyFunc::kCosh:
        return std::cosh(x);
      case NumpyFunc::kTanh:
        return std::tanh(x);
      case NumpyFunc::kSin:
        return std::sin(x);
      case NumpyFunc::kCos:
        return std::cos(x);
      case NumpyFunc::kArccosh:
        return std::acosh(x);
      case NumpyFunc::kArccos:
        return std::acos(x);
      case NumpyFunc::kArctanh:
        return std::atanh(x);
      case NumpyFunc::kArcsinh:
        return std::asinh(x);
      case NumpyFunc::kArctan2:
        return std::atan2(x, y);
      case NumpyFunc::kCount:
        break;
    }
    return std::nan("");
  }

  std::array<UfuncLoop, kNumpyFuncNames.size()> loops_{};
  std::array<void*, kNumpyFuncNames.size()> data_{};
};

// numpy's ufunc kFunc of one float64.
template <NumpyFunc kFunc>
double NpUfunc(double x) {
  return NumpyUfuncs::Get().Call(kFunc, x);
}

// np.exp, np.log, ...
inline constexpr auto& NpExp = NpUfunc<NumpyFunc::kExp>;
inline constexpr auto& NpLog = NpUfunc<NumpyFunc::kLog>;
inline constexpr auto& NpLog1p = NpUfunc<NumpyFunc::kLog1p>;
inline constexpr auto& NpCosh = NpUfunc<NumpyFunc::kCosh>;
inline constexpr auto& NpTanh = NpUfunc<NumpyFunc::kTanh>;
inline constexpr auto& NpSin = NpUfunc<NumpyFunc::kSin>;
inline constexpr auto& NpCos = NpUfunc<NumpyFunc::kCos>;
inline constexpr auto& NpArccosh = NpUfunc<NumpyFunc::kArccosh>;
inline constexpr auto& NpArccos = NpUfunc<NumpyFunc::kArccos>;
inline constexpr auto& NpArctanh = NpUfunc<NumpyFunc::kArctanh>;
inline constexpr auto& NpArcsinh = NpUfunc<NumpyFunc::kArcsinh>;

// np.arctan2(y, x) of two float64s.
inline double NpArctan2(double y, double x) {
  return NumpyUfuncs::Get().Call(NumpyFunc::kArctan2, y, x);
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_UFUNCS_H_
