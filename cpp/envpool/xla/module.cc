// envpool._xla: the XLA FFI handlers that envpool.xla registers with JAX
// (cpp/envpool/xla/handlers.h). Built against XLA's header-only FFI API; it
// links nothing of XLA or CUDA.
#include <pybind11/pybind11.h>
#include <xla/ffi/api/ffi.h>

#include "envpool/python/xla_bridge.h"
#include "envpool/xla/gpu_handlers.h"
#include "envpool/xla/handlers.h"

namespace ffi = ::xla::ffi;

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolSendCpu, envpool::xla::SendOnCpu,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::int64_t>("bridge"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(
    EnvpoolRecvCpu, envpool::xla::RecvOnCpu,
    ffi::Ffi::Bind().Arg<ffi::AnyBuffer>().RemainingRets().Attr<std::int64_t>(
        "bridge"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolStepCpu, envpool::xla::StepOnCpu,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .RemainingRets()
                                  .Attr<std::int64_t>("bridge"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolSendGpu, envpool::xla::SendOnGpu,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void*>>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Ret<ffi::AnyBuffer>()
                                  .Attr<std::int64_t>("bridge"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolRecvGpu, envpool::xla::RecvOnGpu,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void*>>()
                                  .Arg<ffi::AnyBuffer>()
                                  .RemainingRets()
                                  .Attr<std::int64_t>("bridge"));

XLA_FFI_DEFINE_HANDLER_SYMBOL(EnvpoolStepGpu, envpool::xla::StepOnGpu,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::PlatformStream<void*>>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .Arg<ffi::AnyBuffer>()
                                  .RemainingRets()
                                  .Attr<std::int64_t>("bridge"));

PYBIND11_MODULE(_xla, m) {
  namespace py = pybind11;
  m.attr("BRIDGE_VERSION") = envpool::xla::kBridgeVersion;
  // The XLA FFI API version of the headers the handlers were built against:
  // XLA registers them only if it supports that version.
  m.attr("FFI_API_VERSION") =
      py::make_tuple(XLA_FFI_API_MAJOR, XLA_FFI_API_MINOR);
  auto capsule = [](XLA_FFI_Handler* handler) {
    return py::capsule(reinterpret_cast<void*>(handler));
  };
  py::dict cpu;
  cpu["send"] = capsule(EnvpoolSendCpu);
  cpu["recv"] = capsule(EnvpoolRecvCpu);
  cpu["step"] = capsule(EnvpoolStepCpu);
  py::dict gpu;
  gpu["send"] = capsule(EnvpoolSendGpu);
  gpu["recv"] = capsule(EnvpoolRecvGpu);
  gpu["step"] = capsule(EnvpoolStepGpu);
  m.attr("HANDLERS") = py::dict(py::arg("cpu") = cpu, py::arg("gpu") = gpu);
}
