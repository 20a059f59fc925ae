// The Python face of one env type: a pybind11 class that owns an EnvPool.
//
// Register an env with one line in a pybind11 module:
//   PYBIND11_MODULE(my_envs, m) { envpool::python::RegisterEnv<MyEnv>(m,
//   "MyEnv"); }
// The Python package (envpool.register) turns the class into task ids.
//
// Its methods are bound once per module, on the base class PyPool (py_pool.h);
// the class binds only its constructor, options and spec. The class's parts
// live beside it: calling in without the GIL (py_call.h),
// pool options and shared worker groups (py_pool_options.h), env ids and
// seeds (py_args.h), actions (py_actions.h), results (py_batch.h), env
// options and specs (py_config.h) and XLA (xla_bridge.h).
#ifndef ENVPOOL_PYTHON_PY_ENV_POOL_H_
#define ENVPOOL_PYTHON_PY_ENV_POOL_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "envpool/core/env.h"
#include "envpool/core/env_pool.h"
#include "envpool/core/errors.h"
#include "envpool/core/version.h"
#include "envpool/python/py_actions.h"
#include "envpool/python/py_args.h"
#include "envpool/python/py_batch.h"
#include "envpool/python/py_call.h"
#include "envpool/python/py_config.h"
#include "envpool/python/py_pool.h"
#include "envpool/python/py_pool_options.h"
#include "envpool/python/xla_bridge.h"

namespace envpool::python {

namespace py = pybind11;

template <Environment E>
class PyEnvPool final : public PyPool {
 public:
  using Pool = EnvPool<E>;
  using Scalar = typename Pool::Scalar;

  // `options`: the env's options; `pool_args`: the pool's (PoolOptionsFrom).
  PyEnvPool(const py::dict& options, const py::dict& pool_args)
      : fork_generation_(fork_generation.load()),
        pool_(MakePool(options, PoolOptionsFrom(pool_args))),
        views_(pool_->spec(),
               pool_->options().autoreset_mode == AutoresetMode::kSameStep,
               static_cast<std::size_t>(pool_->num_envs())) {
    all_ids_.resize(static_cast<std::size_t>(pool_->num_envs()));
    for (int i = 0; i < pool_->num_envs(); ++i) {
      all_ids_[i] = i;
    }
  }

  ~PyEnvPool() override {
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
    BindPoolMethods(m);
    // module_local: two modules may bind the same env type without clashing.
    py::class_<PyEnvPool, PyPool>(m, name, py::module_local())
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
        .def_property_readonly_static(
            "can_render", [](const py::object&) { return Renderable<E>; })
        .def_property_readonly_static(
            "can_render_ansi",
            [](const py::object&) { return AnsiRenderable<E>; })
        .def_property_readonly_static("can_save_state", [](const py::object&) {
          return StateSavable<E>;
        });
  }

  py::tuple Step(const py::object& actions,
                 const py::object& env_ids) override {
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

  void Send(const py::object& actions, const py::object& env_ids) override {
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

  py::tuple Recv() override {
    CheckProcess();
    return StepResult(WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      return pool_->Recv(CheckSignals);
    }));
  }

  py::tuple Reset(const py::object& env_ids, const py::object& seeds) override {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids);
    std::vector<std::optional<std::uint64_t>> seed_list = SeedsFrom(seeds, ids);
    py::tuple result =
        StepResult(WithoutGil([&] {
                     std::lock_guard lock(call_mutex_);
                     return pool_->Reset(ids, seed_list, CheckSignals);
                   }),
                   false);
    return py::make_tuple(result[0], result[4]);
  }

  void AsyncReset(const py::object& env_ids, const py::object& seeds) override {
    CheckProcess();
    std::vector<std::int32_t> ids = ParseIds(env_ids);
    std::vector<std::optional<std::uint64_t>> seed_list = SeedsFrom(seeds, ids);
    WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      pool_->SendReset(ids, seed_list);
      return true;
    });
  }

  // A copy of the last observation returned for each env in env_ids (all
  // when None): the arrays handed to Python may have been written to since.
  py::object LatestObs(const py::object& env_ids) override {
    CheckProcess();
    return views_.LatestObs(ParseIds(env_ids));
  }

  // (n, *RenderShape) uint8 frames of the envs in env_ids (all when None).
  py::array Render(const py::object& env_ids) override {
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
  std::vector<std::string> RenderAnsi(const py::object& env_ids) override {
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

  // The saved state of each env in env_ids (all when None), as bytes.
  py::list GetState(const py::object& env_ids) override {
    CheckProcess();
    if constexpr (StateSavable<E>) {
      std::vector<std::int32_t> ids = ParseIds(env_ids);
      std::vector<std::string> states = WithoutGil([&] {
        std::lock_guard lock(call_mutex_);
        return pool_->SaveStates(ids);
      });
      py::list out;
      for (const std::string& state : states) {
        out.append(py::bytes(state));
      }
      return out;
    } else {
      static_cast<void>(env_ids);
      PyErr_SetString(PyExc_NotImplementedError,
                      "this env cannot save its state");
      throw py::error_already_set();
    }
  }

  // Restores the envs in env_ids (all when None) to `states` (bytes from
  // GetState); returns their observations, one row per env.
  py::array SetState(const py::object& states,
                     const py::object& env_ids) override {
    CheckProcess();
    if constexpr (StateSavable<E>) {
      std::vector<std::int32_t> ids = ParseIds(env_ids);
      if (!py::isinstance<py::sequence>(states) ||
          py::isinstance<py::str>(states) ||
          py::isinstance<py::bytes>(states)) {
        throw py::type_error(
            "set_state() takes a list of states (bytes from get_state()), "
            "one per env");
      }
      std::vector<std::string> held;
      for (const py::handle state : states) {
        if (!py::isinstance<py::bytes>(state)) {
          throw py::type_error(
              "set_state() takes bytes from get_state(), got " +
              std::string(py::str(state.get_type())));
        }
        held.push_back(state.cast<std::string>());
      }
      std::vector<std::string_view> views(held.begin(), held.end());
      const ArraySpec& obs = pool_->spec().obs;
      std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(ids.size())};
      if (obs.IsDict()) {
        shape.push_back(static_cast<py::ssize_t>(obs.NumBytes()));
      } else {
        shape.insert(shape.end(), obs.shape.begin(), obs.shape.end());
      }
      py::array out(py::dtype(std::string(
                        DTypeName(obs.IsDict() ? DType::kUInt8 : obs.dtype))),
                    shape);
      auto* data = static_cast<std::byte*>(out.mutable_data());
      WithoutGil([&] {
        std::lock_guard lock(call_mutex_);
        pool_->LoadStates(ids, views, data);
        return true;
      });
      return out;
    } else {
      static_cast<void>(states);
      static_cast<void>(env_ids);
      PyErr_SetString(PyExc_NotImplementedError,
                      "this env cannot restore a state");
      throw py::error_already_set();
    }
  }

  void Close() override {
    if (Forked()) {
      return;
    }
    WithoutGil([&] {
      std::lock_guard lock(call_mutex_);
      pool_->Close();
      return true;
    });
  }

  bool closed() const override { return Forked() || pool_->closed(); }

  int num_threads() const override { return pool_->options().num_threads; }

  py::dict resolved_options() const override {
    return ResolvedPoolOptions(pool_->options());
  }

  std::vector<std::uint64_t> seeds() const override {
    std::lock_guard lock(call_mutex_);
    return pool_->seeds();
  }

  bool shares_workers() const override { return pool_->shares_workers(); }

  int num_pending() const override { return pool_->num_pending(); }

  // The address of this pool's xla::Bridge, made on first use (and never
  // freed, see xla_bridge.h).
  std::uintptr_t XlaBridge() override {
    CheckProcess();
    if (xla_bridge_ == nullptr) {
      xla_slots_ =
          xla::OutputSlots(BatchLayout(pool_->spec(), 1, views_.with_final()));
      xla_bridge_ = new xla::Bridge;  // NOLINT(cppcoreguidelines-owning-memory)
      xla_bridge_->owner = this;
      xla_bridge_->send = &PyEnvPool::XlaSend;
      xla_bridge_->recv = &PyEnvPool::XlaRecv;
    }
    return reinterpret_cast<std::uintptr_t>(xla_bridge_);
  }

  // (name, dtype, per-env shape) of each output of an XLA recv.
  py::list XlaOutputs() const override {
    py::list out;
    for (const xla::OutputSlot& slot :
         xla::OutputSlots(BatchLayout(pool_->spec(), 1, views_.with_final()))) {
      out.append(py::make_tuple(slot.name, std::string(DTypeName(slot.dtype)),
                                py::tuple(py::cast(slot.shape))));
    }
    return out;
  }

 private:
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
    if (env_ids.is_none() && !actions.is_none() && !pool_->is_sync()) {
      const std::size_t rows = py::len(actions);
      if (rows != static_cast<std::size_t>(pool_->num_envs())) {
        throw py::value_error(
            "in async mode (batch_size < num_envs) pass env_id: the "
            "info['env_id'] of the batch these actions are for");
      }
    }
    return EnvIdsFrom(env_ids, all_ids_);
  }

  // The pool for env options `options`: num_envs is checked there, by
  // ResolvePoolOptions, once MakeConfigs has checked the per-env options.
  static std::unique_ptr<Pool> MakePool(const py::dict& options,
                                        PoolOptions pool_options) {
    std::vector<Config> configs =
        MakeConfigs(E::DefaultConfig(), options, pool_options.num_envs);
    return WithoutGil([&] {
      return std::make_unique<Pool>(std::move(configs),
                                    std::move(pool_options));
    });
  }

  // The batch as Python's (obs, reward, terminated, truncated, info).
  py::tuple StepResult(Batch batch, bool with_final = true) {
    return views_.StepResult(std::move(batch), with_final);
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
      self->views_.KeepLatestObs(*batch.buffer, rows);
      batch.pool->Release(std::move(batch.buffer));
      return true;
    } catch (const std::exception& e) {
      *error = e.what();
    } catch (...) {
      *error = "unknown C++ exception";
    }
    return false;
  }

  int fork_generation_;
  std::unique_ptr<Pool> pool_;
  mutable std::mutex call_mutex_;
  BatchViews views_;
  std::vector<std::int32_t> all_ids_;
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

// Exposes each env type Es to Python as the class of the same place in
// `names`: a family module's one registration call.
template <typename... Es, typename... Names>
void RegisterEnvs(py::module_& m, const Names&... names) {
  static_assert(sizeof...(Es) == sizeof...(Names),
                "RegisterEnvs takes one class name per env type");
  (RegisterEnv<Es>(m, names), ...);
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_ENV_POOL_H_