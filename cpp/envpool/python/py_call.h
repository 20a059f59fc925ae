// Calls from Python into the engine: the GIL released around blocking work,
// Ctrl-C reaching a blocked call, pools inherited through fork(), and the
// engine's errors as the Python exceptions of envpool.errors.
#ifndef ENVPOOL_PYTHON_PY_CALL_H_
#define ENVPOOL_PYTHON_PY_CALL_H_

#include <cxxabi.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <exception>
#include <optional>
#include <utility>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <unistd.h>
#endif

#include "envpool/core/errors.h"

namespace envpool::python {

namespace py = pybind11;

// Bumped in a child process after fork(); pools made before refuse calls.
inline std::atomic<int> fork_generation{0};

inline void WatchForks() {
#if defined(__unix__) || defined(__APPLE__)
  static const bool registered = [] {
    pthread_atfork(nullptr, nullptr, [] { fork_generation.fetch_add(1); });
    return true;
  }();
  (void)registered;
#endif
}

// The id of this process, to tell an object made here from one inherited
// through fork().
inline long CurrentPid() {  // NOLINT(runtime/int)
#if defined(__unix__) || defined(__APPLE__)
  return static_cast<long>(getpid());  // NOLINT(runtime/int)
#else
  return 0;
#endif
}

// Raises KeyboardInterrupt (or whatever a signal handler raised) in a call
// blocked without the GIL.
inline void CheckSignals() {
  py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    throw py::error_already_set();
  }
}

// Runs fn() with the GIL released and takes it back in ordinary code rather
// than in a destructor: at interpreter exit, taking the GIL ends a daemon
// thread by unwinding its stack, which must not cross a noexcept destructor.
template <typename Fn>
auto WithoutGil(Fn&& fn) {
  PyThreadState* state = PyEval_SaveThread();
  std::exception_ptr error;
  std::optional<decltype(fn())> result;
  try {
    result.emplace(fn());
  } catch (abi::__forced_unwind&) {
    throw;  // the thread is being ended while it took the GIL to check signals
  } catch (...) {
    error = std::current_exception();
  }
  PyEval_RestoreThread(state);
  if (error) {
    std::rethrow_exception(error);
  }
  return std::move(*result);
}

// pybind11 fixes the signature: the exception_ptr comes by value.
inline void TranslateErrors(
    std::exception_ptr error) {  // NOLINT(performance-unnecessary-value-param)
  try {
    if (error) {
      std::rethrow_exception(error);
    }
  } catch (const EnvError& e) {
    py::object cls = py::module_::import("envpool.errors").attr("EnvError");
    py::object exc =
        cls(e.what(), e.env_id(), e.env_message(), e.dropped_env_ids());
    PyErr_SetObject(cls.ptr(), exc.ptr());
  } catch (const CallOrderError& e) {
    py::object cls =
        py::module_::import("envpool.errors").attr("CallOrderError");
    PyErr_SetString(cls.ptr(), e.what());
  }
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_CALL_H_
