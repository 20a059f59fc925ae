// Element types of the arrays an environment exchanges with the engine.
#ifndef ENVPOOL_CORE_DTYPE_H_
#define ENVPOOL_CORE_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

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

// Calls fn(T{}) with the C++ type that `dtype` names.
template <typename Fn>
decltype(auto) VisitDType(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kBool:
      return fn(bool{});
    case DType::kInt8:
      return fn(std::int8_t{});
    case DType::kInt16:
      return fn(std::int16_t{});
    case DType::kInt32:
      return fn(std::int32_t{});
    case DType::kInt64:
      return fn(std::int64_t{});
    case DType::kUInt8:
      return fn(std::uint8_t{});
    case DType::kUInt16:
      return fn(std::uint16_t{});
    case DType::kUInt32:
      return fn(std::uint32_t{});
    case DType::kUInt64:
      return fn(std::uint64_t{});
    case DType::kFloat32:
      return fn(float{});
    case DType::kFloat64:
    default:
      return fn(double{});
  }
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
