"""Stateful fuzzing: random sequences of valid and invalid calls on CartPole and Pong
pools, and on a pool of the test-only env with a dict observation (FaultDict-v0).

Invariants: no crash or hang; every invalid call raises one of the documented
exceptions and changes nothing; every valid call returns a well-formed batch
with consistent env ids and elapsed steps. The default profile is short (CI);
set ENVPOOL_FUZZ_EXAMPLES (e.g. 2000) for a long run (see docs/reliability.md).
"""

from __future__ import annotations

import os

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import envpool
from envpool import CallOrderError

pytestmark = pytest.mark.asan

MAX_STEPS = 25  # a short time limit, so that truncation and autoreset happen
REJECTED = (ValueError, TypeError, IndexError, CallOrderError)


def batch_shapes(obs: object) -> object:
    """The observation's batch shape, or {key: shape} for a dict observation."""
    if isinstance(obs, dict):
        return {key: value.shape for key, value in obs.items()}
    return obs.shape  # type: ignore[attr-defined]


class PoolMachine(RuleBasedStateMachine):
    TASK = "CartPole-v1"

    def __init__(self) -> None:
        super().__init__()
        self.env = None
        self.num_envs = 0
        self.batch_size = 0
        self.in_flight: set[int] = set()  # async: sent, not yet received
        self.elapsed: dict[int, int] = {}

    def rows_shape(self, n: int) -> object:
        """What batch_shapes() of n rows must be."""
        if isinstance(self.obs_shape, dict):
            return {key: (n, *shape) for key, shape in self.obs_shape.items()}
        return (n, *self.obs_shape)

    def teardown(self) -> None:
        if self.env is not None:
            self.env.close()

    # Making and closing pools.

    @rule(
        num_envs=st.integers(1, 6),
        batch_frac=st.floats(0.1, 1.0),
        num_threads=st.integers(0, 3),
        mode=st.sampled_from(["next_step", "same_step"]),
    )
    def make(self, num_envs: int, batch_frac: float, num_threads: int, mode: str) -> None:
        self.teardown()
        batch_size = max(1, round(num_envs * batch_frac))
        self.env = envpool.make(
            self.TASK,
            num_envs=num_envs,
            batch_size=batch_size,
            num_threads=num_threads,
            max_episode_steps=MAX_STEPS,
            autoreset_mode=mode,
        )
        self.num_envs, self.batch_size = num_envs, batch_size
        space = self.env.single_observation_space
        if isinstance(space, gym.spaces.Dict):
            self.obs_shape = {key: sub.shape for key, sub in space.items()}
        else:
            self.obs_shape = space.shape
        self.in_flight = set()
        self.elapsed = {}

    @rule(
        num_envs=st.integers(-2, 0),
        num_threads=st.integers(-3, -1),
    )
    def make_invalid(self, num_envs: int, num_threads: int) -> None:
        with pytest.raises(ValueError):
            envpool.make("CartPole-v1", num_envs=num_envs)
        with pytest.raises(ValueError):
            envpool.make("CartPole-v1", num_envs=2, num_threads=num_threads)
        with pytest.raises(ValueError):
            envpool.make("CartPole-v1", num_envs=2, batch_size=3)

    @precondition(lambda self: self.env is not None)
    @rule()
    def close(self) -> None:
        self.env.close()
        self.env.close()  # idempotent
        with pytest.raises(CallOrderError):
            self.env.reset()
        self.env = None

    # Valid calls.

    @precondition(lambda self: self.env is not None)
    @rule(seed=st.one_of(st.none(), st.integers(0, 2**32)))
    def reset(self, seed: int | None) -> None:
        obs, info = self.env.reset(seed=seed)
        assert batch_shapes(obs) == self.rows_shape(self.num_envs)
        np.testing.assert_array_equal(info["env_id"], np.arange(self.num_envs))
        assert (info["elapsed_step"] == 0).all()
        self.in_flight = set()
        self.elapsed = dict.fromkeys(range(self.num_envs), 0)

    @precondition(lambda self: self.env is not None and not self.env.is_async and self.elapsed)
    @rule(data=st.data())
    def reset_mask(self, data: st.DataObject) -> None:
        mask = np.array(
            data.draw(st.lists(st.booleans(), min_size=self.num_envs, max_size=self.num_envs))
        )
        if not mask.any():
            with pytest.raises(ValueError, match="at least one True value"):
                self.env.reset(options={"reset_mask": mask})
            return
        obs, info = self.env.reset(options={"reset_mask": mask})
        assert batch_shapes(obs) == self.rows_shape(self.num_envs)
        # As gymnasium's vector envs do: info rows only for the envs reset, marked by "_key".
        np.testing.assert_array_equal(info["_elapsed_step"], mask)
        np.testing.assert_array_equal(info["env_id"][mask], np.flatnonzero(mask))
        assert (info["elapsed_step"][mask] == 0).all()
        for env_id in np.flatnonzero(mask):
            self.elapsed[int(env_id)] = 0

    @precondition(lambda self: self.env is not None and self.env.is_async)
    @rule(data=st.data(), seeded=st.booleans())
    def async_reset(self, data: st.DataObject, seeded: bool) -> None:
        idle = sorted(set(range(self.num_envs)) - self.in_flight)
        if not idle:
            return
        ids = data.draw(st.lists(st.sampled_from(idle), min_size=1, unique=True))
        seeds = [data.draw(st.integers(0, 2**32)) for _ in ids] if seeded else None
        self.env.async_reset(seed=seeds, env_id=np.array(ids))
        self.in_flight |= set(ids)
        for env_id in ids:
            self.elapsed[env_id] = -1  # the next result is a reset: elapsed 0

    @precondition(lambda self: self.env is not None and not self.env.is_async and self.elapsed)
    @rule(data=st.data())
    def step_subset(self, data: st.DataObject) -> None:
        ids = data.draw(st.permutations(range(self.num_envs)))
        ids = ids[: data.draw(st.integers(1, self.num_envs))]
        dtype = data.draw(st.sampled_from([np.int8, np.int32, np.int64, np.uint16]))
        actions = np.asarray(
            data.draw(st.lists(st.integers(0, 1), min_size=len(ids), max_size=len(ids))),
            dtype=dtype,
        )
        obs, reward, terminated, truncated, info = self.env.step(actions, env_id=np.array(ids))
        assert batch_shapes(obs) == self.rows_shape(len(ids))
        np.testing.assert_array_equal(info["env_id"], ids)
        self._check_rows(info, reward, terminated, truncated)

    @precondition(lambda self: self.env is not None and self.env.is_async and self.elapsed)
    @rule(data=st.data())
    def send(self, data: st.DataObject) -> None:
        idle = sorted(set(self.elapsed) - self.in_flight)
        if not idle:
            return
        ids = data.draw(st.lists(st.sampled_from(idle), min_size=1, unique=True))
        self.env.send(np.zeros(len(ids), dtype=np.int64), env_id=np.array(ids))
        self.in_flight |= set(ids)

    @precondition(lambda self: self.env is not None and self.env.is_async)
    @rule()
    def recv(self) -> None:
        if len(self.in_flight) < self.batch_size:
            with pytest.raises(CallOrderError):
                self.env.recv()
            return
        obs, reward, terminated, truncated, info = self.env.recv()
        ids = info["env_id"].tolist()
        assert len(ids) == self.batch_size == len(set(ids))
        assert set(ids) <= self.in_flight
        assert batch_shapes(obs) == self.rows_shape(self.batch_size)
        self.in_flight -= set(ids)
        self._check_rows(info, reward, terminated, truncated)

    def _check_rows(self, info, reward, terminated, truncated) -> None:
        for row, env_id in enumerate(info["env_id"].tolist()):
            elapsed = int(info["elapsed_step"][row])
            assert 0 <= elapsed <= MAX_STEPS
            assert elapsed in (0, self.elapsed[env_id] + 1)
            if self.elapsed[env_id] == -1:
                assert elapsed == 0
            assert bool(truncated[row]) == (elapsed == MAX_STEPS)
            assert np.isfinite(reward[row])
            if self.env.metadata["autoreset_mode"].value == "SameStep" and (
                terminated[row] or truncated[row]
            ):
                self.elapsed[env_id] = 0  # reset within the same step
            else:
                self.elapsed[env_id] = elapsed

    # Invalid calls: each raises a documented exception and changes nothing.

    @precondition(lambda self: self.env is not None and self.elapsed)
    @rule(
        bad=st.sampled_from(["shape", "range", "float", "string", "env_id", "duplicate"]),
    )
    def invalid_step(self, bad: str) -> None:
        n = self.num_envs if not self.env.is_async else 1
        ids = np.arange(n)
        actions: object = np.zeros(n, dtype=np.int64)
        if bad == "shape":
            actions = np.zeros((n, 2), dtype=np.int64)
        elif bad == "range":
            actions = np.full(n, 7)
        elif bad == "float":
            actions = np.zeros(n, dtype=np.float32)
        elif bad == "string":
            actions = np.array(["a"] * n)
        elif bad == "env_id":
            ids = np.full(n, self.num_envs + 3)
        elif bad == "duplicate":
            ids = np.zeros(2, dtype=np.int64)
            actions = np.zeros(2, dtype=np.int64)
        with pytest.raises(REJECTED):
            if self.env.is_async:
                self.env.send(actions, env_id=ids)
            else:
                self.env.step(actions, env_id=ids)

    @precondition(lambda self: self.env is not None and self.env.is_async and self.in_flight)
    @rule(reset=st.booleans())
    def send_to_env_in_flight(self, reset: bool) -> None:
        env_id = min(self.in_flight)
        with pytest.raises(CallOrderError):
            if reset:
                self.env.async_reset(env_id=np.array([env_id]))
            else:
                self.env.send(np.zeros(1, dtype=np.int64), env_id=np.array([env_id]))

    @precondition(lambda self: self.env is not None)
    @rule(bad=st.sampled_from(["seed_type", "seed_count", "negative_seed", "mask_shape"]))
    def invalid_reset(self, bad: str) -> None:
        if bad == "mask_shape" and self.env.is_async:
            return
        before = self.env._pool.num_pending
        with pytest.raises(REJECTED):
            if bad == "seed_type":
                self.env.reset(seed="seven")
            elif bad == "seed_count":
                self.env.reset(seed=[1] * (self.num_envs + 1))
            elif bad == "negative_seed":
                self.env.reset(seed=-5)
            else:
                self.env.reset(options={"reset_mask": np.ones(self.num_envs + 1, dtype=bool)})
        assert self.env._pool.num_pending == before

    @invariant()
    def pool_reports_what_is_in_flight(self) -> None:
        if self.env is not None and self.env.is_async:
            assert self.env._pool.num_pending == len(self.in_flight)


def _profile(default_examples: int, steps: int) -> settings:
    """The CI profile; ENVPOOL_FUZZ_EXAMPLES sets the number of examples for a long run."""
    return settings(
        max_examples=int(os.environ.get("ENVPOOL_FUZZ_EXAMPLES", str(default_examples))),
        stateful_step_count=steps,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


PoolMachine.TestCase.settings = _profile(60, 30)
TestPoolMachine = PoolMachine.TestCase


class AtariPoolMachine(PoolMachine):
    """The same calls on Pong: image observations, emulator resets, ROM loading."""

    TASK = "Pong-v5"


# Each Pong env loads its ROM (tens of ms), so the default profile is shorter.
AtariPoolMachine.TestCase.settings = _profile(8, 20)
TestAtariPoolMachine = AtariPoolMachine.TestCase


class DictObsPoolMachine(PoolMachine):
    """The same calls on an env whose observation is a dict of three arrays of
    different dtypes (tests/fault_env.py builds it)."""

    TASK = "FaultDict-v0"

    def __init__(self) -> None:
        import fault_env

        fault_env.register(fault_env.build())
        super().__init__()


DictObsPoolMachine.TestCase.settings = _profile(30, 30)
TestDictObsPoolMachine = DictObsPoolMachine.TestCase
