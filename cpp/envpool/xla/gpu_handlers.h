// The GPU variants of the handlers in handlers.h: a custom call on a GPU gets
// device buffers, so the action and env ids are copied to the host, the pool
// runs on the host as ever, and the results are copied back, all on the
// call's CUDA stream. The CUDA driver is opened with dlopen on first use, so
// that envpool links no CUDA library and CPU-only machines need none.
#ifndef ENVPOOL_XLA_GPU_HANDLERS_H_
#define ENVPOOL_XLA_GPU_HANDLERS_H_

#include <dlfcn.h>
#include <xla/ffi/api/ffi.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "envpool/xla/handlers.h"

namespace envpool::xla {

// The three CUDA driver calls the copies need.
class CudaDriver {
 public:
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

 private:
  using DtoH = int (*)(void*, std::uintptr_t, std::size_t, void*);
  using HtoD = int (*)(std::uintptr_t, const void*, std::size_t, void*);
  using Sync = int (*)(void*);

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
    if (memcpy_dtoh_ == nullptr || memcpy_htod_ == nullptr ||
        synchronize_ == nullptr) {
      error_ =
          "libcuda.so.1 lacks cuMemcpyDtoHAsync_v2, cuMemcpyHtoDAsync_v2 "
          "or cuStreamSynchronize";
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
};

inline ffi::Error SendOnGpu(void* stream, ffi::AnyBuffer /*handle*/,
                            ffi::AnyBuffer env_ids, ffi::AnyBuffer action,
                            ffi::Result<ffi::AnyBuffer> /*handle_out*/,
                            std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    const CudaDriver& cuda = CudaDriver::Get();
    std::vector<std::byte> ids_host(env_ids.size_bytes());
    std::vector<std::byte> action_host(action.size_bytes());
    cuda.ToHost(ids_host.data(), env_ids.untyped_data(), ids_host.size(),
                stream);
    cuda.ToHost(action_host.data(), action.untyped_data(), action_host.size(),
                stream);
    cuda.Synchronize(stream);
    const HostBuffer ids = ToHost(env_ids, ids_host.data());
    if (ids.dtype != DType::kInt32) {
      *error = "env_id must be int32";
      return false;
    }
    return b.send(b.owner, ids, ToHost(action, action_host.data()), error);
  });
}

inline ffi::Error RecvOnGpu(void* stream, ffi::AnyBuffer /*handle*/,
                            ffi::RemainingRets rets, std::int64_t bridge) {
  return CallPool(bridge, [&](Bridge& b, std::string* error) {
    const CudaDriver& cuda = CudaDriver::Get();
    std::vector<ffi::AnyBuffer> device;
    std::vector<std::vector<std::byte>> host;
    std::vector<HostBuffer> outputs;
    for (std::size_t i = 1; i < rets.size(); ++i) {  // 0 is the handle
      auto ret = rets.get<ffi::AnyBuffer>(i);
      if (!ret.has_value()) {
        *error = ret.error().message();
        return false;
      }
      device.push_back(**ret);
      host.emplace_back(device.back().size_bytes());
    }
    outputs.reserve(device.size());
    for (std::size_t i = 0; i < device.size(); ++i) {
      outputs.push_back(ToHost(device[i], host[i].data()));
    }
    if (!b.recv(b.owner, outputs, error)) {
      return false;
    }
    for (std::size_t i = 0; i < device.size(); ++i) {
      cuda.ToDevice(device[i].untyped_data(), host[i].data(), host[i].size(),
                    stream);
    }
    cuda.Synchronize(stream);
    return true;
  });
}

}  // namespace envpool::xla

#endif  // ENVPOOL_XLA_GPU_HANDLERS_H_
