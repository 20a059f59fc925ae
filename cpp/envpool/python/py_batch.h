// A pool's batches as Python sees them: the (obs, reward, terminated,
// truncated, info) tuple of arrays that view a batch's memory without a copy,
// and the copy of each env's last observation that latest_obs() returns.
#ifndef ENVPOOL_PYTHON_PY_BATCH_H_
#define ENVPOOL_PYTHON_PY_BATCH_H_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "envpool/core/array_spec.h"
#include "envpool/core/batch.h"
#include "envpool/core/dtype.h"

namespace envpool::python {

namespace py = pybind11;

// Hidden like pybind11's own types, which it holds: a module built without
// -fvisibility=hidden then compiles without warnings.
class [[gnu::visibility("hidden")]] BatchViews {
 public:
  // The batches of a pool of `num_envs` envs of `spec`, with the final
  // fields of same-step autoreset when `with_final`. Needs the GIL.
  BatchViews(const EnvSpec& spec, bool with_final, std::size_t num_envs)
      : with_final_(with_final) {
    BatchLayout layout(spec, 1, with_final_);
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
    obs_row_bytes_ = layout.field(kObsField).row_bytes;
    obs_spec_ = layout.field(kObsField).spec;
    latest_obs_.resize(obs_row_bytes_ * num_envs);
  }

  bool with_final() const { return with_final_; }

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
      if (obs_spec_.is_text) {
        return Texts(raw->Row(field, 0), n, obs_spec_.NumBytes());
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

  // A copy of the last observation returned for each env in `ids`: the
  // arrays handed to Python may have been written to since.
  py::object LatestObs(const std::vector<std::int32_t>& ids) const {
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
    if (obs_spec_.is_text) {
      return Texts(static_cast<const std::byte*>(out.data()),
                   static_cast<py::ssize_t>(ids.size()), obs_spec_.NumBytes());
    }
    return out;
  }

  // Copies the observations of the first `rows` rows of `buffer`, for
  // LatestObs().
  void KeepLatestObs(const BatchBuffer& buffer, std::size_t rows) {
    for (std::size_t row = 0; row < rows; ++row) {
      const auto env =
          static_cast<std::size_t>(buffer.At<std::int32_t>(kEnvIdField, row));
      std::memcpy(latest_obs_.data() + env * obs_row_bytes_,
                  buffer.Row(kObsField, row), obs_row_bytes_);
    }
  }

 private:
  // The arrays of a dict observation whose rows are packed at `rows` (one
  // row of obs_row_bytes_ per env): strided views that keep `owner` alive,
  // in the spec's key order. A key named "outer/inner" is the `inner` key of
  // a nested dict `outer` (gymnasium's Dict of Dicts).
  py::dict DictViews(const std::byte* rows, py::ssize_t n,
                     const py::handle& owner) const {
    py::dict out;
    for (const ArraySpec& key : obs_spec_.keys) {
      py::dict where = out;
      std::string name = key.name;
      if (const auto slash = name.find('/'); slash != std::string::npos) {
        const py::str outer(name.substr(0, slash));
        if (!out.contains(outer)) {
          out[outer] = py::dict();
        }
        where = out[outer].cast<py::dict>();
        name = name.substr(slash + 1);
      }
      if (key.is_text) {
        where[py::str(name)] = Texts(rows + key.offset, n, key.NumBytes());
        continue;
      }
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
      where[py::str(name)] = py::array(
          py::dtype(std::string(DTypeName(key.dtype))), shape, strides,
          static_cast<const void*>(rows + key.offset), owner);
    }
    return out;
  }

  // The texts (MakeText) at `first` and every obs_row_bytes_ after it, one
  // per env: a tuple of str, as gymnasium's vector envs batch a Text space.
  // Each runs to its first NUL or to `max_length` bytes.
  py::tuple Texts(const std::byte* first, py::ssize_t n,
                  std::size_t max_length) const {
    py::tuple out(n);
    for (py::ssize_t i = 0; i < n; ++i) {
      const char* chars = reinterpret_cast<const char*>(
          first + static_cast<std::size_t>(i) * obs_row_bytes_);
      out[i] = py::str(chars, strnlen(chars, max_length));
    }
    return out;
  }

  bool with_final_ = false;
  std::size_t num_info_ = 0;
  std::size_t final_obs_ = 0;
  std::size_t final_mask_ = 0;
  std::vector<py::dtype> dtypes_;
  std::vector<py::str> names_;
  std::vector<std::vector<py::ssize_t>> shapes_;
  std::size_t obs_row_bytes_ = 0;
  ArraySpec obs_spec_;                 // with keys for a dict observation
  std::vector<std::byte> latest_obs_;  // the last observation of each env
};

}  // namespace envpool::python

#endif  // ENVPOOL_PYTHON_PY_BATCH_H_
