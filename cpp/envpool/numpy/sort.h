// np.argsort as numpy computes it.
//
// np.argsort's default kind ("quicksort") is not stable: on x86-64 numpy
// hands float64 arrays to x86-simd-sort (AVX-512 or AVX2), whose sorting
// networks leave equal values in an order of their own, and elsewhere to an
// introsort. So that ties come out in numpy's order, envpool.numpy_parity
// hands the envs the float64 argsort function of the numpy that is loaded.
// Until it has done so, or where it cannot be found, a stable sort stands in:
// the same order whenever no two values are equal.
#ifndef ENVPOOL_NUMPY_SORT_H_
#define ENVPOOL_NUMPY_SORT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>

namespace envpool {

class NumpySort {
 public:
  static NumpySort& Get() {
    static NumpySort sort;
    return sort;
  }

  // Installs numpy's float64 argsort (its ArrFuncs' argsort[NPY_QUICKSORT]);
  // set once, before any env exists.
  void SetArgsort(std::uintptr_t argsort) { argsort_ = argsort; }

  // np.argsort(values): `order` (as long as `values`) receives the indices of
  // `values` from the smallest value up. `values` is numpy's scratch array
  // (its sort leaves it as it was, but takes it as writable).
  void Argsort(std::span<double> values,
               std::span<std::ptrdiff_t> order) const {
    std::iota(order.begin(), order.end(), std::ptrdiff_t{0});
    if (values.size() < 2) {
      return;
    }
    if (argsort_ != 0) {
      // numpy's PyArray_ArgSortFunc; the last argument (the array) is unused
      // for float64
      using ArgsortFunc =
          int (*)(void*, std::ptrdiff_t*, std::ptrdiff_t, void*);
      reinterpret_cast<ArgsortFunc>(argsort_)(  // NOLINT
          values.data(), order.data(),
          static_cast<std::ptrdiff_t>(values.size()), nullptr);
      return;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&values](std::ptrdiff_t a, std::ptrdiff_t b) {
                       return values[a] < values[b];
                     });
  }

 private:
  std::uintptr_t argsort_ = 0;
};

// np.argsort(values) (numpy's default kind) of a float64 vector.
inline void NpArgsort(std::span<double> values,
                      std::span<std::ptrdiff_t> order) {
  NumpySort::Get().Argsort(values, order);
}

}  // namespace envpool

#endif  // ENVPOOL_NUMPY_SORT_H_
