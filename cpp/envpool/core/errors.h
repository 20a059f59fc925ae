// Exceptions the engine raises; the Python binding maps each to its own
// Python exception type.
#ifndef ENVPOOL_CORE_ERRORS_H_
#define ENVPOOL_CORE_ERRORS_H_

#include <stdexcept>
#include <string>

namespace envpool {

// A call made in the wrong state: recv() with nothing in flight, a call after
// close(), sending an env whose result is still out.
class CallOrderError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// An exception thrown inside an env's Reset or Step.
class EnvError : public std::runtime_error {
 public:
  EnvError(int env_id, const std::string& message)
      : std::runtime_error("env " + std::to_string(env_id) + ": " + message),
        env_id_(env_id),
        message_(message) {}
  int env_id() const { return env_id_; }
  const std::string& env_message() const { return message_; }

 private:
  int env_id_;
  std::string message_;
};

}  // namespace envpool

#endif  // ENVPOOL_CORE_ERRORS_H_
