// procgen's game library (libenv.so from procgen's wheel, which
// envpool/procgen_runtime.py fetches), loaded once per process and path.
#ifndef ENVPOOL_PROCGEN_GAME_LIBRARY_H_
#define ENVPOOL_PROCGEN_GAME_LIBRARY_H_

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "envpool/procgen/libenv_abi.h"

namespace envpool::procgen {

class GameLibrary {
 public:
  abi::MakeFn make = nullptr;
  abi::GetTensorTypesFn get_tensortypes = nullptr;
  abi::SetBuffersFn set_buffers = nullptr;
  abi::ObserveFn observe = nullptr;
  abi::ActFn act = nullptr;
  abi::CloseFn close = nullptr;
  abi::GetStateFn get_state = nullptr;
  abi::SetStateFn set_state = nullptr;

  // The library at `path`, loaded on first use. It is never unloaded: it
  // keeps process-wide state (its images, loaded by the first make).
  static const GameLibrary& At(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<GameLibrary>> loaded;
    std::lock_guard lock(mutex);
    auto& library = loaded[path];
    if (library == nullptr) {
      library.reset(
          new GameLibrary(path));  // NOLINT(cppcoreguidelines-owning-memory)
    }
    return *library;
  }

 private:
  explicit GameLibrary(const std::string& path) {
    if (path.empty()) {
      throw std::invalid_argument(
          "the option 'library' is empty: it is the path of procgen's "
          "libenv.so, which envpool.procgen_runtime.library() supplies");
    }
    // RTLD_LOCAL: the Qt linked into the library stays out of the process's
    // symbol table, beside any other Qt the process has loaded.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      // At() holds its mutex: no other dlopen of ours runs meanwhile.
      const char* why = dlerror();  // NOLINT(concurrency-mt-unsafe)
      throw std::runtime_error(
          "cannot load procgen's game library " + path + ": " +
          (why != nullptr ? why : "unknown error") +
          "; delete the folder it is in to have envpool unpack it again");
    }
    const auto version = Symbol<abi::VersionFn>(handle, path, "libenv_version");
    if (version() != abi::kVersion) {
      throw std::runtime_error(path + " speaks libenv version " +
                               std::to_string(version()) + ", not " +
                               std::to_string(abi::kVersion));
    }
    make = Symbol<abi::MakeFn>(handle, path, "libenv_make");
    get_tensortypes =
        Symbol<abi::GetTensorTypesFn>(handle, path, "libenv_get_tensortypes");
    set_buffers = Symbol<abi::SetBuffersFn>(handle, path, "libenv_set_buffers");
    observe = Symbol<abi::ObserveFn>(handle, path, "libenv_observe");
    act = Symbol<abi::ActFn>(handle, path, "libenv_act");
    close = Symbol<abi::CloseFn>(handle, path, "libenv_close");
    get_state = Symbol<abi::GetStateFn>(handle, path, "get_state");
    set_state = Symbol<abi::SetStateFn>(handle, path, "set_state");
  }

  template <typename Fn>
  static Fn Symbol(void* handle, const std::string& path, const char* name) {
    void* found = dlsym(handle, name);
    if (found == nullptr) {
      throw std::runtime_error(path + " has no function " + name +
                               ": it is not procgen's game library");
    }
    return reinterpret_cast<Fn>(found);  // NOLINT
  }
};

}  // namespace envpool::procgen

#endif  // ENVPOOL_PROCGEN_GAME_LIBRARY_H_
