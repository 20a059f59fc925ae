// The GPU variants of the handlers in handlers.h. A custom call on a GPU gets
// device buffers: the action and env ids are copied to page-locked host
// memory, the pool runs on the host as ever, and the results are copied back,
// all on the call's CUDA stream.
//
// By default the pool call runs on the thread that launches the custom call,
// after one synchronisation, and the results' copies end in a second one.
// ENVPOOL_XLA_GPU_HOST_CALL=stream runs it instead as a host function on the
// stream (cuLaunchHostFunc), in stream order, with one synchronisation; on an
// H200 with jax 0.11.2 that cost about 118 us per call against 75 us (16
// CartPole envs), so it is not the default.
//
// The CUDA driver is opened with dlopen on first use, so that envpool links no
// CUDA library and CPU-only machines need none.
#ifndef ENVPOOL_XLA_GPU_HANDLERS_H_
#define ENVPOOL_XLA_GPU_HANDLERS_H_

#include <dlfcn.h>
#include <xla/ffi/api/ffi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/xla/handlers.h"

namespace envpool::xla {

// The CUDA driver calls the GPU handlers need.
class CudaDriver {
 public:
  using HostFn = void (*)(void*);

  static const CudaDriver& Get() {
    static const CudaDriver driver;
    if (!driver.error_.empty()) {
      throw std::runtime_error(driver.error_);
    }
    return driver;
  }

  void ToHost(void* host, const void* device, std::size_t bytes,
              void* stream) const {
    Check(memcpy_dtoh_(host, reinterpret_cast<std::uintptr_t>(device), bytes,
                       stream),
          "cuMemcpyDtoHAsync");
  }
  void ToDevice(void* device, const void* host, std::size_t bytes,
                void* stream) const {
    Check(memcpy_htod_(reinterpret_cast<std::uintptr_t>(device), host, bytes,
                       stream),
          "cuMemcpyHtoDAsync");
  }
  void Synchronize(void* stream) const {
    Check(synchronize_(stream), "cuStreamSynchronize");
  }
  void LaunchHostFunc(void* stream, HostFn fn, void* data) const {
    Check(launch_host_func_(stream, fn, data), "cuLaunchHostFunc");
  }
  // Page-locked host memory, or null where the driver has none to give.
  void* AllocatePinned(std::size_t bytes) const {
    void* memory = nullptr;
    return alloc_host_(&memory, bytes) == 0 ? memory : nullptr;
  }

 private:
  using DtoH = int (*)(void*, std::uintptr_t, std::size_t, void*);
  using HtoD = int (*)(std::uintptr_t, const void*, std::size_t, void*);
  using Sync = int (*)(void*);
  using Launch = int (*)(void*, HostFn, void*);
  using AllocHost = int (*)(void**, std::size_t);

  CudaDriver() {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      // Runs once, inside the function-local static's initialisation.
      error_ = "envpool's GPU path needs the CUDA driver (libcuda.so.1): " +
               std::string(dlerror());  // NOLINT(concurrency-mt-unsafe)
      return;
    }
    memcpy_dtoh_ = reinterpret_cast<DtoH>(dlsym(lib, "cuMemcpyDtoHAsync_v2"));
    memcpy_htod_ = reinterpret_cast<HtoD>(dlsym(lib, "cuMemcpyHtoDAsync_v2"));
    synchronize_ = reinterpret_cast<Sync>(dlsym(lib, "cuStreamSynchronize"));
    launch_host_func_ =
        reinterpret_cast<Launch>(dlsym(lib, "cuLaunchHostFunc"));
    alloc_host_ = reinterpret_cast<AllocHost>(dlsym(lib, "cuMemAllocHost_v2"));
    if (memcpy_dtoh_ == nullptr || memcpy_htod_ == nullptr ||
        synchronize_ == nullptr || launch_host_func_ == nullptr ||
        alloc_host_ == nullptr) {
      error_ =
          "libcuda.so.1 lacks one of cuMemcpyDtoHAsync_v2, "
          "cuMemcpyHtoDAsync_v2, cuStreamSynchronize, cuLaunchHostFunc, "
          "cuMemAllocHost_v2 (CUDA 10 or newer has them)";
    }
  }

  static void Check(int status, const char* what) {
    if (status != 0) {
      throw std::runtime_error(std::string(what) + " failed with CUDA error " +
                               std::to_string(status));
    }
  }

  std::string error_;
  DtoH memcpy_dtoh_ = nullptr;
  HtoD memcpy_htod_ = nullptr;
  Sync synchronize_ = nullptr;
  Launch launch_host_func_ = nullptr;
  AllocHost alloc_host_ = nullptr;
};

// Host memory for one call's copies, taken from a process-wide free list of
// page-locked blocks (a copy from pageable memory is staged and synchronous)
// and given back when the call ends. Blocks are kept until the process ends:
// their number is the most calls ever in progress at once.
class Staging {
 public:
  Staging(const CudaDriver& cuda, std::size_t bytes) {
    std::lock_guard lock(Mutex());
    auto& free = FreeBlocks();
    for (auto it = free.begin(); it != free.end(); ++it) {
      if (it->capacity >= bytes) {
        block_ = *it;
        free.erase(it);
        return;
      }
    }
    block_.capacity = std::max<std::size_t>(bytes, kMinBlock);
    block_.data = static_cast<std::byte*>(cuda.AllocatePinned(block_.capacity));
    if (block_.data == nullptr) {  // pageable memory still works, slower
      pageable_.resize(block_.capacity);
      block_.data = pageable_.data();
    }
  }
  ~Staging() {
    if (pageable_.empty()) {
      std::lock_guard lock(Mutex());
      FreeBlocks().push_back(block_);
    }
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  Staging(Staging&&) = delete;
  Staging& operator=(Staging&&) = delete;

  // `bytes` more of the block, 64-byte aligned.
  std::byte* Take(std::size_t bytes) {
    std::byte* at = block_.data + used_;
    used_ += Aligned(bytes);
    return at;
  }
  static std::size_t Aligned(std::size_t bytes) {
    return (bytes + kAlign - 1) / kAlign * kAlign;
  }

 private:
  struct Block {
    std::byte* data = nullptr;
    std::size_t capacity = 0;
  };
  static constexpr std::size_t kAlign = 64;
  static constexpr std::size_t kMinBlock = 4096;
  static std::mutex& Mutex() {
    static std::mutex mutex;
    return mutex;
  }
  static std::vector<Block>& FreeBlocks() {
    static std::vector<Block> blocks;
    return blocks;
  }

  Block block_;
  std::size_t used_ = 0;
  std::vector<std::byte> pageable_;
};

inline bool HostCallOnStream() {
  static const bool on_stream = [] {
    const char* value = std::getenv("ENVPOOL_XLA_GPU_HOST_CALL");  // NOLINT
    return value != nullptr && std::string_view(value) == "stream";
  }();
  return on_stream;
}

// One GPU call: `to_host` copies (already enqueued), then `pool_call` on the
// host, then the copies `to_device` enqueues, then one synchronisation.
inline bool RunOnGpu(const CudaDriver& cuda, void* stream,
                     const std::function<bool(std::string*)>& pool_call,
                     const std::function<void()>& to_device,
                     std::string* error) {
  if (!HostCallOnStream()) {
    cuda.Synchronize(stream);
    if (!pool_call(error)) {
      return false;
    }
    to_device();
    cuda.Synchronize(stream);
    return true;
  }
  struct HostCall {
    const std::function<bool(std::string*)>* call;
    bool ok = false;
    std::string error;
  } host{&pool_call};
  cuda.LaunchHostFunc(
      stream,
      [](void* data) {  // on the driver's thread: must not throw
        auto* host = static_cast<HostCall*>(data);
        try {
          host->ok = (*host->call)(&host->error);
        } catch (const std::exception& e) {
          host->error = e.what();
        } catch (...) {
          host->error = "unknown C++ exception";
        }
      },
      &host);
  // Enqueued behind the host function: they copy what it wrote (on failure
  // they copy stale staging memory into outputs that XLA then discards).
  to_device();
  cuda.Synchronize(stream);
  if (!host.ok) {
    *error = host.error;
  }
  return host.ok;
}

// Enqueues the copies of the env ids and the action to staging memory.
inline std::pair<HostBuffer, HostBuffer> ActionToHost(
    const CudaDriver& cuda, void* stream, Staging& staging,
    const ffi::AnyBuffer& env_ids, const ffi::AnyBuffer& action) {
  std::byte* ids_host = staging.Take(env_ids.size_bytes());
  std::byte* action_host = staging.Take(action.size_bytes());
  cuda.ToHost(ids_host, env_ids.untyped_data(), env_ids.size_bytes(), stream);
  cuda.ToHost(action_host, action.untyped_data(), action.size_bytes(), stream);
  return {ToHost(env_ids, ids_host), ToHost(action, action_host)};
}

// Host buffers in staging memory for each output; to_device copies them back.
inline std::vector<HostBuffer> OutputsOnHost(
    Staging& staging, std::vector<ffi::AnyBuffer>& device) {
  std::vector<HostBuffer> outputs;
  outputs.reserve(device.size());
  for (ffi::AnyBuffer& buffer : device) {
    outputs.push_back(ToHost(buffer, staging.Take(buffer.size_bytes())));
  }
  return outputs;
}

inline std::size_t StagingBytes(const std::vector<ffi::AnyBuffer>& buffers) {
  std::size_t bytes = 0;
  for (const ffi::AnyBuffer& buffer : buffers) {
    bytes += Staging::Aligned(buffer.size_bytes());
  }
  return bytes;
}

// step/send/recv on a GPU: `action` is null for a recv, `outputs` null for a
// send.
inline ffi::Error CallOnGpu(void* stream, const ffi::AnyBuffer* env_ids,
                            const ffi::AnyBuffer* action,
                            ffi::RemainingRets* rets, std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    const CudaDriver& cuda = CudaDriver::Get();
    std::vector<ffi::AnyBuffer> device;
    if (rets != nullptr && !OutputBuffers(*rets, &device, error)) {
      return false;
    }
    std::size_t bytes = StagingBytes(device);
    if (action != nullptr) {
      bytes += Staging::Aligned(env_ids->size_bytes()) +
               Staging::Aligned(action->size_bytes());
    }
    Staging staging(cuda, bytes);
    std::pair<HostBuffer, HostBuffer> sent;
    if (action != nullptr) {
      sent = ActionToHost(cuda, stream, staging, *env_ids, *action);
    }
    const std::vector<HostBuffer> outputs = OutputsOnHost(staging, device);
    auto pool_call = [&](std::string* message) {
      return (action == nullptr ||
              SendToPool(b, sent.first, sent.second, message)) &&
             (rets == nullptr || RecvFromPool(b, outputs, message));
    };
    auto to_device = [&] {
      for (std::size_t i = 0; i < device.size(); ++i) {
        cuda.ToDevice(device[i].untyped_data(), outputs[i].data,
                      device[i].size_bytes(), stream);
      }
    };
    return RunOnGpu(cuda, stream, pool_call, to_device, error);
  });
}

inline ffi::Error SendOnGpu(void* stream, ffi::AnyBuffer /*handle*/,
                            ffi::AnyBuffer env_ids, ffi::AnyBuffer action,
                            ffi::Result<ffi::AnyBuffer> /*handle_out*/,
                            std::int64_t bridge) {
  return CallOnGpu(stream, &env_ids, &action, nullptr, bridge);
}

inline ffi::Error RecvOnGpu(void* stream, ffi::AnyBuffer /*handle*/,
                            ffi::RemainingRets rets, std::int64_t bridge) {
  return CallOnGpu(stream, nullptr, nullptr, &rets, bridge);
}

inline ffi::Error StepOnGpu(void* stream, ffi::AnyBuffer /*handle*/,
                            ffi::AnyBuffer env_ids, ffi::AnyBuffer action,
                            ffi::RemainingRets rets, std::int64_t bridge) {
  return CallOnGpu(stream, &env_ids, &action, &rets, bridge);
}

}  // namespace envpool::xla

#endif  // ENVPOOL_XLA_GPU_HANDLERS_H_
