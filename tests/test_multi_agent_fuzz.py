"""Stateful fuzzing of a multi-agent pool (SimpleWorldComm-v3: six agents of two kinds,
discrete or continuous): random sequences of valid steps, bad actions and (partial,
seeded) resets.

Invariants: no crash or hang; every bad action raises ValueError or TypeError and changes
nothing (the envs' step counts go on as if it had not been made); every valid call
returns one row per env for every agent, with env ids in order and step counts that
follow autoreset (an env that ended resets on its next step). ENVPOOL_FUZZ_EXAMPLES
lengthens the run, as for tests/test_fuzz.py.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

import envpool

pytestmark = pytest.mark.asan

NUM_ENVS = 3
MAX_CYCLES = 4  # short episodes, so that truncation and autoreset happen often


def corrupt(actions: dict[str, np.ndarray], how: str, agents: list[str]) -> Any:
    """A bad version of valid `actions`."""
    bad = dict(actions)
    first = agents[0]
    if how == "unknown agent":
        bad["nobody"] = bad[first]
    elif how == "missing agent":
        del bad[agents[-1]]
    elif how == "short":
        bad[first] = bad[first][:-1]
    elif how == "wrong dtype":
        value = bad[first]
        bad[first] = value.astype(np.float64 if value.dtype.kind in "iu" else np.int64)
    elif how == "out of range":
        value = bad[first]
        bad[first] = value + 1000 if value.dtype.kind in "iu" else np.full_like(value, np.nan)
    elif how == "not a dict":
        return list(actions.values())
    return bad


class MultiAgentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.env: Any = None
        self.elapsed = np.zeros(NUM_ENVS, dtype=np.int64)
        self.ended = np.zeros(NUM_ENVS, dtype=bool)

    @initialize(continuous=st.booleans(), seed=st.integers(0, 1000))
    def make(self, continuous: bool, seed: int) -> None:
        self.env = envpool.make(
            "SimpleWorldComm-v3",
            num_envs=NUM_ENVS,
            seed=seed,
            max_cycles=MAX_CYCLES,
            continuous_actions=continuous,
        )
        self.env.batched_action_space.seed(seed)
        self.check(self.env.reset(), np.arange(NUM_ENVS))
        self.elapsed[:] = 0
        self.ended[:] = False

    def teardown(self) -> None:
        if self.env is not None:
            self.env.close()

    def check(self, result: tuple[Any, ...], ids: np.ndarray) -> None:
        obs, infos = result[0], result[-1]
        for agent in self.env.possible_agents:
            shape = self.env.observation_space(agent).shape
            assert obs[agent].shape == (len(ids), *shape)
            assert np.isfinite(obs[agent]).all()
            np.testing.assert_array_equal(infos[agent]["env_id"], ids)
            assert infos[agent]["active"].all()

    @rule()
    def step(self) -> None:
        result = self.env.step(self.env.batched_action_space.sample())
        self.check(result, np.arange(NUM_ENVS))
        expected = np.where(self.ended, 0, self.elapsed + 1)
        info = result[4][self.env.possible_agents[0]]
        np.testing.assert_array_equal(info["elapsed_step"], expected)
        self.elapsed = expected
        self.ended = result[3][self.env.possible_agents[0]].copy()
        np.testing.assert_array_equal(self.ended, self.elapsed == MAX_CYCLES)
        for agent in self.env.possible_agents:
            assert np.isfinite(result[1][agent]).all()
            assert not result[2][agent].any()  # simple_world_comm never terminates

    @rule(
        how=st.sampled_from(
            ["unknown agent", "missing agent", "short", "wrong dtype", "out of range", "not a dict"]
        )
    )
    def bad_step(self, how: str) -> None:
        actions = corrupt(self.env.batched_action_space.sample(), how, self.env.possible_agents)
        with pytest.raises((ValueError, TypeError)):
            self.env.step(actions)

    @rule(ids=st.lists(st.integers(0, NUM_ENVS - 1), min_size=1, max_size=NUM_ENVS, unique=True))
    def partial_reset(self, ids: list[int]) -> None:
        self.check(self.env.reset(env_id=ids), np.asarray(ids))
        self.elapsed[ids] = 0
        self.ended[ids] = False

    @rule(seed=st.integers(0, 1000))
    def seeded_reset_replays(self, seed: int) -> None:
        first, _ = self.env.reset(seed=seed)
        first = {a: v.copy() for a, v in first.items()}
        again, _ = self.env.reset(seed=seed)
        for agent in self.env.possible_agents:
            np.testing.assert_array_equal(first[agent], again[agent])
        self.elapsed[:] = 0
        self.ended[:] = False


MultiAgentMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("ENVPOOL_FUZZ_EXAMPLES", "15")),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMultiAgentMachine = MultiAgentMachine.TestCase
