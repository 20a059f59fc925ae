// A pool's options as Python passes them (the dict envpool/pool_options.py
// builds), the values the pool resolves, read back, and the worker groups
// that pools of any extension module may share.
#ifndef ENVPOOL_PYTHON_PY_POOL_OPTIONS_H_
#define ENVPOOL_PYTHON_PY_POOL_OPTIONS_H_

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/errors.h"
#include "envpool/core/placement.h"
#include "envpool/core/pool_options.h"
#include "envpool/core/version.h"
#include "envpool/core/worker_group.h"
#include "envpool/python/py_call.h"

namespace envpool::python {

namespace py = pybind11;

inline AutoresetMode ParseAutoresetMode(const std::string& mode) {
  if (mode == "next_step" || mode == "NextStep") {
    return AutoresetMode::kNextStep;
  }
  if (mode == "same_step" || mode == "SameStep") {
    return AutoresetMode::kSameStep;
  }
  if (mode == "disabled" || mode == "Disabled") {
    return AutoresetMode::kDisabled;
  }
  throw py::value_error(
      "autoreset_mode must be 'next_step', 'same_step' or "
      "'disabled', got '" +
      mode + "'");
}

// A worker group travels between extension modules (a CartPole pool of
// envpool._core and a MuJoCo pool of envpool._mujoco may share one) as a
// capsule around this handle. Every module compiles the same header-only
// WorkerGroup, and the capsule's name carries the version, so a module built
// against other headers refuses the capsule instead of misreading it.
struct WorkerGroupHandle {
  std::shared_ptr<WorkerGroup> group;
  long pid;  // NOLINT(runtime/int): the process whose threads these are
};

inline constexpr const char* kWorkerGroupCapsule =
    "envpool.WorkerGroup/" ENVPOOL_VERSION "/1";

inline py::capsule MakeWorkerGroup(int num_threads, std::vector<int> cpus,
                                   int affinity_offset) {
  Placement placement;
  placement.cpus = std::move(cpus);
  placement.affinity_offset = affinity_offset;
  auto group = WithoutGil([&] {
    return std::make_shared<WorkerGroup>(num_threads, std::move(placement));
  });
  auto* handle = new WorkerGroupHandle{std::move(group), CurrentPid()};
  return py::capsule(handle, kWorkerGroupCapsule, [](PyObject* capsule) {
    auto* h = static_cast<WorkerGroupHandle*>(
        PyCapsule_GetPointer(capsule, kWorkerGroupCapsule));
    if (h == nullptr) {
      PyErr_Clear();
      return;
    }
    if (h->pid != CurrentPid()) {
      // Inherited through fork(): its threads are not in this
      // process, and joining them would block forever.
      return;  // so the handle is left allocated
    }
    PyThreadState* state = PyEval_SaveThread();
    delete h;  // joins the threads once no pool uses the group
    PyEval_RestoreThread(state);
  });
}

// The group inside a capsule from MakeWorkerGroup; None gives null.
inline std::shared_ptr<WorkerGroup> WorkerGroupFrom(const py::object& obj) {
  if (obj.is_none()) {
    return nullptr;
  }
  if (!PyCapsule_CheckExact(obj.ptr()) ||
      !PyCapsule_IsValid(obj.ptr(), kWorkerGroupCapsule)) {
    throw py::type_error(
        "thread_pool must come from envpool.make_thread_pool() of envpool " +
        std::string(ENVPOOL_VERSION) +
        " (an env package built against other envpool headers cannot share "
        "its threads)");
  }
  auto* handle = static_cast<WorkerGroupHandle*>(
      PyCapsule_GetPointer(obj.ptr(), kWorkerGroupCapsule));
  if (handle->pid != CurrentPid()) {
    throw CallOrderError(
        "this thread pool was created in the parent process before fork(); "
        "its threads do not exist here. Create a new one in the child");
  }
  return handle->group;
}

// A pool's options from the dict that envpool/pool_options.py builds: every
// key of PoolOptions that Python sets, already type-checked there.
inline PoolOptions PoolOptionsFrom(const py::dict& pool) {
  PoolOptions options;
  options.num_envs = pool["num_envs"].cast<int>();
  options.batch_size = pool["batch_size"].cast<int>();
  options.num_threads = pool["num_threads"].cast<int>();
  options.seed = pool["seed"].cast<std::uint64_t>();
  options.max_episode_steps = pool["max_episode_steps"].cast<int>();
  options.autoreset_mode =
      ParseAutoresetMode(pool["autoreset_mode"].cast<std::string>());
  options.thread_affinity_offset = pool["thread_affinity_offset"].cast<int>();
  options.worker_group =
      WorkerGroupFrom(py::reinterpret_borrow<py::object>(pool["worker_group"]));
  options.cpus = pool["cpus"].cast<std::vector<int>>();
  options.memory_node = pool["memory_node"].cast<int>();
  options.solo_round_ns = pool["solo_round_ns"].cast<double>();
  return options;
}

// The values the pool takes for the options it resolves (ResolvePoolOptions).
inline py::dict ResolvedPoolOptions(const PoolOptions& options) {
  py::dict out;
  out["num_envs"] = options.num_envs;
  out["batch_size"] = options.batch_size;
  out["num_threads"] = options.num_threads;
  out["seed"] = options.seed;
  return out;
}

// Binds the functions every env module shares (in one module: envpool._core):
// worker groups, and the resolution of pool options without making a pool.
inline void BindWorkerGroups(py::module_& m) {
  m.def("_make_worker_group", &MakeWorkerGroup, py::arg("num_threads"),
        py::arg("cpus"), py::arg("thread_affinity_offset"));
  m.def(
      "_resolve_pool_options",
      [](const py::dict& pool) {
        PoolOptions options = PoolOptionsFrom(pool);
        try {
          ResolvePoolOptions(options);
        } catch (const std::invalid_argument& e) {
          throw py::value_error(e.what());
        }
        return ResolvedPoolOptions(options);
      },
      py::arg("pool"));
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_POOL_OPTIONS_H_
