// A pool's options and the one place their defaults are resolved and their
// ranges checked. The Python side (envpool/pool_options.py) declares each
// option once (name, type, default, check, doc) and reads the resolved values
// back from here, so a rule such as "batch_size defaults to num_envs" or "env
// i gets seed + i" exists once.
#ifndef ENVPOOL_CORE_POOL_OPTIONS_H_
#define ENVPOOL_CORE_POOL_OPTIONS_H_

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "envpool/core/placement.h"
#include "envpool/core/worker_group.h"

namespace envpool {

enum class AutoresetMode { kNextStep, kSameStep, kDisabled };

struct PoolOptions {
  int num_envs = 1;
  int batch_size = 0;   // 0: num_envs
  int num_threads = 0;  // 0: min(num_envs, CPUs the pool may use)
  std::uint64_t seed = 0;
  int max_episode_steps = 0;  // 0: no time limit
  AutoresetMode autoreset_mode = AutoresetMode::kNextStep;
  int thread_affinity_offset = -1;  // < 0: no pinning
  // CPUs the pool's own threads (and the threads building its envs) may run
  // on, and the NUMA node of its batch memory; see Placement.
  std::vector<int> cpus;
  int memory_node = -1;
  // Set: the pool's envs run on this group's threads, shared with other
  // pools, instead of threads of its own (num_threads then counts the group's
  // threads and the caller's).
  std::shared_ptr<WorkerGroup> worker_group;
  // A sync round expected to take less than this runs on the calling thread
  // alone: handing chunks to another core costs about a microsecond. 0 always
  // shares rounds with the workers.
  double solo_round_ns = 5000.0;
};

// The most envs a pool holds (the engine's round ticket has 20 bits of chunks).
inline constexpr int kMaxPoolEnvs = (1 << 20) - 1;

// The seed of env `env_id` of a pool (or a reset) seeded `seed`.
inline std::uint64_t EnvSeed(std::uint64_t seed, std::int64_t env_id) {
  return seed + static_cast<std::uint64_t>(env_id);
}

// Where a pool's own threads run and its batch memory lives (a shared worker
// group's threads are placed by the group).
inline Placement PlacementOf(const PoolOptions& options) {
  Placement placement;
  placement.cpus = options.cpus;
  placement.affinity_offset = options.thread_affinity_offset;
  placement.memory_node = options.memory_node;
  return placement;
}

// Checks `options` and fills in the defaults: batch_size 0 is num_envs;
// num_threads 0 is one per usable CPU (of `cpus` when given), at most
// num_envs; with a worker group, the group's threads and, in sync mode, the
// caller's.
inline void ResolvePoolOptions(PoolOptions& options) {
  if (options.num_envs < 1 || options.num_envs > kMaxPoolEnvs) {
    throw std::invalid_argument("num_envs must be in [1, " +
                                std::to_string(kMaxPoolEnvs) + "], got " +
                                std::to_string(options.num_envs));
  }
  if (options.batch_size == 0) {
    options.batch_size = options.num_envs;
  }
  if (options.batch_size < 1 || options.batch_size > options.num_envs) {
    throw std::invalid_argument("batch_size must be in [1, num_envs=" +
                                std::to_string(options.num_envs) + "], got " +
                                std::to_string(options.batch_size));
  }
  if (options.num_threads < 0) {
    throw std::invalid_argument(
        "num_threads must be >= 0 (0 picks one per "
        "core), got " +
        std::to_string(options.num_threads));
  }
  if (options.worker_group != nullptr) {
    options.num_threads = options.worker_group->num_threads() +
                          (options.batch_size == options.num_envs ? 1 : 0);
  } else {
    if (options.num_threads == 0) {
      options.num_threads = options.cpus.empty()
                                ? UsableCpuCount()
                                : static_cast<int>(options.cpus.size());
    }
    options.num_threads = std::min(options.num_threads, options.num_envs);
  }
  if (options.max_episode_steps < 0) {
    throw std::invalid_argument(
        "max_episode_steps must be >= 0 (0 means no limit), got " +
        std::to_string(options.max_episode_steps));
  }
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_POOL_OPTIONS_H_
