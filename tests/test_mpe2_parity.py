"""mpe2's scenarios in envpool against mpe2 itself, side by side.

Env i of a pool made with seed=s is mpe2's parallel_env reset with seed s + i; both are
stepped with the same random actions (discrete and continuous), and every agent's
observation, reward, termination and truncation must be equal, bit for bit, over whole
episodes and through autoresets (the reference resets without a seed, continuing its
generator, as the pool's env does). ENVPOOL_MPE2_EPISODES=k runs k episodes per case
(default 2).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import envpool

mpe2 = pytest.importorskip("mpe2")
from mpe2 import (  # noqa: E402  (after the importorskip)
    collect_treasure_v1,
    simple_adversary_v3,
    simple_crypto_v3,
    simple_formation_v1,
    simple_line_v1,
    simple_push_v3,
    simple_reference_v3,
    simple_speaker_listener_v4,
    simple_spread_v3,
    simple_tag_v3,
    simple_v3,
    simple_world_comm_v3,
)

EPISODES = int(os.environ.get("ENVPOOL_MPE2_EPISODES", "2"))

# task id -> (mpe2 module, options of the cases run)
CASES: list[tuple[str, Any, dict[str, Any]]] = [
    ("Simple-v3", simple_v3, {}),
    ("Simple-v3", simple_v3, {"max_cycles": 7}),
    ("SimpleSpread-v3", simple_spread_v3, {}),
    ("SimpleSpread-v3", simple_spread_v3, {"N": 5, "local_ratio": 0.25, "max_cycles": 30}),
    ("SimpleSpread-v3", simple_spread_v3, {"N": 2, "curriculum": True}),
    ("SimpleSpread-v3", simple_spread_v3, {"N": 1, "terminate_on_success": True}),
    ("SimpleAdversary-v3", simple_adversary_v3, {}),
    ("SimpleAdversary-v3", simple_adversary_v3, {"N": 4}),
    ("SimpleCrypto-v3", simple_crypto_v3, {}),
    ("SimplePush-v3", simple_push_v3, {}),
    ("SimpleReference-v3", simple_reference_v3, {}),
    ("SimpleReference-v3", simple_reference_v3, {"local_ratio": 0.1}),
    ("SimpleSpeakerListener-v4", simple_speaker_listener_v4, {}),
    ("SimpleTag-v3", simple_tag_v3, {}),
    ("SimpleTag-v3", simple_tag_v3, {"num_good": 2, "num_adversaries": 2, "num_obstacles": 3}),
    ("SimpleTag-v3", simple_tag_v3, {"curriculum": True, "terminate_on_success": True}),
    ("SimpleWorldComm-v3", simple_world_comm_v3, {}),
    (
        "SimpleWorldComm-v3",
        simple_world_comm_v3,
        {"num_good": 3, "num_adversaries": 2, "num_food": 3, "num_forests": 3},
    ),
    ("SimpleLine-v1", simple_line_v1, {}),
    ("SimpleLine-v1", simple_line_v1, {"N": 7, "terminate_on_success": True}),
    ("SimpleFormation-v1", simple_formation_v1, {}),
    ("SimpleFormation-v1", simple_formation_v1, {"N": 6, "terminate_on_success": True}),
    ("CollectTreasure-v1", collect_treasure_v1, {}),
    (
        "CollectTreasure-v1",
        collect_treasure_v1,
        {"num_collectors": 3, "num_deposits": 3, "num_treasures": 9, "max_cycles": 60},
    ),
]


def random_actions(pool: Any, rng: np.random.Generator) -> dict[str, np.ndarray]:
    actions = {}
    for agent in pool.possible_agents:
        space = pool.action_space(agent)
        if hasattr(space, "n"):
            actions[agent] = rng.integers(0, space.n, pool.num_envs)
        else:
            actions[agent] = rng.random((pool.num_envs, *space.shape), dtype=np.float32)
    return actions


def assert_same_obs(obs: dict[str, np.ndarray], ref_obs: dict[str, np.ndarray], i: int) -> None:
    assert list(ref_obs) == list(obs)
    for agent, value in ref_obs.items():
        np.testing.assert_array_equal(obs[agent][i], value, err_msg=f"env {i} agent {agent}")
        assert value.dtype == obs[agent].dtype


def assert_same_state(pool: Any, ref: Any, i: int) -> None:
    """The pool's global state of env i (state(), a row of the batch) is mpe2's state()."""
    state = pool.state()
    np.testing.assert_array_equal(state[i], ref.state(), err_msg=f"env {i} state")
    assert state.dtype == ref.state().dtype


def run_side_by_side(
    task_id: str, module: Any, options: dict[str, Any], continuous: bool, seed: int = 3
) -> int:
    """Steps a pool of 3 envs and their references for EPISODES episodes; returns the
    number of episode ends seen."""
    num_envs = 3
    pool = envpool.make(
        task_id, num_envs=num_envs, seed=seed, continuous_actions=continuous, **options
    )
    refs = [module.parallel_env(continuous_actions=continuous, **options) for _ in range(num_envs)]
    obs, _ = pool.reset()
    assert pool.state_space == refs[0].state_space
    for i, ref in enumerate(refs):
        ref_obs, _ = ref.reset(seed=seed + i)
        assert_same_obs(obs, ref_obs, i)
        assert_same_state(pool, ref, i)
    rng = np.random.default_rng(seed)
    ended = [False] * num_envs
    ends = 0
    max_cycles = options.get("max_cycles", 25)
    for _ in range(EPISODES * (max_cycles + 1)):
        actions = random_actions(pool, rng)
        obs, rewards, terminations, truncations, _ = pool.step(actions)
        for i, ref in enumerate(refs):
            if ended[i]:  # next_step autoreset: this step reset the env
                ref_obs, _ = ref.reset()
                ref_rewards = dict.fromkeys(ref_obs, 0.0)
                ref_terms = dict.fromkeys(ref_obs, False)
                ref_truncs = dict.fromkeys(ref_obs, False)
            else:
                ref_actions = {a: actions[a][i] for a in ref.agents}
                ref_obs, ref_rewards, ref_terms, ref_truncs, _ = ref.step(ref_actions)
            assert_same_obs(obs, ref_obs, i)
            assert_same_state(pool, ref, i)
            for agent in ref_obs:
                assert rewards[agent][i] == ref_rewards[agent], (i, agent)
                assert terminations[agent][i] == ref_terms[agent], (i, agent)
                assert truncations[agent][i] == ref_truncs[agent], (i, agent)
            ended[i] = any(ref_terms.values()) or any(ref_truncs.values())
            ends += ended[i]
    pool.close()
    return ends


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@pytest.mark.parametrize(
    ("task_id", "module", "options"),
    CASES,
    ids=[f"{t}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for t, _, o in CASES],
)
def test_matches_mpe2(task_id: str, module: Any, options: dict[str, Any], continuous: bool) -> None:
    ends = run_side_by_side(task_id, module, options, continuous)
    assert ends >= 3  # every env went through at least one autoreset


def test_out_of_box_continuous_actions_are_clipped_as_pettingzoo_does() -> None:
    pool = envpool.make("SimpleSpread-v3", num_envs=1, seed=5, continuous_actions=True)
    ref = simple_spread_v3.parallel_env(continuous_actions=True)
    pool.reset()
    ref.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(5):
        actions = {
            a: rng.uniform(-2, 3, (1, *pool.action_space(a).shape)).astype(np.float32)
            for a in pool.possible_agents
        }
        obs, rewards, *_ = pool.step(actions)
        ref_obs, ref_rewards, *_ = ref.step({a: v[0] for a, v in actions.items()})
        assert_same_obs(obs, ref_obs, 0)
        assert all(rewards[a][0] == ref_rewards[a] for a in ref_obs)
