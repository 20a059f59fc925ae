"""Batches reach Python without a copy, stay valid while held, and are reused once dropped;
worker threads are pinned when asked."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import envpool

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.asan]


def _address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def test_arrays_view_one_block_owned_by_the_engine() -> None:
    with envpool.make("CartPole-v1", num_envs=8) as env:
        env.reset()
        obs, reward, terminated, truncated, info = env.step(np.zeros(8, dtype=np.int64))
        arrays = [obs, reward, terminated, truncated, info["env_id"], info["elapsed_step"]]
        for array in arrays:
            assert not array.flags.owndata  # a view, not a copy
            assert array.base is not None
        # All of a batch's arrays share one engine-owned block.
        assert len({id(a.base) for a in arrays}) == 1


def test_held_results_are_not_overwritten_by_later_steps() -> None:
    with envpool.make("CartPole-v1", num_envs=4, seed=1) as env:
        env.reset()
        held = env.step(np.ones(4, dtype=np.int64))
        snapshot = [np.array(a) for a in held[:4]]
        for _ in range(50):
            env.step(np.zeros(4, dtype=np.int64))
        for kept, copy in zip(held[:4], snapshot, strict=True):
            np.testing.assert_array_equal(kept, copy)


def test_dropped_batches_are_recycled() -> None:
    with envpool.make("CartPole-v1", num_envs=64) as env:
        env.reset()
        seen: set[int] = set()
        actions = np.zeros(64, dtype=np.int64)
        for _ in range(200):
            obs = env.step(actions)[0]
            seen.add(_address(obs))
            del obs
        # A steady loop cycles through a handful of blocks, not 200 fresh ones.
        assert len(seen) <= 4


def test_async_batches_are_recycled_too() -> None:
    with envpool.make("CartPole-v1", num_envs=8, batch_size=2) as env:
        env.async_reset()
        seen: set[int] = set()
        for _ in range(300):
            obs, _, _, _, info = env.recv()
            seen.add(_address(obs))
            env.send(np.zeros(2, dtype=np.int64), info["env_id"])
        assert len(seen) <= 8


def _thread_ids() -> set[int]:
    return {int(t) for t in os.listdir("/proc/self/task")}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread pinning is Linux-only")
def test_thread_affinity_offset_pins_each_worker_to_one_core() -> None:
    cores = os.cpu_count() or 1
    before = _thread_ids()
    with envpool.make(
        "CartPole-v1", num_envs=4, batch_size=2, num_threads=2, thread_affinity_offset=0
    ) as env:
        workers = _thread_ids() - before
        assert len(workers) == 2
        masks = sorted(tuple(sorted(os.sched_getaffinity(t))) for t in workers)
        assert masks == sorted((i % cores,) for i in range(2))
        env.async_reset()
        assert len(env.recv()[0]) == 2
