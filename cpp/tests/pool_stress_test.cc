// Stress tests of the engine's queues, rounds and batch ring, run plain and
// under ThreadSanitizer and AddressSanitizer + UBSan from .ci/run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "counting_env.h"
#include "envpool/core/env_pool.h"
#include "fault_env.h"

namespace envpool::testing {
namespace {

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                  \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

using Pool = EnvPool<CountingEnv>;

Config MakeConfig(int episode_length, int throw_at = -1, int sleep_us = 0) {
  Config config = CountingEnv::DefaultConfig();
  config.Set("episode_length", std::int64_t{episode_length});
  config.Set("throw_at_step", std::int64_t{throw_at});
  config.Set("max_sleep_us", std::int64_t{sleep_us});
  return config;
}

PoolOptions Options(int num_envs, int batch_size, int num_threads,
                    AutoresetMode mode = AutoresetMode::kNextStep) {
  PoolOptions options;
  options.num_envs = num_envs;
  options.batch_size = batch_size;
  options.num_threads = num_threads;
  options.seed = 42;
  options.max_episode_steps = 9;
  options.autoreset_mode = mode;
  options.solo_round_ns = 0;  // share every round, to exercise the hand-off
  return options;
}

std::vector<std::int32_t> AllIds(int n) {
  std::vector<std::int32_t> ids(n);
  for (int i = 0; i < n; ++i) {
    ids[i] = i;
  }
  return ids;
}

std::int64_t ActionFor(int env_id, int t) { return (env_id * 7 + t) % 4; }

// Sets action(id) for every env in ids, sends them and receives the batch.
template <typename P, typename ActionOf>
Batch StepAll(P& pool, const std::vector<std::int32_t>& ids, ActionOf action) {
  for (int id : ids) {
    *pool.action_row(id) = action(id);
  }
  pool.Send(ids);
  return pool.Recv();
}

// One env's results, as (obs[0..2], reward, terminated, truncated, elapsed).
using Trace = std::vector<std::vector<std::int64_t>>;

void Record(const Batch& batch, std::map<int, Trace>& traces) {
  for (std::size_t row = 0; row < batch.size; ++row) {
    const BatchBuffer& b = *batch.buffer;
    const auto* obs = reinterpret_cast<const std::int64_t*>(b.Row(0, row));
    const int id = b.At<std::int32_t>(kEnvIdField, row);
    traces[id].push_back(
        {obs[0], obs[1], obs[2],
         static_cast<std::int64_t>(b.At<double>(kRewardField, row)),
         b.At<bool>(kTerminatedField, row), b.At<bool>(kTruncatedField, row),
         b.At<std::int32_t>(kElapsedStepField, row)});
  }
}

std::map<int, Trace> RunSync(int num_threads, int steps,
                             std::shared_ptr<WorkerGroup> group = nullptr) {
  PoolOptions options = Options(16, 0, num_threads);
  options.worker_group = std::move(group);
  Pool pool({MakeConfig(6)}, options);
  std::map<int, Trace> traces;
  const auto ids = AllIds(16);
  Record(pool.Reset(ids, {}), traces);
  for (int t = 0; t < steps; ++t) {
    Record(StepAll(pool, ids,
                   [&](int id) {
                     return ActionFor(id, static_cast<int>(traces[id].size()));
                   }),
           traces);
  }
  return traces;
}

void TestSyncDeterministicAcrossThreads() {
  const auto one = RunSync(1, 300);
  CHECK(RunSync(2, 300) == one);
  CHECK(RunSync(4, 300) == one);
  // Episodes: terminated at step 6, before the time limit of 9.
  const Trace& t0 = one.at(0);
  CHECK(t0[0][6] == 0);  // reset result has elapsed 0
  CHECK(t0[6][4] == 1 && t0[6][6] == 6);
  CHECK(t0[7][6] == 0 && t0[7][3] == 0);  // next-step autoreset
}

std::map<int, Trace> RunAsync(int num_threads, int batch_size, int recvs,
                              std::shared_ptr<WorkerGroup> group = nullptr) {
  PoolOptions options = Options(16, batch_size, num_threads);
  options.worker_group = std::move(group);
  Pool pool({MakeConfig(6, -1, 30)}, options);
  std::map<int, Trace> traces;
  pool.SendReset(AllIds(16));
  for (int r = 0; r < recvs; ++r) {
    Batch batch = pool.Recv();
    CHECK(batch.size == static_cast<std::size_t>(batch_size));
    Record(batch, traces);
    std::vector<std::int32_t> ids(batch.size);
    for (std::size_t row = 0; row < batch.size; ++row) {
      ids[row] = batch.buffer->At<std::int32_t>(kEnvIdField, row);
    }
    for (int id : ids) {
      *pool.action_row(id) = ActionFor(id, static_cast<int>(traces[id].size()));
    }
    pool.Send(ids);
  }
  return traces;
}

// Whatever order envs finish in, each env's own trajectory is the same.
void TestAsyncMatchesSync() {
  const auto sync = RunSync(1, 200);
  for (int threads : {1, 3}) {
    for (int batch : {1, 4, 7}) {
      const auto async = RunAsync(threads, batch, 150);
      for (const auto& [id, trace] : async) {
        const Trace& expected = sync.at(id);
        CHECK(trace.size() <= expected.size());
        for (std::size_t i = 0; i < trace.size(); ++i) {
          CHECK(trace[i] == expected[i]);
        }
      }
    }
  }
}

void TestSubsetsComeBackInOrder() {
  Pool pool({MakeConfig(100)}, Options(32, 0, 3));
  std::mt19937 gen(1);
  pool.Reset(AllIds(32), {});
  std::vector<int> steps(32, 0);
  for (int t = 0; t < 500; ++t) {
    std::vector<std::int32_t> ids = AllIds(32);
    std::shuffle(ids.begin(), ids.end(), gen);
    ids.resize(1 + gen() % 32);
    for (int id : ids) {
      *pool.action_row(id) = 1;
    }
    pool.Send(ids);
    Batch batch = pool.Recv();
    CHECK(batch.size == ids.size());
    for (std::size_t row = 0; row < ids.size(); ++row) {
      const int id = ids[row];
      CHECK(batch.buffer->At<std::int32_t>(kEnvIdField, row) == id);
      steps[id] = steps[id] == 9 ? 0 : steps[id] + 1;  // time limit 9
      CHECK(batch.buffer->At<std::int32_t>(kElapsedStepField, row) ==
            steps[id]);
    }
  }
}

void TestEnvErrorSurfacesAndPoolRecovers() {
  for (int batch_size : {0, 2}) {
    Pool pool({MakeConfig(100, 3)}, Options(4, batch_size, 2));
    const auto ids = AllIds(4);
    pool.Reset(ids, {});
    int errors = 0;
    for (int t = 0; t < 6; ++t) {
      if (batch_size == 0) {
        pool.Send(ids);
        try {
          pool.Recv();
        } catch (const EnvError& e) {
          ++errors;
          CHECK(e.env_id() >= 0 && e.env_id() < 4);
          CHECK(std::string(e.what()).find("injected failure") !=
                std::string::npos);
        }
      } else {
        pool.Send(ids);
        for (int r = 0; r < 2; ++r) {
          try {
            pool.Recv();
          } catch (const EnvError&) {
            ++errors;
          }
        }
      }
    }
    CHECK(errors > 0);
    CHECK(pool.num_pending() == 0);
  }
}

void TestBadCallsThrowAndChangeNothing() {
  Pool pool({MakeConfig(5)}, Options(8, 4, 2));
  bool threw = false;
  try {
    pool.Recv();
  } catch (const CallOrderError&) {
    threw = true;
  }
  CHECK(threw);
  const std::vector<std::int32_t> ids{1, 2, 3, 4};
  pool.SendReset(ids);
  threw = false;
  try {
    pool.Send(std::vector<std::int32_t>{4});
  } catch (const CallOrderError&) {
    threw = true;
  }
  CHECK(threw);
  threw = false;
  try {
    pool.Send(std::vector<std::int32_t>{5, 5});
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(pool.num_pending() == 4);
  CHECK(pool.Recv().size == 4);
  // A blocking reset drops whatever is still in flight.
  pool.SendReset(std::vector<std::int32_t>{0, 5});
  CHECK(pool.Reset(AllIds(8), {}).size == 8);
  CHECK(pool.num_pending() == 0);
}

void TestSameStepKeepsFinalObservation() {
  Pool pool({MakeConfig(3)}, Options(4, 0, 2, AutoresetMode::kSameStep));
  const auto ids = AllIds(4);
  pool.Reset(ids, {});
  for (int t = 1; t <= 3; ++t) {
    Batch batch = StepAll(pool, ids, [](int) { return 2; });
    const BatchLayout& layout = *batch.buffer->layout;
    for (std::size_t row = 0; row < 4; ++row) {
      const bool ended = batch.buffer->At<bool>(layout.final_mask(), row);
      CHECK(ended == (t == 3));
      if (ended) {
        const auto* final_obs = reinterpret_cast<const std::int64_t*>(
            batch.buffer->Row(layout.final_obs(), row));
        const auto* obs = reinterpret_cast<const std::int64_t*>(
            batch.buffer->Row(kObsField, row));
        CHECK(final_obs[1] == 3 && final_obs[2] == 6);
        CHECK(obs[1] == 0);  // already reset
        CHECK(batch.buffer->At<bool>(kTerminatedField, row));
        CHECK(batch.buffer->At<double>(kRewardField, row) == 2.0);
      }
    }
  }
}

// Many fast hand-offs: sync rounds and async batches with no sleeps, where
// races between the caller and the workers would show.
void TestHammer() {
  {
    Pool pool({MakeConfig(7)}, Options(24, 0, 3));
    const auto ids = AllIds(24);
    pool.Reset(ids, {});
    for (int t = 0; t < 20000; ++t) {
      pool.Send(ids);
      Batch batch = pool.Recv();
      CHECK(batch.size == 24);
      CHECK(batch.buffer->At<std::int32_t>(kEnvIdField, 23) == 23);
      batch.pool->Release(std::move(batch.buffer));
    }
  }
  {
    Pool pool({MakeConfig(7)}, Options(24, 5, 3));
    pool.SendReset(AllIds(24));
    std::vector<int> last_elapsed(24, -1);
    for (int t = 0; t < 20000; ++t) {
      Batch batch = pool.Recv();
      std::vector<std::int32_t> ids;
      for (std::size_t row = 0; row < batch.size; ++row) {
        const int id = batch.buffer->At<std::int32_t>(kEnvIdField, row);
        const int elapsed =
            batch.buffer->At<std::int32_t>(kElapsedStepField, row);
        CHECK(elapsed == 0 || elapsed == last_elapsed[id] + 1);
        last_elapsed[id] = elapsed;
        ids.push_back(id);
      }
      batch.pool->Release(std::move(batch.buffer));
      pool.Send(ids);
    }
  }
}

// Small rounds of cheap envs run on the caller alone once their cost is
// known; the results are the same either way.
void TestSoloRoundsMatchSharedRounds() {
  auto run = [](double solo_round_ns) {
    PoolOptions options = Options(16, 0, 2);
    options.solo_round_ns = solo_round_ns;
    Pool pool({MakeConfig(6)}, options);
    std::map<int, Trace> traces;
    const auto ids = AllIds(16);
    Record(pool.Reset(ids, {}), traces);
    for (int t = 0; t < 100; ++t) {
      for (int id : ids) {
        *pool.action_row(id) =
            ActionFor(id, static_cast<int>(traces[id].size()));
      }
      pool.Send(ids);
      Record(pool.Recv(), traces);
    }
    return traces;
  };
  CHECK(run(1e9) == run(0));
}

void TestManyPoolsAndCloseWithWorkInFlight() {
  for (int i = 0; i < 200; ++i) {
    Pool pool({MakeConfig(5, -1, 200)}, Options(8, 2, 2));
    pool.SendReset(AllIds(8));
    if (i % 2 == 0) {
      pool.Close();
      pool.Close();
    }
  }
}

// Pools sharing one worker group, each stepped from its own thread, give
// each env the trajectory it has on threads of its own; pools come and go
// (some closed with work in flight) while the others run.
void TestSharedWorkerGroup() {
  const auto sync = RunSync(1, 120);
  const auto async = RunAsync(2, 4, 80);
  auto group = std::make_shared<WorkerGroup>(2, Placement{});
  for (int repeat = 0; repeat < 3; ++repeat) {
    std::vector<std::map<int, Trace>> sync_runs(2);
    std::vector<std::map<int, Trace>> async_runs(2);
    std::vector<std::thread> callers;
    for (int i = 0; i < 2; ++i) {
      callers.emplace_back([&, i] { sync_runs[i] = RunSync(0, 120, group); });
      callers.emplace_back(
          [&, i] { async_runs[i] = RunAsync(0, 4, 80, group); });
    }
    callers.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        PoolOptions options = Options(8, 2, 0);
        options.worker_group = group;
        Pool pool({MakeConfig(5, -1, 200)}, options);
        pool.SendReset(AllIds(8));
        if (i % 2 == 0) {
          pool.Close();
        }
      }
    });
    for (auto& caller : callers) {
      caller.join();
    }
    for (int i = 0; i < 2; ++i) {
      CHECK(sync_runs[i] == sync);
      for (const auto& [id, trace] : async_runs[i]) {
        const Trace& expected = sync.at(id);
        CHECK(std::equal(trace.begin(), trace.end(), expected.begin()));
      }
      CHECK(async_runs[i].size() == async.size());
    }
  }
  // The group outlives pools, and pools keep it alive: this pool is the
  // group's last owner when it is destroyed.
  PoolOptions options = Options(4, 0, 0);
  options.worker_group = std::move(group);
  Pool last({MakeConfig(6)}, options);
  CHECK(last.options().num_threads == 3);
  last.Reset(AllIds(4), {});
}

template <typename Exception, typename Fn>
bool Throws(Fn&& fn) {
  try {
    fn();
  } catch (const Exception&) {
    return true;
  }
  return false;
}

// A dict observation packs its keys in one row, 8-byte aligned; writing it
// the wrong way throws; same_step's final observation copies every key.
void TestDictObservations() {
  const EnvSpec spec = FaultDictEnv::Spec(FaultDictEnv::DefaultConfig());
  CHECK(spec.obs.IsDict() && spec.obs.keys.size() == 3);
  CHECK(spec.obs.keys[0].offset == 0 && spec.obs.keys[1].offset == 8 &&
        spec.obs.keys[2].offset == 16 && spec.obs.NumBytes() == 24);
  CHECK(Throws<std::invalid_argument>([] {
    MakeDict("obs", {MakeArray<float>("a", {}), MakeArray<float>("a", {2})});
  }));
  CHECK(Throws<std::invalid_argument>([] {
    MakeDict("obs", {MakeDict("inner", {MakeArray<float>("a", {})})});
  }));
  CHECK(Throws<std::invalid_argument>([] { MakeDict("obs", {}); }));

  BatchLayout layout(spec, 2, false);
  BatchBuffer buffer(layout);
  Output out(&buffer, 1);
  CHECK(Throws<std::logic_error>([&] { out.Obs<std::uint8_t>(); }));
  CHECK(Throws<std::logic_error>([&] { out.Obs<double>(); }));
  CHECK(Throws<std::out_of_range>([&] { out.Obs<double>(3); }));
  CHECK(Throws<std::logic_error>([&] { out.Obs<float>(0); }));  // a float64
  BatchLayout plain_layout(FaultEnv::Spec(FaultEnv::DefaultConfig()), 1, false);
  BatchBuffer plain_buffer(plain_layout);
  Output plain(&plain_buffer, 0);
  CHECK(Throws<std::logic_error>([&] { plain.Obs<double>(0); }));

  using DictPool = EnvPool<FaultDictEnv>;
  PoolOptions options = Options(3, 0, 2, AutoresetMode::kSameStep);
  Config config = FaultDictEnv::DefaultConfig();
  config.Set("episode_length", std::int64_t{2});
  DictPool pool({config}, options);
  const auto ids = AllIds(3);
  pool.Reset(ids, {});
  for (int t = 1; t <= 2; ++t) {
    Batch batch = StepAll(pool, ids, [](int id) { return id; });
    const BatchLayout& l = *batch.buffer->layout;
    for (std::size_t row = 0; row < 3; ++row) {
      const std::byte* obs = batch.buffer->Row(kObsField, row);
      const auto* counts = reinterpret_cast<const std::int32_t*>(obs + 8);
      const auto* value = reinterpret_cast<const float*>(obs + 16);
      const int id = batch.buffer->At<std::int32_t>(kEnvIdField, row);
      if (t == 2) {  // ended and reset in the same step
        CHECK(batch.buffer->At<bool>(l.final_mask(), row));
        const std::byte* last = batch.buffer->Row(l.final_obs(), row);
        const auto* last_counts =
            reinterpret_cast<const std::int32_t*>(last + 8);
        CHECK(last_counts[0] == 2 && last_counts[1] == 2 * id);
        CHECK(*reinterpret_cast<const float*>(last + 16) == 1.0F);
        CHECK(counts[0] == 0 && counts[1] == 0 && *value == 0.0F);
      } else {
        CHECK(counts[0] == 1 && counts[1] == id && *value == 0.5F);
      }
    }
  }
}

// Idle workers spin before they sleep only while a CPU is left for the
// caller; a group of as many threads as CPUs sleeps at once.
void TestIdleWorkersLeaveTheCallerItsCpu() {
  CHECK(WorkerGroup::IdleSpin(1, 2).count() > 0);
  CHECK(WorkerGroup::IdleSpin(2, 2).count() == 0);
  CHECK(WorkerGroup::IdleSpin(16, 16).count() == 0);
  CHECK(WorkerGroup::IdleSpin(15, 16).count() > 0);
  const auto sync = RunSync(1, 120);
  const int cpus = UsableCpuCount();
  // async with every CPU taken: each env's trace a prefix of the sync one
  for (const auto& [id, trace] : RunAsync(cpus, 4, 80)) {
    const Trace& expected = sync.at(id);
    CHECK(trace.size() <= expected.size());
    for (std::size_t i = 0; i < trace.size(); ++i) {
      CHECK(trace[i] == expected[i]);
    }
  }
  WorkerGroup all(cpus, Placement{});
  CHECK(all.idle_spin().count() == 0);
  CHECK(RunSync(cpus, 120) == sync);
}

}  // namespace
}  // namespace envpool::testing

int main() {
  using namespace envpool::testing;
  TestSyncDeterministicAcrossThreads();
  TestAsyncMatchesSync();
  TestSubsetsComeBackInOrder();
  TestEnvErrorSurfacesAndPoolRecovers();
  TestBadCallsThrowAndChangeNothing();
  TestSameStepKeepsFinalObservation();
  TestHammer();
  TestSoloRoundsMatchSharedRounds();
  TestManyPoolsAndCloseWithWorkInFlight();
  TestSharedWorkerGroup();
  TestDictObservations();
  TestIdleWorkersLeaveTheCallerItsCpu();
  std::puts("pool_stress_test: all checks passed");
  return 0;
}
