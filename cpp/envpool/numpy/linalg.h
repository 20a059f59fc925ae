// Dot products, norms and small matrix products as numpy computes them.
//
// numpy takes x.dot(y), np.linalg.norm, vector-matrix and matrix-matrix
// products from the BLAS it ships (OpenBLAS), and OpenBLAS picks its kernels
// by the CPU it runs on: on AVX-512 a 3-vector's ddot is an FMA chain, on
// AVX2 (Haswell kernels) plain products added left to right, on SSE2 two
// lanes; and dgemm of two 3x3 matrices rounds like one dgemv per row on
// AVX-512 but not on AVX2. No fixed formula is right on every CPU, so
// envpool.numpy_parity hands the envs the very ddot, dgemv and dgemm numpy
// calls (docs/design.md, "Arithmetic that depends on the CPU"). Without them
// (a numpy built with no BLAS) the envs compute as numpy's own loops do then:
// products added left to right, each step rounded.
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

  // Installs the cblas_ddot, cblas_dgemv and cblas_dgemm of numpy's BLAS (set
  // once, before any env exists); `ilp64`: 64-bit integer arguments (numpy's
  // wheels), else 32-bit.
  void Set(std::uintptr_t ddot, std::uintptr_t dgemv, std::uintptr_t dgemm,
           bool ilp64) {
    ddot_ = ddot;
    dgemv_ = dgemv;
    dgemm_ = dgemm;
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
      dot += x[i] * y[i];
    }
    return dot;
  }

  // v.dot(m) for a row-major 3x3 m: numpy's cblas_dgemv(RowMajor, Trans).
  void VecMat3(const double* v, const double* m, double* out) const {
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
      out[j] = v[0] * m[j] + v[1] * m[3 + j] + v[2] * m[6 + j];
    }
  }

  // a @ x for a C-contiguous rows x cols matrix a, as numpy's matmul calls
  // its BLAS: cblas_dgemv(ColMajor, Trans, cols, rows, 1, a, cols, x, 1, 0,
  // out, 1).
  void MatVec(const double* a, std::size_t rows, std::size_t cols,
              const double* x, double* out) const {
    if (dgemv_ != 0) {
      if (ilp64_) {
        const auto m = static_cast<std::int64_t>(cols);
        const auto n = static_cast<std::int64_t>(rows);
        reinterpret_cast<Dgemv<std::int64_t>>(dgemv_)(  // NOLINT
            kColMajor, kTrans, m, n, 1.0, a, m, x, 1, 0.0, out, 1);
      } else {
        const auto m = static_cast<std::int32_t>(cols);
        const auto n = static_cast<std::int32_t>(rows);
        reinterpret_cast<Dgemv<std::int32_t>>(dgemv_)(  // NOLINT
            kColMajor, kTrans, m, n, 1.0, a, m, x, 1, 0.0, out, 1);
      }
      return;
    }
    for (std::size_t row = 0; row < rows; ++row) {
      double sum = 0.0;
      for (std::size_t j = 0; j < cols; ++j) {
        sum += a[row * cols + j] * x[j];
      }
      out[row] = sum;
    }
  }

  // a.dot(b) for two row-major 3x3 matrices: numpy's
  // cblas_dgemm(RowMajor, NoTrans, NoTrans, 3, 3, 3, 1, a, 3, b, 3, 0, out, 3).
  void MatMat3(const double* a, const double* b, double* out) const {
    if (dgemm_ != 0) {
      if (ilp64_) {
        reinterpret_cast<Dgemm<std::int64_t>>(dgemm_)(  // NOLINT
            kRowMajor, kNoTrans, kNoTrans, 3, 3, 3, 1.0, a, 3, b, 3, 0.0, out,
            3);
      } else {
        reinterpret_cast<Dgemm<std::int32_t>>(dgemm_)(  // NOLINT
            kRowMajor, kNoTrans, kNoTrans, 3, 3, 3, 1.0, a, 3, b, 3, 0.0, out,
            3);
      }
      return;
    }
    for (std::size_t row = 0; row < 3; ++row) {
      for (std::size_t j = 0; j < 3; ++j) {
        out[3 * row + j] = a[3 * row] * b[j] + a[3 * row + 1] * b[3 + j] +
                           a[3 * row + 2] * b[6 + j];
      }
    }
  }

 private:
  static constexpr int kRowMajor = 101;
  static constexpr int kColMajor = 102;
  static constexpr int kNoTrans = 111;
  static constexpr int kTrans = 112;
  template <typename Int>
  using Ddot = double (*)(Int n, const double* x, Int incx, const double* y,
                          Int incy);
  template <typename Int>
  using Dgemv = void (*)(int order, int trans, Int m, Int n, double alpha,
                         const double* a, Int lda, const double* x, Int incx,
                         double beta, double* y, Int incy);
  template <typename Int>
  using Dgemm = void (*)(int order, int trans_a, int trans_b, Int m, Int n,
                         Int k, double alpha, const double* a, Int lda,
                         const double* b, Int ldb, double beta, double* c,
                         Int ldc);

  std::uintptr_t ddot_ = 0;
  std::uintptr_t dgemv_ = 0;
  std::uintptr_t dgemm_ = 0;
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

// a @ x for a C-contiguous rows x cols matrix, as numpy computes it.
inline void NpMatVec(const double* a, std::size_t rows, std::size_t cols,
                     const double* x, double* out) {
  NumpyBlas::Get().MatVec(a, rows, cols, x, out);
}

// v.dot(m.reshape(3, 3)) for a row-major 3x3 matrix m.
inline void NpVecMat3(const double* v, const double* m, double* out) {
  NumpyBlas::Get().VecMat3(v, m, out);
}

// a.dot(b) for row-major 3x3 matrices a and b.
inline void NpMatMat3(const double* a, const double* b, double* out) {
  NumpyBlas::Get().MatMat3(a, b, out);
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_LINALG_H_
