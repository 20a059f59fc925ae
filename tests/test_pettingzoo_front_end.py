"""envpool.make_pettingzoo: one env of a multi-agent task as a pettingzoo.ParallelEnv,
checked by PettingZoo's own parallel_api_test and parallel_seed_test, and equal to mpe2's
parallel_env over whole episodes."""

from __future__ import annotations

import importlib

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
