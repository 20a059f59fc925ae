"""envpool.make_pettingzoo: one env of a multi-agent task as a pettingzoo.ParallelEnv,
checked by PettingZoo's own parallel_api_test and parallel_seed_test, and equal to mpe2's
parallel_env over whole episodes."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pytest

import envpool
from envpool.families.mpe2.tasks import MPE2_MODULES

pytest.importorskip("pettingzoo")
pytest.importorskip("mpe2")
from pettingzoo.test import parallel_api_test, parallel_seed_test


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@pytest.mark.parametrize("task_id", sorted(MPE2_MODULES))
def test_pettingzoo_api_and_seed_tests_pass(task_id: str, continuous: bool) -> None:
    env = envpool.make_pettingzoo(task_id, continuous_actions=continuous)
    parallel_api_test(env, num_cycles=60)
    env.close()
    parallel_seed_test(
        lambda: envpool.make_pettingzoo(task_id, continuous_actions=continuous), num_cycles=60
    )


@pytest.mark.parametrize("task_id", ["SimpleSpread-v3", "SimpleWorldComm-v3"])
def test_equals_mpe2_parallel_env(task_id: str) -> None:
    ref = importlib.import_module(f"mpe2.{MPE2_MODULES[task_id]}").parallel_env(max_cycles=10)
    env = envpool.make_pettingzoo(task_id, max_cycles=10)
    for seed in (3, None, 4):
        obs, infos = env.reset(seed=seed)
        ref_obs, ref_infos = ref.reset(seed=seed)
        assert infos == ref_infos
        for agent in ref_obs:
            np.testing.assert_array_equal(obs[agent], ref_obs[agent])
        assert env.state_space == ref.state_space
        np.testing.assert_array_equal(env.state(), ref.state())
        rng = np.random.default_rng(seed)
        while ref.agents:
            assert env.agents == ref.agents
            actions = {a: rng.integers(0, ref.action_space(a).n) for a in ref.agents}
            result = env.step(actions)
            expected = ref.step(actions)
            for got, want in zip(result, expected, strict=True):
                assert list(got) == list(want)
                for agent in want:
                    np.testing.assert_array_equal(got[agent], want[agent])
            state = env.state()  # a copy (PettingZoo's state() is one): the next step keeps it
            np.testing.assert_array_equal(state, ref.state())
        assert env.agents == []


def test_refuses_what_it_cannot_do() -> None:
    with pytest.raises(TypeError, match="takes no num_envs"):
        envpool.make_pettingzoo("SimpleSpread-v3", num_envs=2)
    with pytest.raises(ValueError, match="not a multi-agent task"):
        envpool.make_pettingzoo("CartPole-v1")
    env = envpool.make_pettingzoo("Simple-v3", max_cycles=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agents"):
        env.step({"agent_0": 0, "agent_7": 1})
    env.step({"agent_0": 0})
    assert env.agents == []
    with pytest.raises(envpool.CallOrderError, match="call reset"):
        env.step({"agent_0": 0})
    env.close()


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda a: {**a, "agent_0": np.zeros(4, np.float32)}, ValueError, "shape (5,), got (4,)"),
        (lambda a: {**a, "agent_0": a["agent_0"][None]}, ValueError, "shape (5,), got (1, 5)"),
        (lambda a: {**a, "agent_0": np.zeros(5, np.int64)}, TypeError, "float dtype"),
        (lambda a: {**a, "agent_0": np.full(5, np.nan, np.float32)}, ValueError, "not finite"),
        (lambda a: {**a, "agent_7": a["agent_0"]}, ValueError, "unknown agents ['agent_7']"),
        (lambda a: list(a.values()), TypeError, "dict keyed by agent name"),
    ],
    ids=["short", "batch-axis", "integer", "nan", "unknown-agent", "not-a-dict"],
)
def test_bad_continuous_actions_raise_and_the_env_stays_usable(change, error, words) -> None:
    env = envpool.make_pettingzoo("SimpleSpread-v3", seed=0, continuous_actions=True)
    env.reset(seed=0)
    actions = {a: np.full(5, 0.5, np.float32) for a in env.agents}
    with pytest.raises(error, match=re.escape(words)):
        env.step(change(actions))
    obs, *_ = env.step(actions)
    assert obs["agent_0"].shape == (18,)
    env.close()


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        (np.array([1, 2]), ValueError, "shape (), got (2,)"),
        (np.array([1]), ValueError, "shape (), got (1,)"),
        (7, ValueError, "action 7 of agent 'agent_1' is out of range [0, 4]"),
        (1.0, TypeError, "integer dtype"),
    ],
    ids=["two", "batch-axis", "out-of-range", "float"],
)
def test_bad_discrete_actions_raise_and_the_env_stays_usable(action, error, words) -> None:
    env = envpool.make_pettingzoo("SimpleSpread-v3", seed=0)
    env.reset(seed=0)
    with pytest.raises(error, match=re.escape(words)):
        env.step({**dict.fromkeys(env.agents, 1), "agent_1": action})
    env.step(dict.fromkeys(env.agents, 1))
    env.close()


def test_actions_for_agents_that_have_left_are_refused() -> None:
    """An action for an agent no longer in ``agents`` raises. mpe2's agents all leave
    together (and then step() needs a reset), so one agent is taken out by hand here."""
    env = envpool.make_pettingzoo("SimpleSpread-v3", seed=0)
    env.reset(seed=0)
    everyone = dict.fromkeys(env.possible_agents, 1)
    env.agents = env.possible_agents[:2]
    with pytest.raises(ValueError, match=re.escape("agents ['agent_2'] have left the env")):
        env.step(everyone)
    env.step({a: 1 for a in env.agents})
    env.close()
