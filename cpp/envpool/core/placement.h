// Where a pool's threads run and where its batch memory lives: CPU affinity
// and NUMA memory binding, through the kernel's own calls (no libnuma).
#ifndef ENVPOOL_CORE_PLACEMENT_H_
#define ENVPOOL_CORE_PLACEMENT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace envpool {

struct Placement {
  // CPUs the threads may run on; empty: every CPU.
  std::vector<int> cpus;
  // >= 0: worker i runs on one CPU only, the (offset + i)-th of `cpus` (or of
  // all CPUs when `cpus` is empty), as the original EnvPool pins.
  int affinity_offset = -1;
  // >= 0: batch memory is bound to this NUMA node.
  int memory_node = -1;

  bool pins() const { return affinity_offset >= 0 || !cpus.empty(); }
};

// CPUs this process may run on (its affinity mask), at least 1.
inline int UsableCpuCount() {
#if defined(__linux__)
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
    return std::max(1, CPU_COUNT(&mask));
  }
#endif
  return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

// Restricts `thread` to the CPUs `placement` gives its `index`-th worker.
// Affinity is advice: a CPU the process may not use is left to the kernel.
inline void PinThread(std::thread& thread, const Placement& placement,
                      int index) {
#if defined(__linux__)
  if (!placement.pins()) {
    return;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  const auto in_range = [](int cpu) { return cpu >= 0 && cpu < CPU_SETSIZE; };
  if (placement.affinity_offset >= 0) {
    const std::size_t slot =
        static_cast<std::size_t>(placement.affinity_offset) +
        static_cast<std::size_t>(index);
    int cpu = 0;
    if (placement.cpus.empty()) {
      const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
      cpu = static_cast<int>(slot % cores);
    } else {
      cpu = placement.cpus[slot % placement.cpus.size()];
    }
    if (!in_range(cpu)) {
      return;
    }
    CPU_SET(cpu, &set);
  } else {
    for (const int cpu : placement.cpus) {
      if (in_range(cpu)) {
        CPU_SET(cpu, &set);
      }
    }
  }
  pthread_setaffinity_np(thread.native_handle(), sizeof(set), &set);
#else
  (void)thread;
  (void)placement;
  (void)index;
#endif
}

// Asks the kernel to keep the pages of [data, data + bytes) on NUMA node
// `node`, moving those already touched. Returns false where it cannot (no
// such node, no NUMA support, not Linux); the memory stays usable either way.
inline bool BindMemoryToNode(void* data, std::size_t bytes, int node) {
#if defined(__linux__) && defined(SYS_mbind)
  if (node < 0 || node >= 1024 || bytes == 0) {
    return false;
  }
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto begin = reinterpret_cast<std::uintptr_t>(data) / page * page;
  const auto end =
      (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) / page * page;
  constexpr std::size_t kBits =
      8 * sizeof(unsigned long);                     // NOLINT(runtime/int)
  std::vector<unsigned long> mask(1024 / kBits, 0);  // NOLINT(runtime/int)
  mask[static_cast<std::size_t>(node) / kBits] |=
      1UL << (static_cast<std::size_t>(node) % kBits);
  constexpr int kMpolPreferred = 1;
  constexpr unsigned kMpolMfMove = 1U << 1;
  // Preferred rather than bound: a full node spills instead of failing.
  return syscall(SYS_mbind, begin, end - begin, kMpolPreferred, mask.data(),
                 mask.size() * kBits, kMpolMfMove) == 0;
#else
  (void)data;
  (void)bytes;
  (void)node;
  return false;
#endif
}

// Memory of its own pages for `bytes`, bound to NUMA node `node` before
// anything touches it, or null where that cannot be done (the caller then
// allocates as usual). Its own mapping keeps the binding from reaching other
// allocations that would share heap pages with it. Free with FreeOnNode.
inline void* AllocateOnNode(std::size_t bytes, int node) {
#if defined(__linux__)
  if (node < 0 || bytes == 0) {
    return nullptr;
  }
  void* data = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) {
    return nullptr;
  }
  BindMemoryToNode(data, bytes, node);  // a preference: failure is harmless
  return data;
#else
  (void)bytes;
  (void)node;
  return nullptr;
#endif
}

inline void FreeOnNode(void* data, std::size_t bytes) {
#if defined(__linux__)
  munmap(data, bytes);
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace envpool

#endif  // ENVPOOL_CORE_PLACEMENT_H_
