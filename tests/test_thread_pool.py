"""Pools sharing one set of worker threads (make(..., thread_pool=envpool.make_thread_pool())):
the same rounds, batches and trajectories as pools with threads of their own, with several
pools stepped from several Python threads at once; close, faults, Ctrl-C and fork."""

from __future__ import annotations

import json
import os
import sys
import threading
from typing import Any

import numpy as np
import pytest
from conftest import call_with_timeout, run_python
from fault_env import prelude
from test_process_faults import CTRL_C

import envpool
from envpool.errors import CallOrderError, EnvError

pytestmark = pytest.mark.asan

# (task, num_envs, batch_size): sync and async pools of cheap and of costlier envs
POOLS = [
    ("CartPole-v1", 8, 8),
    ("CartPole-v1", 8, 3),
    ("Pendulum-v1", 6, 6),
    ("HalfCheetah-v5", 4, 2),
]


def _actions(space: Any, n: int, rng: np.random.Generator) -> np.ndarray:
    if hasattr(space, "n"):
        return rng.integers(0, space.n, size=n)
    return rng.uniform(space.low, space.high, size=(n, *space.shape)).astype(space.dtype)


def _sync_rollout(env: Any, steps: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = [env.reset(seed=seed)[0].copy()]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(
            _actions(env.single_action_space, env.num_envs, rng)
        )
        out.append([obs.copy(), reward.copy(), terminated.copy(), truncated.copy()])
        assert np.array_equal(info["env_id"], np.arange(env.num_envs))
    return out


def _async_rollout(env: Any, batch_size: int, recvs: int, seed: int) -> dict[int, list]:
    """Each env's results in the order it produced them; env i's actions come from its own
    generator, so the per-env trajectories do not depend on which envs finish first."""
    rngs = [np.random.default_rng([seed, i]) for i in range(env.num_envs)]
    space = env.single_action_space
    traces: dict[int, list] = {i: [] for i in range(env.num_envs)}
    env.async_reset(seed=seed)
    for _ in range(recvs):
        obs, reward, terminated, truncated, info = env.recv()
        ids = info["env_id"]
        assert len(ids) == batch_size
        for row, i in enumerate(ids):
            traces[int(i)].append((obs[row].tobytes(), float(reward[row]), bool(terminated[row])))
        env.send(np.stack([_actions(space, 1, rngs[i])[0] for i in ids]), ids)
    return traces


def _rollout(env: Any, batch_size: int, seed: int) -> Any:
    if batch_size == env.num_envs:
        return _sync_rollout(env, 120, seed)
    return _async_rollout(env, batch_size, 120, seed)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):  # async: env i's trajectory, up to the shorter one
        return all(
            ta[: min(len(ta), len(tb))] == tb[: min(len(ta), len(tb))]
            for ta, tb in ((a[i], b[i]) for i in a)
        )
    return len(a) == len(b) and all(
        all(np.array_equal(x, y) for x, y in zip(ra, rb, strict=True))
        if isinstance(ra, list)
        else np.array_equal(ra, rb)
        for ra, rb in zip(a, b, strict=False)
    )


def _make(task: str, n: int, batch: int, seed: int, **kwargs: Any) -> Any:
    return envpool.make(task, num_envs=n, batch_size=batch, seed=seed, **kwargs)


def _own_thread_results() -> list:
    results = []
    for k, (task, n, batch) in enumerate(POOLS):
        with _make(task, n, batch, k, num_threads=2) as env:
            results.append(_rollout(env, batch, k))
    return results


def test_pools_stepped_alternately_on_a_shared_pool_match_their_own_threads() -> None:
    expected = _own_thread_results()
    shared = envpool.make_thread_pool(num_threads=2)
    envs = [_make(task, n, b, k, thread_pool=shared) for k, (task, n, b) in enumerate(POOLS)]
    assert all(env.unwrapped._pool.shares_workers for env in envs)
    # interleave the pools call by call
    rngs = [np.random.default_rng(k) for k in range(len(envs))]
    results: list[list] = [[env.reset(seed=k)[0].copy()] for k, env in enumerate(envs)]
    sync = [k for k, (_, n, b) in enumerate(POOLS) if n == b]
    for _ in range(120):
        for k in sync:
            env = envs[k]
            obs, reward, terminated, truncated, _ = env.step(
                _actions(env.single_action_space, env.num_envs, rngs[k])
            )
            results[k].append([obs.copy(), reward.copy(), terminated.copy(), truncated.copy()])
    for k in sync:
        assert _same(results[k], expected[k])
    for env in envs:
        env.close()


def test_pools_stepped_from_several_python_threads_match_their_own_threads() -> None:
    expected = _own_thread_results()
    shared = envpool.make_thread_pool(num_threads=2)
    for _ in range(2):
        results: list[Any] = [None] * len(POOLS)

        def run(k: int, results: list[Any] = results) -> None:
            task, n, batch = POOLS[k]
            with _make(task, n, batch, k, thread_pool=shared) as env:
                results[k] = _rollout(env, batch, k)

        threads = [threading.Thread(target=run, args=(k,)) for k in range(len(POOLS))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
            assert not t.is_alive(), "a pool on the shared thread pool hung"
        for k in range(len(POOLS)):
            assert _same(results[k], expected[k]), POOLS[k]


def _thread_ids() -> set[int]:
    return {int(t) for t in os.listdir("/proc/self/task")}


def test_a_shared_pool_starts_no_threads_of_its_own() -> None:
    # compare thread ids, not counts: a thread left by an earlier test may end meanwhile
    before = _thread_ids()
    shared = envpool.make_thread_pool(num_threads=2)
    group = _thread_ids() - before
    assert len(group) == 2
    with_group = _thread_ids()
    envs = [_make("CartPole-v1", 4, 4, 0, thread_pool=shared) for _ in range(4)]
    assert _thread_ids() - with_group == set()
    # sync pools count the caller: the thread pool's threads + 1
    assert [env.num_threads for env in envs] == [3] * 4
    assert _make("CartPole-v1", 4, 2, 0, thread_pool=shared).num_threads == 2
    for env in envs:
        env.close()


def test_closing_one_pool_leaves_the_others_running() -> None:
    shared = envpool.make_thread_pool(num_threads=2)
    a = _make("CartPole-v1", 8, 8, 0, thread_pool=shared)
    b = _make("CartPole-v1", 8, 2, 1, thread_pool=shared)
    a.reset()
    b.async_reset()
    b.recv()
    a.close()
    a.close()
    with pytest.raises(CallOrderError, match="closed"):
        a.step(np.zeros(8, dtype=np.int64))
    for _ in range(50):
        _, _, _, _, info = b.recv()
        b.send(np.zeros(2, dtype=np.int64), info["env_id"])
    # pools keep their thread pool alive after the ThreadPool object is gone
    del shared
    import gc

    gc.collect()
    for _ in range(50):
        _, _, _, _, info = call_with_timeout(b.recv)
        b.send(np.zeros(2, dtype=np.int64), info["env_id"])
    b.close()


def test_an_env_error_in_one_pool_leaves_the_other_pools_alone(fault_env_dir: Any) -> None:
    shared = envpool.make_thread_pool(num_threads=2)
    faulty = envpool.make("Fault-v0", num_envs=4, throw_at_step=3, thread_pool=shared)
    healthy = _make("CartPole-v1", 4, 4, 0, thread_pool=shared)
    faulty.reset()
    healthy.reset()
    with pytest.raises(EnvError, match="injected failure at step 3"):
        for _ in range(3):
            faulty.step(np.zeros(4, dtype=np.int64))
            healthy.step(np.zeros(4, dtype=np.int64))
    faulty.reset()  # the failed pool recovers
    faulty.step(np.zeros(4, dtype=np.int64))
    assert len(healthy.step(np.zeros(4, dtype=np.int64))[0]) == 4


def test_an_out_of_tree_env_shares_threads_with_builtin_ones(fault_env_dir: Any) -> None:
    shared = envpool.make_thread_pool(num_threads=1)
    slow = envpool.make("Fault-v0", num_envs=4, batch_size=2, sleep_us=2000, thread_pool=shared)
    fast = _make("CartPole-v1", 4, 4, 0, thread_pool=shared)
    slow.async_reset()
    fast.reset()
    for _ in range(20):
        _, _, _, _, info = slow.recv()
        slow.send(np.zeros(2, dtype=np.int64), info["env_id"])
        fast.step(np.zeros(4, dtype=np.int64))


def test_default_thread_pool_is_used_unless_the_pool_chooses_its_threads() -> None:
    shared = envpool.make_thread_pool(num_threads=1)
    previous = envpool.set_default_thread_pool(shared)
    try:
        assert envpool.get_default_thread_pool() is shared
        assert envpool.make("CartPole-v1", num_envs=2).unwrapped._pool.shares_workers
        assert envpool.make("CartPole-v1", num_envs=2, env_type="dm")._pool.shares_workers
        own = envpool.make("CartPole-v1", num_envs=2, num_threads=2)
        assert not own.unwrapped._pool.shares_workers
        assert not envpool.make("CartPole-v1", num_envs=2, thread_pool=False)._pool.shares_workers
    finally:
        envpool.set_default_thread_pool(previous)
    assert not envpool.make("CartPole-v1", num_envs=2).unwrapped._pool.shares_workers


def test_default_thread_pool_from_the_environment() -> None:
    done = run_python(
        """
import os
os.environ["ENVPOOL_THREAD_POOL"] = "2"
import envpool, json
env = envpool.make("CartPole-v1", num_envs=4, batch_size=2)
print(json.dumps([envpool.get_default_thread_pool().num_threads, env._pool.shares_workers]))
"""
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [2, True]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"thread_pool": "shared"}, TypeError, "make_thread_pool"),
        ({"thread_pool": True}, TypeError, "make_thread_pool"),
        ({"num_threads": 2, "thread_pool": "tp"}, ValueError, "leave num_threads out"),
        ({"thread_affinity_offset": 0, "thread_pool": "tp"}, ValueError, "make_thread_pool"),
        ({"numa_node": 4096}, ValueError, "numa_node=4096 is not a NUMA node"),
        ({"numa_node": -1}, ValueError, "numa_node must be >= 0"),
        ({"numa_node": "0"}, TypeError, "numa_node must be an int"),
    ],
)
def test_bad_thread_pool_arguments_raise_clear_errors(
    kwargs: dict, error: type, match: str
) -> None:
    shared = envpool.make_thread_pool(num_threads=1)
    kwargs = {k: shared if v == "tp" else v for k, v in kwargs.items()}
    with pytest.raises(error, match=match):
        envpool.make("CartPole-v1", num_envs=2, **kwargs)
    # the thread pool is still good
    with envpool.make("CartPole-v1", num_envs=2, thread_pool=shared) as env:
        env.reset()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_threads": -1}, ValueError, "num_threads must be >= 1"),
        ({"num_threads": 1.5}, TypeError, "num_threads must be an int"),
        ({"thread_affinity_offset": -2}, ValueError, "thread_affinity_offset must be >= -1"),
        ({"numa_node": 99}, ValueError, "numa_node=99"),
        ({"num_envs_capacity": 0}, ValueError, "num_envs_capacity must be a positive int"),
    ],
)
def test_bad_make_thread_pool_arguments(kwargs: dict, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        envpool.make_thread_pool(**kwargs)
    with pytest.raises(TypeError, match="ThreadPool"):
        envpool.set_default_thread_pool(4)  # type: ignore[arg-type]


def test_a_capsule_that_is_not_a_thread_pool_is_refused() -> None:
    from envpool import pool_options

    env_cls = type(envpool.make("CartPole-v1", num_envs=1).unwrapped._pool)
    native = pool_options.native(pool_options.check({}), None)
    with pytest.raises(TypeError, match="make_thread_pool"):
        env_cls({}, {**native, "worker_group": object()})


def test_ctrl_c_interrupts_a_pool_on_a_shared_thread_pool(fault_env_dir: Any) -> None:
    code = (
        prelude(fault_env_dir)
        + CTRL_C
        + """
shared = envpool.make_thread_pool(num_threads=2)
env = envpool.make("Fault-v0", num_envs=4, batch_size=2, sleep_us=2_000_000, thread_pool=shared)
other = envpool.make("CartPole-v1", num_envs=4, thread_pool=shared)
env.async_reset()
env.recv()
env.recv()
env.send(np.zeros(2, dtype=np.int64), env_id=[1, 2])
latency = blocked_call_latency(env.recv)
other.reset()
obs, _, _, _, info = env.recv()
print(latency, sorted(info["env_id"].tolist()), obs[:, 1].tolist())
"""
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    latency, rest = done.stdout.split(" ", 1)
    assert float(latency) < 0.5
    assert rest.split() == ["[1,", "2]", "[1.0,", "1.0]"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_child_cannot_use_the_parents_thread_pool_but_can_make_its_own() -> None:
    code = """
import json, os, numpy as np, envpool
from envpool.errors import CallOrderError
shared = envpool.make_thread_pool(num_threads=2)
envpool.set_default_thread_pool(shared)
env = envpool.make("CartPole-v1", num_envs=4, thread_pool=shared)
env.reset()
pid = os.fork()
if pid == 0:
    out = {}
    try:
        envpool.make("CartPole-v1", num_envs=4, thread_pool=shared)
    except CallOrderError as e:
        out["refused"] = "before fork()" in str(e)
    try:
        env.step(np.zeros(4, dtype=np.int64))
    except CallOrderError:
        out["old_pool_refused"] = True
    out["default_cleared"] = envpool.get_default_thread_pool() is None
    mine = envpool.make_thread_pool(num_threads=1)
    child = envpool.make("CartPole-v1", num_envs=4, thread_pool=mine)
    child.reset()
    out["child_steps"] = len(child.step(np.zeros(4, dtype=np.int64))[0])
    print(json.dumps(out), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
env.step(np.zeros(4, dtype=np.int64))
print(json.dumps({"parent_ok": True}))
"""
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines == [
        {"refused": True, "old_pool_refused": True, "default_cleared": True, "child_steps": 4},
        {"parent_ok": True},
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread pinning is Linux-only")
def test_thread_pool_affinity_offset_pins_its_threads() -> None:
    before = _thread_ids()
    shared = envpool.make_thread_pool(num_threads=2, thread_affinity_offset=1)
    threads = _thread_ids() - before
    cores = os.cpu_count() or 1
    masks = sorted(tuple(sorted(os.sched_getaffinity(t))) for t in threads)
    assert masks == sorted(((1 + i) % cores,) for i in range(2))
    assert shared.num_threads == 2


def test_making_and_dropping_pools_and_thread_pools_leaks_no_threads() -> None:
    code = """
import gc, json, os, numpy as np, envpool
def threads():
    return len(os.listdir("/proc/self/task"))
base = threads()
for i in range(20):
    shared = envpool.make_thread_pool(num_threads=2)
    for k in range(10):
        env = envpool.make("CartPole-v1", num_envs=4, batch_size=4 if k % 2 else 2,
                           thread_pool=shared)
        if k % 2:
            env.reset()
            env.step(np.zeros(4, dtype=np.int64))
        else:
            env.async_reset()  # dropped with work in flight
        if k % 3 == 0:
            env.close()
        del env
    # a pool that outlives its ThreadPool object keeps the threads until it goes
    last = envpool.make("CartPole-v1", num_envs=2, thread_pool=shared)
    del shared
    gc.collect()
    during = threads()
    del last
    gc.collect()
print(json.dumps([during - base, threads() - base]))
"""
    done = run_python(code, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [2, 0]


def test_the_original_envpools_make_thread_pool_call_carries_over() -> None:
    from envpool.registration import make_thread_pool

    # the original's signature: make_thread_pool(num_envs_capacity, num_threads, offset)
    shared = make_thread_pool(16, 2)
    assert shared.num_threads == 2
    assert envpool.make_thread_pool(num_envs_capacity=16, num_threads=1).num_threads == 1
    with envpool.make("CartPole-v1", num_envs=16, batch_size=8, thread_pool=shared) as env:
        env.async_reset()
        assert len(env.recv()[0]) == 8
