// What Python calls on a pool of any env type: the methods of PyEnvPool<E>
// (py_env_pool.h) as virtual functions of one base class, bound to Python
// once per extension module as the class `_Pool`. Each env class derives from
// it and binds only what is its own (constructor, options, spec).
//
// Binding these twenty methods for every env type cost a family module about
// 2.6 s of compile time per env class at -O3 (pybind11 instantiates a caster
// and a dispatcher per method and class); bound once, a module with 30 env
// classes builds in half the time.
#ifndef ENVPOOL_PYTHON_PY_POOL_H_
#define ENVPOOL_PYTHON_PY_POOL_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "envpool/python/py_call.h"

namespace envpool::python {

namespace py = pybind11;

class PyPool {
 public:
  PyPool() = default;
  PyPool(const PyPool&) = delete;
  PyPool& operator=(const PyPool&) = delete;
  PyPool(PyPool&&) = delete;
  PyPool& operator=(PyPool&&) = delete;
  virtual ~PyPool() = default;

  virtual py::tuple Step(const py::object& actions,
                         const py::object& env_ids) = 0;
  virtual void Send(const py::object& actions, const py::object& env_ids) = 0;
  virtual py::tuple Recv() = 0;
  virtual py::tuple Reset(const py::object& env_ids,
                          const py::object& seeds) = 0;
  virtual void AsyncReset(const py::object& env_ids,
                          const py::object& seeds) = 0;
  virtual py::array Render(const py::object& env_ids) = 0;
  virtual py::object LatestObs(const py::object& env_ids) = 0;
  virtual std::vector<std::string> RenderAnsi(const py::object& env_ids) = 0;
  virtual py::list GetState(const py::object& env_ids) = 0;
  virtual py::array SetState(const py::object& states,
                             const py::object& env_ids) = 0;
  virtual void Close() = 0;
  [[nodiscard]] virtual bool closed() const = 0;
  [[nodiscard]] virtual int num_threads() const = 0;
  [[nodiscard]] virtual py::dict resolved_options() const = 0;
  [[nodiscard]] virtual std::vector<std::uint64_t> seeds() const = 0;
  [[nodiscard]] virtual bool shares_workers() const = 0;
  [[nodiscard]] virtual int num_pending() const = 0;
  virtual std::uintptr_t XlaBridge() = 0;
  [[nodiscard]] virtual py::list XlaOutputs() const = 0;
};

// Binds PyPool into `m` as `_Pool`, unless this extension module has bound it
// already (module-local: every extension module has its own).
inline void BindPoolMethods(py::module_& m) {
  if (py::detail::get_local_type_info(typeid(PyPool)) != nullptr) {
    return;
  }
  py::class_<PyPool>(m, "_Pool", py::module_local())
      .def("step", &PyPool::Step, py::arg("actions"),
           py::arg("env_ids") = py::none())
      .def("send", &PyPool::Send, py::arg("actions"),
           py::arg("env_ids") = py::none())
      .def("recv", &PyPool::Recv)
      .def("reset", &PyPool::Reset, py::arg("env_ids") = py::none(),
           py::arg("seeds") = py::none())
      .def("async_reset", &PyPool::AsyncReset, py::arg("env_ids") = py::none(),
           py::arg("seeds") = py::none())
      .def("render", &PyPool::Render, py::arg("env_ids") = py::none())
      .def("latest_obs", &PyPool::LatestObs, py::arg("env_ids") = py::none())
      .def("render_ansi", &PyPool::RenderAnsi, py::arg("env_ids") = py::none())
      .def("get_state", &PyPool::GetState, py::arg("env_ids") = py::none())
      .def("set_state", &PyPool::SetState, py::arg("states"),
           py::arg("env_ids") = py::none())
      .def("close", &PyPool::Close)
      .def_property_readonly("closed", &PyPool::closed)
      .def_property_readonly("num_threads", &PyPool::num_threads)
      .def_property_readonly("resolved_options", &PyPool::resolved_options)
      .def_property_readonly("seeds", &PyPool::seeds)
      .def_property_readonly("shares_workers", &PyPool::shares_workers)
      .def_property_readonly("num_pending", &PyPool::num_pending)
      .def("_xla_bridge", &PyPool::XlaBridge)
      .def("_xla_outputs", &PyPool::XlaOutputs);
  py::register_local_exception_translator(TranslateErrors);
}

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_POOL_H_
