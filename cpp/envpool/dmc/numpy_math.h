// numpy's own float64 kernels for the transcendental functions dm_control's
// tasks apply (np.exp in rewards.tolerance, np.log1p on touch sensors, ...).
//
// numpy computes these with its own SIMD code where the CPU has it (AVX512F
// and SVML on x86-64), whose results differ from libm's in the last bit for a
// few to 30 percent of arguments. So that rewards and observations are bit
// for bit dm_control's, envpool.dmc_tasks reads the address of each ufunc's
// float64 inner loop from the numpy that is loaded, and the envs call that
// loop on one element (each result depends on its own element only). Until it
// has done so, or where a loop cannot be found, libm stands in.
//
// Likewise numpy takes x.dot(y), np.linalg.norm and vector-matrix products
// from the BLAS it ships (OpenBLAS), whose kernels round differently from one
// OpenBLAS version and CPU to the next: the envs call that BLAS's ddot and
// dgemv, and without it an FMA chain (what OpenBLAS does on x86-64 with FMA).
#ifndef ENVPOOL_DMC_NUMPY_MATH_H_
#define ENVPOOL_DMC_NUMPY_MATH_H_

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace envpool::dmc {

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
  kCount,
};

// numpy's names for them, in NumpyFunc's order.
inline constexpr std::array<std::string_view,
                            static_cast<std::size_t>(NumpyFunc::kCount)>
    kNumpyFuncNames = {"exp", "log",     "log1p",  "cosh",    "tanh",   "sin",
                       "cos", "arccosh", "arccos", "arctanh", "arcsinh"};

// A ufunc inner loop: numpy's PyUFuncGenericFunction.
using UfuncLoop = void (*)(char** args, const std::ptrdiff_t* dimensions,
                           const std::ptrdiff_t* steps, void* data);

class NumpyMath {
 public:
  static NumpyMath& Get() {
    static NumpyMath math;
    return math;
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

  // Installs the ddot and dgemv of numpy's BLAS; `ilp64`: 64-bit integer
  // arguments (numpy's wheels), else 32-bit.
  void SetBlas(std::uintptr_t ddot, std::uintptr_t dgemv, bool ilp64) {
    ddot_ = ddot;
    dgemv_ = dgemv;
    ilp64_ = ilp64;
  }

  // x.dot(y) of two contiguous float64 vectors of length n.
  double Dot(const double* x, const double* y, std::size_t n) const {
    if (ddot_ != 0) {
      if (ilp64_) {
        return reinterpret_cast<Ddot<std::int64_t>>(ddot_)(  // NOLINT
            static_cast<std::int64_t>(n), x, 1, y, 1);
      }
      return reinterpret_cast<Ddot<std::int32_t>>(ddot_)(  // NOLINT
          static_cast<std::int32_t>(n), x, 1, y, 1);
    }
    double dot = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      dot = std::fma(x[i], y[i], dot);
    }
    return dot;
  }

  // v.dot(m) for a row-major 3x3 m: numpy's cblas_dgemv(RowMajor, Trans).
  void VecMat3(const double* v, const double* m, double* out) const {
    constexpr int kRowMajor = 101;
    constexpr int kTrans = 112;
    if (dgemv_ != 0) {
      if (ilp64_) {
        reinterpret_cast<Dgemv<std::int64_t>>(dgemv_)(  // NOLINT
            kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
      } else {
        reinterpret_cast<Dgemv<std::int32_t>>(dgemv_)(  // NOLINT
            kRowMajor, kTrans, 3, 3, 1.0, m, 3, v, 1, 0.0, out, 1);
      }
      return;
    }
    for (int j = 0; j < 3; ++j) {
      out[j] = std::fma(v[2], m[6 + j], std::fma(v[1], m[3 + j], v[0] * m[j]));
    }
  }

  bool Has(NumpyFunc f) const {
    return loops_[static_cast<std::size_t>(f)] != nullptr;
  }

  double Call(NumpyFunc f, double x) const {
    const auto i = static_cast<std::size_t>(f);
    if (loops_[i] == nullptr) {
      return Libm(f, x);
    }
    // Input and output 128 bytes apart: numpy's SIMD loops fall back to libm
    // when the two overlap within a vector (numpy 1.26 checks 64 bytes), as
    // two neighbouring locals would.
    alignas(64) std::array<double, 32> buffer{};
    buffer[0] = x;
    std::array<char*, 2> args{reinterpret_cast<char*>(&buffer[0]),    // NOLINT
                              reinterpret_cast<char*>(&buffer[16])};  // NOLINT
    const std::ptrdiff_t n = 1;
    const std::array<std::ptrdiff_t, 2> steps{sizeof(double), sizeof(double)};
    loops_[i](args.data(), &n, steps.data(), data_[i]);
    return buffer[16];
  }

 private:
  static double Libm(NumpyFunc f, double x) {
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
      case NumpyFunc::kCount:
        break;
    }
    return std::nan("");
  }

  template <typename Int>
  using Ddot = double (*)(Int n, const double* x, Int incx, const double* y,
                          Int incy);
  template <typename Int>
  using Dgemv = void (*)(int order, int trans, Int m, Int n, double alpha,
                         const double* a, Int lda, const double* x, Int incx,
                         double beta, double* y, Int incy);

  std::array<UfuncLoop, kNumpyFuncNames.size()> loops_{};
  std::array<void*, kNumpyFuncNames.size()> data_{};
  std::uintptr_t ddot_ = 0;
  std::uintptr_t dgemv_ = 0;
  bool ilp64_ = true;
};

// np.exp, np.log, ... of one float64.
inline double NpExp(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kExp, x);
}
inline double NpLog(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kLog, x);
}
inline double NpLog1p(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kLog1p, x);
}
inline double NpCosh(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kCosh, x);
}
inline double NpTanh(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kTanh, x);
}
inline double NpSin(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kSin, x);
}
inline double NpCos(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kCos, x);
}
inline double NpArccosh(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kArccosh, x);
}
inline double NpArccos(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kArccos, x);
}
inline double NpArctanh(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kArctanh, x);
}
inline double NpArcsinh(double x) {
  return NumpyMath::Get().Call(NumpyFunc::kArcsinh, x);
}

}  // namespace envpool::dmc

#endif  // ENVPOOL_DMC_NUMPY_MATH_H_
