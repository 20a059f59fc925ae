// Element types of the arrays an environment exchanges with the engine.
#ifndef ENVPOOL_CORE_DTYPE_H_
#define ENVPOOL_CORE_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace envpool {

enum class DType : std::uint8_t {
  kBool,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
};

template <typename T>
struct DTypeTraits;

#define ENVPOOL_DEFINE_DTYPE(TYPE, ENUM, NAME)      \
  template <>                                       \
  struct DTypeTraits<TYPE> {                        \
    static constexpr DType kDType = DType::ENUM;    \
    static constexpr std::string_view kName = NAME; \
  };
ENVPOOL_DEFINE_DTYPE(bool, kBool, "bool")
ENVPOOL_DEFINE_DTYPE(std::int8_t, kInt8, "int8")
ENVPOOL_DEFINE_DTYPE(std::int16_t, kInt16, "int16")
ENVPOOL_DEFINE_DTYPE(std::int32_t, kInt32, "int32")
ENVPOOL_DEFINE_DTYPE(std::int64_t, kInt64, "int64")
ENVPOOL_DEFINE_DTYPE(std::uint8_t, kUInt8, "uint8")
ENVPOOL_DEFINE_DTYPE(std::uint16_t, kUInt16, "uint16")
ENVPOOL_DEFINE_DTYPE(std::uint32_t, kUInt32, "uint32")
ENVPOOL_DEFINE_DTYPE(std::uint64_t, kUInt64, "uint64")
ENVPOOL_DEFINE_DTYPE(float, kFloat32, "float32")
ENVPOOL_DEFINE_DTYPE(double, kFloat64, "float64")
#undef ENVPOOL_DEFINE_DTYPE

template <typename T>
concept ArrayElement = requires { DTypeTraits<T>::kDType; };

template <ArrayElement T>
constexpr DType kDTypeOf = DTypeTraits<T>::kDType;

// The element types, in DType's order.
using DTypeElements = std::tuple<bool, std::int8_t, std::int16_t, std::int32_t,
                                 std::int64_t, std::uint8_t, std::uint16_t,
                                 std::uint32_t, std::uint64_t, float, double>;

// Calls fn(T{}) with the C++ type that `dtype` names (double for a value
// past the last DType). I: the element type it compares with next.
template <typename Fn, std::size_t I = 0>
decltype(auto) VisitDType(DType dtype, Fn&& fn) {
  using T = std::tuple_element_t<I, DTypeElements>;
  static_assert(kDTypeOf<T> == static_cast<DType>(I));
  if constexpr (I + 1 < std::tuple_size_v<DTypeElements>) {
    if (dtype != kDTypeOf<T>) {
      return VisitDType<Fn, I + 1>(dtype, std::forward<Fn>(fn));
    }
  }
  return fn(T{});
}

inline std::size_t DTypeSize(DType dtype) {
  return VisitDType(dtype, [](auto v) { return sizeof(v); });
}

inline std::string_view DTypeName(DType dtype) {
  return VisitDType(dtype,
                    [](auto v) { return DTypeTraits<decltype(v)>::kName; });
}

// numpy's dtype.kind: 'b', 'i', 'u' or 'f'.
inline char DTypeKind(DType dtype) {
  return VisitDType(dtype, [](auto v) {
    using T = decltype(v);
    if constexpr (std::is_same_v<T, bool>) {
      return 'b';
    } else if constexpr (std::is_floating_point_v<T>) {
      return 'f';
    } else {
      return std::is_signed_v<T> ? 'i' : 'u';
    }
  });
}

inline bool IsFloating(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat64;
}

inline bool IsInteger(DType dtype) {
  return dtype != DType::kBool && !IsFloating(dtype);
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_DTYPE_H_
