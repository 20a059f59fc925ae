// The Python face of one env type: a pybind11 class that owns an EnvPool.
//
// Register an env with one line in a pybind11 module:
//   PYBIND11_MODULE(my_envs, m) { envpool::python::RegisterEnv<MyEnv>(m,
//   "MyEnv"); }
// The Python package (envpool.register) turns the class into task ids.
#ifndef ENVPOOL_PYTHON_PY_ENV_POOL_H_
#define ENVPOOL_PYTHON_PY_ENV_POOL_H_

#include <cxxabi.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#include <unistd.h>
#endif

#include "envpool/core/env.h"
#include "envpool/core/env_pool.h"
#include "envpool/core/errors.h"
#include "envpool/core/version.h"
#include "envpool/core/worker_group.h"
#include "envpool/python/py_actions.h"
#include "envpool/python/py_config.h"
#include "envpool/python/xla_bridge.h"

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

inline long CurrentPid() {  // NOLINT(runtime/int)
#if defined(__unix__) || defined(__APPLE__)
  return static_cast<long>(getpid());  // NOLINT(runtime/int)
#else
  return 0;
#endif
}

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

template <Environment E>
class PyEnvPool {
 public:
  using Pool = EnvPool<E>;
  using Scalar = typename Pool::Scalar;

  // `options`: the env's options; `pool_args`: the pool's (PoolOptionsFrom).
  PyEnvPool(const py::dict& options, const py::dict& pool_args)
      : fork_generation_(fork_generation.load()) {
    PoolOptions pool_options = PoolOptionsFrom(pool_args);
    const int num_envs = pool_options.num_envs;
    if (num_envs < 1) {
      throw py::value_error("num_envs must be >= 1, got " +
                            std::to_string(num_envs));
    }
    std::vector<Config> configs =
        MakeConfigs(E::DefaultConfig(), options, num_envs);
    pool_ = WithoutGil([&] {
      return std::make_unique<Pool>(std::move(configs), pool_options);
    });
    const Pool& pool = *pool_;
    with_final_ = pool.options().autoreset_mode == AutoresetMode::kSameStep;
    BatchLayout layout(pool.spec(), 1, with_final_);
    for (const auto& field : layout.fields()) {
      dtypes_.push_back(py::dtype(std::string(DTypeName(field.spec.dtype))));
      names_.push_back(py::str(field.spec.name));
      shapes_.emplace_back(field.spec.shape.begin(), field.spec.shape.end());
    }
    num_info_ = layout.num_info();
    if (with_final_) {
      final_obs_ = layout.final_obs();
      final_mask_ = layout.final_mask();
    }
    all_ids_.resize(static_cast<std::size_t>(num_envs));
    for (int i = 0; i < num_envs; ++i) {
      all_ids_[i] = i;
    }
    obs_row_bytes_ = layout.field(kObsField).row_bytes;
    obs_spec_ = layout.field(kObsField).spec;
    latest_obs_.resize(obs_row_bytes_ * static_cast<std::size_t>(num_envs));
  }

  ~PyEnvPool() {
    if (xla_bridge_ != nullptr) {
      std::unique_lock lock(xla_bridge_->mutex);
      xla_bridge_->owner = nullptr;
    }
    if (Forked()) {
      // The parent's threads are not in this process, and the pool's
      // condition variables still count them as waiters: destroying it could
      // block forever, so a pool inherited through fork() is left alone.
      static_cast<void>(pool_.release());
    }
  }

  static void Bind(py::module_& m, const char* name) {
    WatchForks();
    // module_local: two modules may bind the same env type without clashing.
    py::class_<PyEnvPool>(m, name, py::module_local())
        .def_property_readonly_static(
            "envpool_version",
            [](const py::object&) { return std::string(ENVPOOL_VERSION); })
        .def(py::init<const py::dict&, const py::dict&>(), py::arg("options"),
             py::arg("pool"))
        .def_static("default_config",
                    [] { return ToPython(E::DefaultConfig()); })
        .def_static(
            "spec",
            [](const py::dict& options) {
              return ToPython(
                  E::Spec(MakeConfigs(E::DefaultConfig(), options, 1).front()));
            },
            py::arg("options"))
        .def("step", &PyEnvPool::Step, py::arg("actions"),
             py::arg("env_ids") = py::none())
        .def("send", &PyEnvPool::Send, py::arg("actions"),
             py::arg("env_ids") = py::none())
        .def("recv", &PyEnvPool::Recv)
        .def("reset", &PyEnvPool::Reset, py::arg("env_ids") = py::none(),
             py::arg("seeds") = py::none())
        .def("async_reset", &PyEnvPool::AsyncReset,
             py::arg("env_ids") = py::none(), py::arg("seeds") = py::none())
        .def("render", &PyEnvPool::Render, py::arg("env_ids") = py::none())
        .def("latest_obs", &PyEnvPool::LatestObs,
             py::arg("env_ids") = py::none())
        .def("render_ansi", &PyEnvPool::RenderAnsi,
             py::arg("env_ids") = py::none())
        .def_property_readonly_static(
            "can_render", [](const py::object&) { return Renderable<E>; })
        .def_property_readonly_static(
            "can_render_ansi",
            [](const py::object&) { return AnsiRenderable<E>; })
        .def("close", &PyEnvPool::Close)
        .def_property_readonly("closed", &PyEnvPool::closed)
        .def_property_readonly("num_threads",
                               [](const PyEnvPool& self) {
                                 return self.pool_->options().num_threads;
                               })
        .def_property_readonly(
            "resolved_options",
            [](const PyEnvPool& self) {
              return ResolvedPoolOptions(self.pool_->options());
            })
        .def_property_readonly("seeds",
                               [](const PyEnvPool& self) {
                                 std::lock_guard lock(self.call_mutex_);
                                 return self.pool_->seeds();
                               })
        .def_property_readonly(
            "shares_workers",
            [](const PyEnvPool& self) { return self.pool_->shares_workers(); })
        .def_property_readonly(
            "num_pending",
            [](const PyEnvPool& self) { return self.pool_->num_pending(); })
        .def("_xla_bridge", &PyEnvPool::XlaBridge)
        .def("_xla_outputs", &PyEnvPool::XlaOutputs);
    py::register_local_exception_translator(TranslateErrors);
  }

 private:
  py::tuple Step(const py::object& actions, const py::object& env_ids) {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids, actions);
    py::array array = ActionArray(actions, ids.size());
    const RawArray raw(array);
    return StepResult(WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      CheckRecvCanFollow(ids.size());
      SendLocked(raw, ids);
      return pool_->Recv(CheckSignals);
    }));
  }

  void Send(const py::object& actions, const py::object& env_ids) {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids, actions);
    py::array array = ActionArray(actions, ids.size());
    const RawArray raw(array);
    WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      SendLocked(raw, ids);
      return true;
    });
  }

  py::tuple Recv() {
    CheckProcess();
    return StepResult(WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      return pool_->Recv(CheckSignals);
    }));
  }

  py::tuple Reset(const py::object& env_ids, const py::object& seeds) {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids);
    std::vector<std::optional<std::uint64_t>> seed_list =
        ParseSeeds(seeds, ids);
    py::tuple result =
        StepResult(WithoutGil([&] {
                     std::lock_guard lock(call_mutex_);
                     return pool_->Reset(ids, seed_list, CheckSignals);
                   }),
                   false);
    return py::make_tuple(result[0], result[4]);
  }

  void AsyncReset(const py::object& env_ids, const py::object& seeds) {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids);
    std::vector<std::optional<std::uint64_t>> seed_list =
        ParseSeeds(seeds, ids);
    WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      pool_->SendReset(ids, seed_list);
      return true;
    });
  }

  // A copy of the last observation returned for each env in env_ids (all
  // when None): the arrays handed to Python may have been written to since.
  py::object LatestObs(const py::object& env_ids) {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids);
    std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(ids.size())};
    shape.insert(shape.end(), shapes_[kObsField].begin(),
                 shapes_[kObsField].end());
    py::array out(dtypes_[kObsField], shape);
    auto* dst = static_cast<std::byte*>(out.mutable_data());
    for (std::size_t row = 0; row < ids.size(); ++row) {
      std::memcpy(dst + row * obs_row_bytes_,
                  latest_obs_.data() +
                      static_cast<std::size_t>(ids[row]) * obs_row_bytes_,
                  obs_row_bytes_);
    }
    if (obs_spec_.IsDict()) {
      // Views into the packed copy, which each key's array keeps alive.
      return DictViews(static_cast<const std::byte*>(out.data()),
                       static_cast<py::ssize_t>(ids.size()), out);
    }
    return out;
  }

  // The arrays of a dict observation whose rows are packed at `rows` (one
  // row of obs_row_bytes_ per env): strided views that keep `owner` alive,
  // in the spec's key order.
  py::dict DictViews(const std::byte* rows, py::ssize_t n,
                     const py::handle& owner) const {
    py::dict out;
    for (const ArraySpec& key : obs_spec_.keys) {
      const auto item = static_cast<py::ssize_t>(DTypeSize(key.dtype));
      std::vector<py::ssize_t> shape{n};
      std::vector<py::ssize_t> strides{
          static_cast<py::ssize_t>(obs_row_bytes_)};
      shape.insert(shape.end(), key.shape.begin(), key.shape.end());
      std::vector<py::ssize_t> inner(key.shape.size());
      py::ssize_t stride = item;
      for (std::size_t d = key.shape.size(); d-- > 0;) {
        inner[d] = stride;
        stride *= static_cast<py::ssize_t>(key.shape[d]);
      }
      strides.insert(strides.end(), inner.begin(), inner.end());
      out[py::str(key.name)] = py::array(
          py::dtype(std::string(DTypeName(key.dtype))), shape, strides,
          static_cast<const void*>(rows + key.offset), owner);
    }
    return out;
  }

  // (n, *RenderShape) uint8 frames of the envs in env_ids (all when None).
  py::array Render(const py::object& env_ids) {
    CheckProcess();
    if constexpr (Renderable<E>) {
      std::vector<std::int32_t> ids = ParseIds(env_ids);
      std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(ids.size())};
      shape.insert(shape.end(), pool_->render_shape().begin(),
                   pool_->render_shape().end());
      py::array_t<std::uint8_t> frames(shape);
      std::uint8_t* out = frames.mutable_data();
      WithoutGil([&] {
        std::lock_guard lock(call_mutex_);
        pool_->Render(ids, out);
        return true;
      });
      return frames;
    } else {
      static_cast<void>(env_ids);
      PyErr_SetString(PyExc_NotImplementedError, "this env cannot render");
      throw py::error_already_set();
    }
  }

  // The text of each env in env_ids (all when None).
  std::vector<std::string> RenderAnsi(const py::object& env_ids) {
    CheckProcess();
    if constexpr (AnsiRenderable<E>) {
      std::vector<std::int32_t> ids = ParseIds(env_ids);
      return WithoutGil([&] {
        std::lock_guard lock(call_mutex_);
        return pool_->RenderAnsi(ids);
      });
    } else {
      static_cast<void>(env_ids);
      PyErr_SetString(PyExc_NotImplementedError,
                      "this env has no text rendering");
      throw py::error_already_set();
    }
  }

  void Close() {
    if (Forked()) {
      return;
    }
    WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      pool_->Close();
      return true;
    });
  }

  bool closed() const { return Forked() || pool_->closed(); }

  bool Forked() const { return fork_generation_ != fork_generation.load(); }

  void CheckProcess() const {
    if (Forked()) {
      throw CallOrderError(
          "this pool was created in the parent process before fork(); its "
          "threads do not exist here. Create a new pool in the child");
    }
  }

  // In async mode step() is send() then recv(); refuse it up front, rather
  // than after sending, when the recv() could never fill a batch.
  void CheckRecvCanFollow(std::size_t sending) const {
    if (!pool_->is_sync() &&
        static_cast<std::size_t>(pool_->num_pending()) + sending <
            static_cast<std::size_t>(pool_->batch_size())) {
      throw CallOrderError(
          "step() would wait for batch_size=" +
          std::to_string(pool_->batch_size()) + " results but only " +
          std::to_string(static_cast<std::size_t>(pool_->num_pending()) +
                         sending) +
          " envs would be in flight; send() more envs first");
    }
  }

  void SendLocked(const RawArray& array, std::span<const std::int32_t> ids) {
    pool_->Send(ids, [&] {
      CopyActions<Scalar>(
          array, pool_->spec().action, ids,
          [this](std::int32_t id) { return pool_->action_row(id); });
    });
  }

  py::array ActionArray(const py::object& actions, std::size_t n) {
    return AsActionArray(actions, pool_->spec().action, n);
  }

  // env_ids, or every env when None. With `actions`, None in async mode is
  // allowed only for a full batch of num_envs rows.
  std::vector<std::int32_t> ParseIds(const py::object& env_ids,
                                     const py::object& actions = py::none()) {
    if (env_ids.is_none()) {
      if (!actions.is_none() && !pool_->is_sync()) {
        const std::size_t rows = py::len(actions);
        if (rows != static_cast<std::size_t>(pool_->num_envs())) {
          throw py::value_error(
              "in async mode (batch_size < num_envs) pass env_id: the "
              "info['env_id'] of the batch these actions are for");
        }
      }
      return all_ids_;
    }
    py::array array = py::array::ensure(env_ids, py::array::c_style);
    if (!array ||
        (array.dtype().kind() != 'i' && array.dtype().kind() != 'u')) {
      PyErr_Clear();
      throw py::type_error("env_id must be an integer array or list");
    }
    if (array.ndim() > 1) {
      throw py::value_error("env_id must be one-dimensional");
    }
    array = array.attr("astype")("int64").cast<py::array>();
    const auto* data = static_cast<const std::int64_t*>(array.data());
    std::vector<std::int32_t> ids(static_cast<std::size_t>(array.size()));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      if (data[i] < 0 || data[i] >= pool_->num_envs()) {
        throw py::index_error("env_id " + std::to_string(data[i]) +
                              " is out of range [0, " +
                              std::to_string(pool_->num_envs()) + ")");
      }
      ids[i] = static_cast<std::int32_t>(data[i]);
    }
    return ids;
  }

  // None: keep each env's generator; an int s: env id gets EnvSeed(s, id);
  // a sequence: one seed (or None) per env of the call.
  static std::vector<std::optional<std::uint64_t>> ParseSeeds(
      const py::object& seeds, const std::vector<std::int32_t>& ids) {
    const std::size_t n = ids.size();
    std::vector<std::optional<std::uint64_t>> out(n);
    if (seeds.is_none()) {
      return out;
    }
    auto to_seed = [](const py::handle& value) -> std::uint64_t {
      if (py::isinstance<py::bool_>(value) ||
          !py::hasattr(value, "__index__")) {
        throw py::type_error("a seed must be an int or None");
      }
      py::int_ as_int =
          py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
      if (as_int < py::int_(0)) {
        throw py::value_error("seeds must be non-negative, got " +
                              std::string(py::str(as_int)));
      }
      return as_int.cast<std::uint64_t>();
    };
    if (py::hasattr(seeds, "__index__") && !py::isinstance<py::bool_>(seeds)) {
      const std::uint64_t base = to_seed(seeds);
      for (std::size_t i = 0; i < n; ++i) {
        out[i] = EnvSeed(base, ids[i]);
      }
      return out;
    }
    if (!py::isinstance<py::sequence>(seeds) &&
        !py::isinstance<py::array>(seeds)) {
      throw py::type_error("seed must be None, an int, or a list of ints");
    }
    auto values = py::list(seeds);
    if (values.size() != n) {
      throw py::value_error("got " + std::to_string(values.size()) +
                            " seeds for " + std::to_string(n) + " envs");
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!values[i].is_none()) {
        out[i] = to_seed(values[i]);
      }
    }
    return out;
  }

  // (obs, reward, terminated, truncated, info) viewing the batch's memory;
  // the memory goes back to the pool when the last of these arrays dies.
  py::tuple StepResult(Batch batch, bool with_final = true) {
    const auto n = static_cast<py::ssize_t>(batch.size);
    KeepLatestObs(*batch.buffer, batch.size);
    BatchBuffer* raw = batch.buffer.release();
    raw->home = std::move(batch.pool);
    py::capsule owner(raw, [](void* p) {
      BufferPool::GiveBack(static_cast<BatchBuffer*>(p));
    });
    auto array = [&](std::size_t field) {
      std::vector<py::ssize_t> shape{n};
      shape.insert(shape.end(), shapes_[field].begin(), shapes_[field].end());
      return py::array(dtypes_[field], shape,
                       static_cast<const void*>(raw->Row(field, 0)), owner);
    };
    // The observation (or final observation) field: an array, or a dict of
    // arrays for a dict observation.
    auto observation = [&](std::size_t field) -> py::object {
      if (obs_spec_.IsDict()) {
        return DictViews(raw->Row(field, 0), n, owner);
      }
      return array(field);
    };
    py::dict info;
    info[names_[kEnvIdField]] = array(kEnvIdField);
    info[names_[kElapsedStepField]] = array(kElapsedStepField);
    for (std::size_t i = 0; i < num_info_; ++i) {
      info[names_[kFirstInfoField + i]] = array(kFirstInfoField + i);
    }
    if (with_final_ && with_final) {
      py::object mask = array(final_mask_);
      info["final_obs"] = observation(final_obs_);
      info["_final_obs"] = mask;
      py::dict final_info;
      final_info["elapsed_step"] = array(final_obs_ + 1);
      final_info["_elapsed_step"] = mask;
      for (std::size_t i = 0; i < num_info_; ++i) {
        final_info[names_[final_obs_ + 2 + i]] = array(final_obs_ + 2 + i);
        final_info[py::str("_") + names_[final_obs_ + 2 + i]] = mask;
      }
      info["final_info"] = final_info;
      info["_final_info"] = mask;
    }
    return py::make_tuple(observation(kObsField), array(kRewardField),
                          array(kTerminatedField), array(kTruncatedField),
                          info);
  }

  // The address of this pool's xla::Bridge, made on first use (and never
  // freed, see xla_bridge.h).
  std::uintptr_t XlaBridge() {
    CheckProcess();
    if (xla_bridge_ == nullptr) {
      xla_slots_ = xla::OutputSlots(BatchLayout(pool_->spec(), 1, with_final_));
      xla_bridge_ = new xla::Bridge;  // NOLINT(cppcoreguidelines-owning-memory)
      xla_bridge_->owner = this;
      xla_bridge_->send = &PyEnvPool::XlaSend;
      xla_bridge_->recv = &PyEnvPool::XlaRecv;
    }
    return reinterpret_cast<std::uintptr_t>(xla_bridge_);
  }

  // (name, dtype, per-env shape) of each output of an XLA recv.
  py::list XlaOutputs() const {
    py::list out;
    for (const xla::OutputSlot& slot :
         xla::OutputSlots(BatchLayout(pool_->spec(), 1, with_final_))) {
      out.append(py::make_tuple(slot.name, std::string(DTypeName(slot.dtype)),
                                py::tuple(py::cast(slot.shape))));
    }
    return out;
  }

  // Runs on an XLA thread, without the GIL: nothing here may touch Python.
  static bool XlaSend(void* owner, const xla::HostBuffer& env_ids,
                      const xla::HostBuffer& action, std::string* error) {
    try {
      auto* self = static_cast<PyEnvPool*>(owner);
      self->CheckProcess();
      const std::span<const std::int32_t> ids(
          static_cast<const std::int32_t*>(env_ids.data), env_ids.num_elements);
      const std::size_t per_env = self->pool_->spec().action.NumElements();
      if (action.num_elements != ids.size() * per_env) {
        throw std::invalid_argument(
            "send got " + std::to_string(action.num_elements) +
            " action values for " + std::to_string(ids.size()) +
            " envs; each env takes " + std::to_string(per_env));
      }
      if (self->pool_->is_sync() &&
          ids.size() != static_cast<std::size_t>(self->pool_->num_envs())) {
        throw std::invalid_argument(
            "in sync mode an XLA send steps every env (" +
            std::to_string(self->pool_->num_envs()) + "), got " +
            std::to_string(ids.size()));
      }
      const RawArray raw(action.data, DTypeKind(action.dtype),
                         static_cast<py::ssize_t>(DTypeSize(action.dtype)));
      std::lock_guard lock(self->call_mutex_);
      self->SendLocked(raw, ids);
      return true;
    } catch (const std::exception& e) {
      *error = e.what();
    } catch (...) {
      *error = "unknown C++ exception";
    }
    return false;
  }

  static bool XlaRecv(void* owner, std::span<const xla::HostBuffer> outputs,
                      std::string* error) {
    try {
      auto* self = static_cast<PyEnvPool*>(owner);
      self->CheckProcess();
      const auto rows = static_cast<std::size_t>(self->pool_->batch_size());
      xla::CheckOutputs(self->xla_slots_, outputs, rows);
      std::lock_guard lock(self->call_mutex_);
      Batch batch = self->pool_->Recv();
      if (batch.size != rows) {
        throw CallOrderError(
            "recv got " + std::to_string(batch.size) +
            " results, an XLA recv takes batch_size=" + std::to_string(rows) +
            ": the last send() from Python stepped only some envs");
      }
      for (std::size_t i = 0; i < outputs.size(); ++i) {
        xla::CopySlot(self->xla_slots_[i], *batch.buffer, rows, outputs[i]);
      }
      self->KeepLatestObs(*batch.buffer, rows);
      batch.pool->Release(std::move(batch.buffer));
      return true;
    } catch (const std::exception& e) {
      *error = e.what();
    } catch (...) {
      *error = "unknown C++ exception";
    }
    return false;
  }

  void KeepLatestObs(const BatchBuffer& buffer, std::size_t rows) {
    for (std::size_t row = 0; row < rows; ++row) {
      const auto env =
          static_cast<std::size_t>(buffer.At<std::int32_t>(kEnvIdField, row));
      std::memcpy(latest_obs_.data() + env * obs_row_bytes_,
                  buffer.Row(kObsField, row), obs_row_bytes_);
    }
  }

  std::unique_ptr<Pool> pool_;
  mutable std::mutex call_mutex_;
  int fork_generation_;
  bool with_final_ = false;
  std::size_t num_info_ = 0;
  std::size_t final_obs_ = 0;
  std::size_t final_mask_ = 0;
  std::vector<py::dtype> dtypes_;
  std::vector<py::str> names_;
  std::vector<std::vector<py::ssize_t>> shapes_;
  std::vector<std::int32_t> all_ids_;
  std::size_t obs_row_bytes_ = 0;
  ArraySpec obs_spec_;                 // with keys for a dict observation
  std::vector<std::byte> latest_obs_;  // the last observation of each env
  xla::Bridge* xla_bridge_ = nullptr;
  std::vector<xla::OutputSlot> xla_slots_;
};

// Exposes env type E to Python as class `name` in module `m`.
template <typename E>
void RegisterEnv(py::module_& m, const char* name) {
  // CheckEnvironment's own static_asserts name what E lacks.
  [[maybe_unused]] constexpr bool kChecked = CheckEnvironment<E>();
  if constexpr (Environment<E>) {
    PyEnvPool<E>::Bind(m, name);
  }
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_ENV_POOL_H_
