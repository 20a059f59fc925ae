"""SuperSuit's PettingZoo-to-vector recipe over envpool's PettingZoo env (issue #43):
``concat_vec_envs_v1(pettingzoo_env_to_vec_env_v1(env), n, ...)`` copies the env with
cloudpickle, which envpool's env allows by pickling as its task id and options (as mpe2's
envs pickle as their constructor's arguments). The pipeline then steps exactly as the same
pipeline over mpe2 does, in this process and with worker processes."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import envpool

ss = pytest.importorskip("supersuit")
pytest.importorskip("mpe2")
pytestmark = pytest.mark.integration


def _pipeline(env, num_cpus: int = 0):
    vec = ss.pettingzoo_env_to_vec_env_v1(env)
    return ss.concat_vec_envs_v1(vec, 3, num_cpus=num_cpus, base_class="gymnasium")


def test_the_env_pickles_as_its_task_and_options() -> None:
    env = envpool.make_pettingzoo("SimpleSpread-v3", seed=3, N=2, local_ratio=0.25)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.possible_agents == ["agent_0", "agent_1"]
    assert copy.observation_spaces == env.observation_spaces
    first, _ = env.reset()
    again, _ = copy.reset()  # the same seed: the same first episode
    for agent in env.possible_agents:
        np.testing.assert_array_equal(first[agent], again[agent])
    env.close()
    copy.close()


@pytest.mark.parametrize("num_cpus", [0, 2])
def test_supersuit_pipeline_steps_as_over_mpe2(num_cpus: int) -> None:
    from mpe2 import simple_spread_v3

    ours = _pipeline(envpool.make_pettingzoo("SimpleSpread-v3"), num_cpus)
    theirs = _pipeline(simple_spread_v3.parallel_env(), num_cpus)
    try:
        obs, _ = ours.reset(seed=5)
        ref, _ = theirs.reset(seed=5)
        np.testing.assert_array_equal(obs, ref)
        rng = np.random.default_rng(0)
        for _ in range(60):  # through the episodes' ends at 25 cycles
            actions = rng.integers(0, 5, size=ours.num_envs)
            for got, want in zip(ours.step(actions)[:4], theirs.step(actions)[:4], strict=True):
                np.testing.assert_array_equal(got, want)
    finally:
        ours.close()
        theirs.close()
