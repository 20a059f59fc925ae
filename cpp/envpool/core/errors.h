// Exceptions the engine raises; the Python binding maps each to its own
// Python exception type.
#ifndef ENVPOOL_CORE_ERRORS_H_
#define ENVPOOL_CORE_ERRORS_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace envpool {

// A call made in the wrong state: recv() with nothing in flight, a call after
// close(), sending an env whose result is still out.
class CallOrderError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// An exception thrown inside an env's Reset or Step. The batch it belonged
// to is dropped: dropped_env_ids() lists that batch's envs, which are free to
// be sent again.
class EnvError : public std::runtime_error {
 public:
  EnvError(int env_id, const std::string& message,
           std::vector<std::int32_t> dropped_env_ids = {})
      : std::runtime_error("env " + std::to_string(env_id) + ": " + message),
        env_id_(env_id),
        message_(message),
        dropped_env_ids_(std::move(dropped_env_ids)) {}
  int env_id() const { return env_id_; }
  const std::string& env_message() const { return message_; }
  const std::vector<std::int32_t>& dropped_env_ids() const {
    return dropped_env_ids_;
  }

 private:
  int env_id_;
  std::string message_;
  std::vector<std::int32_t> dropped_env_ids_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ERRORS_H_
