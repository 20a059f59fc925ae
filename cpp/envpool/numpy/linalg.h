// Dot products and norms as numpy computes them.
//
// numpy takes x.dot(y), np.linalg.norm and vector-matrix products from the
// BLAS it ships (OpenBLAS), whose kernels round differently from one OpenBLAS
// version and CPU to the next: envpool.numpy_parity hands the envs that BLAS's
// ddot and dgemv, and without it they use an FMA chain (what OpenBLAS does on
// x86-64 with FMA).
#ifndef ENVPOOL_NUMPY_LINALG_H_
#define ENVPOOL_NUMPY_LINALG_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

namespace envpool {

class NumpyBlas {
 public:
  static NumpyBlas& Get() {
    static NumpyBlas blas;
    return blas;
  }

  // Installs the ddot and dgemv of numpy's BLAS (set once, before any env
  // exists); `ilp64`: 64-bit integer arguments (numpy's wheels), else 32-bit.
  void Set(std::uintptr_t ddot, std::uintptr_t dgemv, bool ilp64) {
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

 private:
  template <typename Int>
  using Ddot = double (*)(Int n, const double* x, Int incx, const double* y,
                          Int incy);
  template <typename Int>
  using Dgemv = void (*)(int order, int trans, Int m, Int n, double alpha,
                         const double* a, Int lda, const double* x, Int incx,
                         double beta, double* y, Int incy);

  std::uintptr_t ddot_ = 0;
  std::uintptr_t dgemv_ = 0;
  bool ilp64_ = true;
};

// x.dot(y) of short vectors, as numpy computes it (its BLAS's ddot).
inline double NpDot(std::span<const double> x, std::span<const double> y) {
  return NumpyBlas::Get().Dot(x.data(), y.data(), x.size());
}

// np.linalg.norm of a short vector: the square root of x.dot(x).
inline double NpNorm(std::span<const double> x) {
  return std::sqrt(NpDot(x, x));
}

// v.dot(m.reshape(3, 3)) for a row-major 3x3 matrix m.
inline void NpVecMat3(const double* v, const double* m, double* out) {
  NumpyBlas::Get().VecMat3(v, m, out);
}

// The square root of the sum of squares added left to right, each step
// rounded: what the gymnasium MuJoCo tasks use for np.linalg.norm (their
// module is not handed numpy's BLAS).
inline double NormUnfused(std::span<const double> x) {
  double dot = 0.0;
  for (double v : x) {
    dot += v * v;
  }
  return std::sqrt(dot);
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_LINALG_H_
