"""Async mode (batch_size < num_envs) and determinism across threads, batch sizes and modes."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from conftest import call_with_timeout

import envpool

pytestmark = pytest.mark.asan


def _recv(env):
    return call_with_timeout(env.recv)


def test_async_reset_then_recv_returns_every_env_once():
    with envpool.make("CartPole-v1", num_envs=6, batch_size=2, num_threads=2) as env:
        assert env.is_async
        env.async_reset()
        seen = []
        for _ in range(3):
            obs, reward, terminated, truncated, info = _recv(env)
            assert obs.shape == (2, 4)
            assert reward.shape == terminated.shape == truncated.shape == (2,)
            np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
            np.testing.assert_array_equal(reward, [0.0, 0.0])
            seen.extend(info["env_id"].tolist())
        assert sorted(seen) == list(range(6))


def test_async_send_recv_loop():
    num_envs, batch_size = 5, 2
    with envpool.make("CartPole-v1", num_envs=num_envs, batch_size=batch_size) as env:
        env.async_reset()
        results = defaultdict(int)
        last = {}  # env id -> (elapsed_step, episode ended)
        for _ in range(60):
            obs, _, terminated, truncated, info = _recv(env)
            ids = info["env_id"]
            assert obs.shape == (batch_size, 4) and np.all(np.isfinite(obs))
            assert len(set(ids.tolist())) == batch_size
            ended = terminated | truncated
            for row, i in enumerate(ids.tolist()):
                elapsed = int(info["elapsed_step"][row])
                if i in last:
                    # Each env's results come back one step at a time, in order.
                    assert elapsed == (0 if last[i][1] else last[i][0] + 1)
                else:
                    assert elapsed == 0
                last[i] = (elapsed, bool(ended[row]))
                results[i] += 1
            env.send(np.zeros(batch_size, np.int64), env_id=ids)
        assert set(results) == set(range(num_envs))


def test_recv_order_follows_send_order_with_one_thread():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=1, num_threads=1) as env:
        env.async_reset(env_id=[3, 1, 2, 0])
        order = [int(_recv(env)[4]["env_id"][0]) for _ in range(4)]
        assert order == [3, 1, 2, 0]
        env.send(np.zeros(1, np.int64), env_id=[2])
        env.send(np.zeros(2, np.int64), env_id=[0, 3])
        order = [int(_recv(env)[4]["env_id"][0]) for _ in range(3)]
        assert order == [2, 0, 3]


def test_async_reset_seed_matches_sync_reset():
    with (
        envpool.make("Acrobot-v1", num_envs=4, batch_size=2) as env,
        envpool.make("Acrobot-v1", num_envs=4) as sync,
    ):
        expected, _ = sync.reset(seed=33)
        env.async_reset(seed=33)
        for _ in range(2):
            obs, _, _, _, info = _recv(env)
            np.testing.assert_array_equal(obs, expected[info["env_id"]])


def test_async_reset_subset():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.async_reset()
        _recv(env)
        _recv(env)
        env.send(np.zeros(2, np.int64), env_id=[0, 1])
        env.async_reset(env_id=[2, 3])
        got = {}
        for _ in range(2):
            _, _, _, _, info = _recv(env)
            got.update(zip(info["env_id"].tolist(), info["elapsed_step"].tolist(), strict=True))
        assert got == {0: 1, 1: 1, 2: 0, 3: 0}


def test_async_step_is_send_plus_recv():
    with envpool.make("Pendulum-v1", num_envs=4, batch_size=2, num_threads=2) as env:
        env.async_reset()
        _, _, _, _, info = _recv(env)
        first = info["env_id"].tolist()
        out = call_with_timeout(lambda: env.step(np.zeros((2, 1), np.float32), env_id=first))
        assert out[0].shape == (2, 3)
        rest = _recv(env)
        got = dict(zip(out[4]["env_id"].tolist(), out[4]["elapsed_step"].tolist(), strict=True))
        got.update(zip(rest[4]["env_id"].tolist(), rest[4]["elapsed_step"].tolist(), strict=True))
        # Every env once: the stepped ones one step in, the others just reset.
        assert got == {i: (1 if i in first else 0) for i in range(4)}


def test_async_full_batch_without_env_id_is_allowed_partial_is_not():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.reset(seed=0)
        with pytest.raises(ValueError, match="env_id"):
            env.send(np.zeros(2, np.int64))
        env.send(np.zeros(4, np.int64))
        ids = set()
        for _ in range(2):
            ids.update(_recv(env)[4]["env_id"].tolist())
        assert ids == {0, 1, 2, 3}


def test_async_reset_drops_work_in_flight():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.async_reset()
        _recv(env)
        obs, info = call_with_timeout(lambda: env.reset(seed=1))
        assert obs.shape == (4, 4)
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2, 3])
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0, 0])
        # Nothing is in flight any more, and every env can be sent again.
        with pytest.raises(envpool.CallOrderError):
            env.recv()
        env.send(np.zeros(4, np.int64), env_id=[0, 1, 2, 3])
        for _ in range(2):
            np.testing.assert_array_equal(_recv(env)[4]["elapsed_step"], [1, 1])


# Determinism: the same (seed, env) and actions give the same trajectory
# whatever the threads, batch size or mode.

NUM_ENVS = 4
HORIZON = 30


def _action(task_id: str, env_id: int, k: int) -> np.ndarray:
    """The action env ``env_id`` takes after its k-th result."""
    if task_id == "Pendulum-v1":
        return np.array([2.0 * np.sin(1.7 * env_id + 0.37 * k)], np.float32)
    return np.int64((env_id * 7 + k * 3 + (k * k) % 5) % 2)


def _record(traj, obs, reward, terminated, truncated, info):
    for row, i in enumerate(info["env_id"]):
        traj[int(i)].append(
            (
                obs[row].copy(),
                float(reward[row]),
                bool(terminated[row]),
                bool(truncated[row]),
                int(info["elapsed_step"][row]),
            )
        )


def _sync_trajectories(task_id: str, num_threads: int, **kwargs) -> dict:
    traj = defaultdict(list)
    with envpool.make(task_id, num_envs=NUM_ENVS, num_threads=num_threads, seed=3, **kwargs) as env:
        obs, info = env.reset()
        _record(traj, obs, np.zeros(NUM_ENVS), *([np.zeros(NUM_ENVS, bool)] * 2), info)
        for k in range(HORIZON):
            actions = np.stack([_action(task_id, i, k) for i in range(NUM_ENVS)])
            _record(traj, *env.step(actions))
    return traj


def _async_trajectories(task_id: str, batch_size: int, num_threads: int, **kwargs) -> dict:
    traj = defaultdict(list)
    with envpool.make(
        task_id,
        num_envs=NUM_ENVS,
        batch_size=batch_size,
        num_threads=num_threads,
        seed=3,
        **kwargs,
    ) as env:
        env.async_reset()
        while min((len(traj[i]) for i in range(NUM_ENVS)), default=0) <= HORIZON:
            result = _recv(env)
            _record(traj, *result)
            ids = result[4]["env_id"]
            actions = np.stack([_action(task_id, int(i), len(traj[int(i)]) - 1) for i in ids])
            env.send(actions, env_id=ids)
        # Leaves work in flight: close() must cope.
    return traj


def _assert_same(a: dict, b: dict) -> None:
    for i in range(NUM_ENVS):
        assert len(a[i]) >= HORIZON + 1 and len(b[i]) >= HORIZON + 1
        for k in range(HORIZON + 1):
            obs_a, *rest_a = a[i][k]
            obs_b, *rest_b = b[i][k]
            np.testing.assert_array_equal(obs_a, obs_b, err_msg=f"env {i} result {k}")
            assert rest_a == rest_b, f"env {i} result {k}"


@pytest.mark.parametrize(
    ("task_id", "kwargs"),
    [
        ("CartPole-v1", {"max_episode_steps": 12}),
        ("Pendulum-v1", {"max_episode_steps": 7}),
        ("Acrobot-v1", {}),
    ],
)
def test_trajectories_independent_of_threads_batch_size_and_mode(task_id, kwargs):
    reference = _sync_trajectories(task_id, num_threads=1, **kwargs)
    # The horizon includes episode ends, so autoreset is covered too.
    if kwargs:
        assert any(step[3] or step[2] for i in range(NUM_ENVS) for step in reference[i])
    _assert_same(reference, _sync_trajectories(task_id, num_threads=2, **kwargs))
    _assert_same(reference, _async_trajectories(task_id, batch_size=2, num_threads=2, **kwargs))
    _assert_same(reference, _async_trajectories(task_id, batch_size=1, num_threads=1, **kwargs))
    _assert_same(reference, _async_trajectories(task_id, batch_size=3, num_threads=2, **kwargs))
