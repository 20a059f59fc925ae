// XLA FFI handlers that step a pool inside a compiled JAX program: send(handle,
// env_ids, action) -> handle and recv(handle) -> (handle, outputs...). The
// pool is found through the `bridge` attribute baked into each call (see
// envpool/python/xla_bridge.h); the uint8[8] handle only orders the calls.
//
// Handlers never let a C++ exception cross the FFI boundary (that would end
// the process): every failure is an ffi::Error, which JAX raises in Python.
#ifndef ENVPOOL_XLA_HANDLERS_H_
#define ENVPOOL_XLA_HANDLERS_H_

#include <xla/ffi/api/ffi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "envpool/core/dtype.h"
#include "envpool/python/xla_bridge.h"

namespace envpool::xla {

namespace ffi = ::xla::ffi;

// XLA's element type for each DType, in DType's order.
inline constexpr std::array<ffi::DataType, std::tuple_size_v<DTypeElements>>
    kXlaTypes = {ffi::DataType::PRED, ffi::DataType::S8,  ffi::DataType::S16,
                 ffi::DataType::S32,  ffi::DataType::S64, ffi::DataType::U8,
                 ffi::DataType::U16,  ffi::DataType::U32, ffi::DataType::U64,
                 ffi::DataType::F32,  ffi::DataType::F64};

inline std::optional<DType> FromXla(ffi::DataType type) {
  const auto* found = std::ranges::find(kXlaTypes, type);
  if (found == kXlaTypes.end()) {
    return std::nullopt;
  }
  return static_cast<DType>(found - kXlaTypes.begin());
}

// `buffer` as a HostBuffer whose data lives at `data` (the buffer's own
// memory on the CPU, a host copy of it on a GPU).
inline HostBuffer ToHost(const ffi::AnyBuffer& buffer, void* data) {
  const std::optional<DType> dtype = FromXla(buffer.element_type());
  if (!dtype) {
    throw std::invalid_argument(
        "an envpool XLA call got an array of an "
        "unsupported element type");
  }
  return HostBuffer{data, buffer.element_count(), *dtype};
}

// Runs call(bridge, &error) while the bridge's pool cannot go away; turns a
// false return, or any exception, into an ffi::Error.
template <typename Call>
ffi::Error CallPool(std::int64_t address, Call&& call) {
  try {
    // The address is the pool's Bridge, baked into the call by envpool.xla.
    auto* bridge =
        reinterpret_cast<Bridge*>(  // NOLINT(performance-no-int-to-ptr)
            static_cast<std::uintptr_t>(address));
    if (bridge == nullptr || bridge->version != kBridgeVersion) {
      return ffi::Error(ffi::ErrorCode::kInternal,
                        "envpool: this XLA call's pool was built by another "
                        "envpool version than envpool._xla; reinstall envpool");
    }
    std::shared_lock lock(bridge->mutex);
    if (bridge->owner == nullptr) {
      return ffi::Error(ffi::ErrorCode::kFailedPrecondition,
                        "envpool: the pool of this xla() call was garbage-"
                        "collected; make a new pool and call its xla()");
    }
    std::string error;
    if (!call(*bridge, &error)) {
      return ffi::Error(ffi::ErrorCode::kFailedPrecondition,
                        "envpool: " + error);
    }
    return ffi::Error::Success();
  } catch (const std::exception& e) {
    return ffi::Error(ffi::ErrorCode::kInternal,
                      std::string("envpool: ") + e.what());
  } catch (...) {
    return ffi::Error(ffi::ErrorCode::kInternal,
                      "envpool: unknown C++ exception");
  }
}

// ENVPOOL_XLA_TRACE=1: one line on stderr per pool call that a custom call
// makes, with the thread it ran on, to see the order in which XLA runs them.
inline bool TraceCalls() {
  static const bool on = [] {
    const char* value = std::getenv("ENVPOOL_XLA_TRACE");  // NOLINT
    return value != nullptr && std::string_view(value) == "1";
  }();
  return on;
}

inline bool Traced(const char* what, const Bridge& b, bool ok) {
  if (TraceCalls()) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    std::fprintf(  // NOLINT(cppcoreguidelines-pro-type-vararg)
        stderr, "envpool-xla %s bridge=%p thread=%zx t_us=%lld ok=%d\n", what,
        static_cast<const void*>(&b),
        std::hash<std::thread::id>{}(std::this_thread::get_id()),
        static_cast<long long>(  // NOLINT(google-runtime-int)
            std::chrono::duration_cast<std::chrono::microseconds>(now).count()),
        static_cast<int>(ok));
  }
  return ok;
}

// The env ids and actions of a send, checked, to the pool.
inline bool SendToPool(Bridge& b, const HostBuffer& env_ids,
                       const HostBuffer& action, std::string* error) {
  if (env_ids.dtype != DType::kInt32) {
    *error = "env_id must be int32";
    return false;
  }
  return Traced("send", b, b.send(b.owner, env_ids, action, error));
}

inline bool RecvFromPool(Bridge& b, std::span<const HostBuffer> outputs,
                         std::string* error) {
  return Traced("recv", b, b.recv(b.owner, outputs, error));
}

// A recv's output arrays: rets 1.. (ret 0 is the handle).
inline bool OutputBuffers(ffi::RemainingRets rets,
                          std::vector<ffi::AnyBuffer>* buffers,
                          std::string* error) {
  buffers->reserve(rets.size());
  for (std::size_t i = 1; i < rets.size(); ++i) {
    auto ret = rets.get<ffi::AnyBuffer>(i);
    if (!ret.has_value()) {
      *error = ret.error().message();
      return false;
    }
    buffers->push_back(**ret);
  }
  return true;
}

inline bool RecvInPlace(Bridge& b, ffi::RemainingRets rets,
                        std::string* error) {
  std::vector<ffi::AnyBuffer> buffers;
  if (!OutputBuffers(rets, &buffers, error)) {
    return false;
  }
  std::vector<HostBuffer> outputs;
  outputs.reserve(buffers.size());
  for (ffi::AnyBuffer& buffer : buffers) {
    outputs.push_back(ToHost(buffer, buffer.untyped_data()));
  }
  return RecvFromPool(b, outputs, error);
}

inline ffi::Error SendOnCpu(ffi::AnyBuffer /*handle*/, ffi::AnyBuffer env_ids,
                            ffi::AnyBuffer action,
                            ffi::Result<ffi::AnyBuffer> /*handle_out*/,
                            std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    return SendToPool(b, ToHost(env_ids, env_ids.untyped_data()),
                      ToHost(action, action.untyped_data()), error);
  });
}

inline ffi::Error RecvOnCpu(ffi::AnyBuffer /*handle*/, ffi::RemainingRets rets,
                            std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    return RecvInPlace(b, rets, error);
  });
}

// send then recv in one call: step() is one custom call, so nothing can come
// between its two halves, and it costs one call instead of two.
inline ffi::Error StepOnCpu(ffi::AnyBuffer /*handle*/, ffi::AnyBuffer env_ids,
                            ffi::AnyBuffer action, ffi::RemainingRets rets,
                            std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    return SendToPool(b, ToHost(env_ids, env_ids.untyped_data()),
                      ToHost(action, action.untyped_data()), error) &&
           RecvInPlace(b, rets, error);
  });
}

}  // namespace envpool::xla

#endif  // ENVPOOL_XLA_HANDLERS_H_
