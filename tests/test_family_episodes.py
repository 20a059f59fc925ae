"""One short episode of every family, through autoreset: the same seed and actions
give the same trajectory, every observation lies in its space, and each episode
ends by the time limit. The families come from the registry, so a new family is
covered without editing this file. CI also runs this under AddressSanitizer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

import envpool
from envpool.registry import list_families

pytestmark = [pytest.mark.asan, pytest.mark.numpy_sensitive]

TIME_LIMIT = 20
STEPS = 2 * TIME_LIMIT + 5


def _first_task_of_each_family() -> list[str]:
    return [tasks[0] for _, tasks in sorted(list_families().items())]


def _rollout(task_id: str, actions: list[np.ndarray]) -> list[tuple[np.ndarray, ...]]:
    env = envpool.make(task_id, num_envs=2, seed=11, max_episode_steps=TIME_LIMIT)
    try:
        obs, info = env.reset()
        assert env.single_observation_space.contains(_row(obs, 0, env.single_observation_space))
        trajectory = []
        for action in actions:
            obs, reward, terminated, truncated, info = _per_env(env, env.step(action))
            for i in range(env.num_envs):
                assert env.single_observation_space.contains(
                    _row(obs, i, env.single_observation_space)
                ), task_id
            assert np.all(info["elapsed_step"] <= TIME_LIMIT)
            leaves = [np.array(x) for x in _leaves(obs)]
            trajectory.append((*leaves, np.array(reward), terminated.copy(), truncated.copy()))
        return trajectory
    finally:
        env.close()


def _per_env(env: object, result: tuple) -> tuple:
    """A multi-agent pool's step (dicts keyed by agent) as one value per env: every
    agent's reward, whether any agent's episode ended, and the first agent's info."""
    if not hasattr(env, "possible_agents"):
        return result
    obs, rewards, terminations, truncations, infos = result
    terminated = np.any(list(terminations.values()), axis=0)
    truncated = np.any(list(truncations.values()), axis=0)
    reward = np.stack(list(rewards.values()), axis=1)
    return obs, reward, terminated, truncated, infos[env.possible_agents[0]]


def _leaves(obs: object) -> list[np.ndarray]:
    if isinstance(obs, dict):
        return [leaf for key in obs for leaf in _leaves(obs[key])]
    if isinstance(obs, tuple):
        return [leaf for part in obs for leaf in _leaves(part)]
    return [np.asarray(obs)]


def _row(obs: Any, i: int, space: spaces.Space) -> object:
    """Env i's observation; the space tells a Tuple's elements from a Text's batch
    (both are Python tuples)."""
    if isinstance(space, spaces.Dict):
        return {key: _row(value, i, space[key]) for key, value in obs.items()}
    if isinstance(space, spaces.Tuple):
        return tuple(_row(part, i, sub) for part, sub in zip(obs, space, strict=True))
    if isinstance(space, spaces.Text):
        return obs[i]
    return np.asarray(obs)[i]


def test_every_family_is_covered() -> None:
    assert len(_first_task_of_each_family()) >= 6


@pytest.mark.parametrize("task_id", _first_task_of_each_family())
def test_one_episode_through_autoreset_is_reproducible(task_id: str) -> None:
    probe = envpool.make(task_id, num_envs=2)
    # a multi-agent pool's action_space(agent) is one agent's (PettingZoo's form)
    action_space = getattr(probe, "batched_action_space", probe.action_space)
    action_space.seed(5)
    actions = [action_space.sample() for _ in range(STEPS)]
    probe.close()
    first = _rollout(task_id, actions)
    second = _rollout(task_id, actions)
    ended = np.zeros(2, dtype=bool)
    for step, (a, b) in enumerate(zip(first, second, strict=True)):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y, err_msg=f"{task_id} differs at step {step}")
        terminated, truncated = a[-2], a[-1]
        ended |= terminated | truncated
        if step + 1 == TIME_LIMIT:
            assert ended.all(), f"{task_id}: an episode ran past max_episode_steps"
