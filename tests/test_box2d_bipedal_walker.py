"""BipedalWalker-v3 and BipedalWalkerHardcore-v3 step for step against gymnasium's own.

Env i of ``envpool.make(task, num_envs=n, seed=s)`` must replay exactly as
``gymnasium.make(task)`` after ``reset(seed=s + i)`` given the same float32 actions:
the terrain, clouds and the initial push on the hull all come from the same numpy
generator, the physics is the same Box2D 2.3 engine, so observations, rewards and
flags agree bit for bit, across time limits and autoresets (gymnasium's later
``reset()`` calls continue the generator).

gymnasium's torque cost subtracts numpy float32 values from a Python float, which
numpy 2 (NEP 50) keeps in float32; envpool follows numpy 2. Under numpy 1.x the
rewards are compared within 1e-4 instead.

ENVPOOL_SLOW_TESTS=1 adds more seeds and longer runs.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics

import envpool

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.cpu_sensitive]

TASKS = ["BipedalWalker-v3", "BipedalWalkerHardcore-v3"]
SLOW = os.environ.get("ENVPOOL_SLOW_TESTS") == "1"
NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"
SEEDS = [0, 1, 2, 3, 4, 5] if SLOW else [0, 3]
NUM_ENVS = 3


def assert_same_step(ours: tuple[Any, ...], theirs: tuple[Any, ...], where: str) -> None:
    obs, reward, terminated, truncated = ours
    g_obs, g_reward, g_terminated, g_truncated = theirs
    assert g_obs.dtype == np.float32
    np.testing.assert_array_equal(obs, g_obs, err_msg=where)
    if NUMPY_1:
        assert reward == pytest.approx(float(g_reward), abs=1e-4), where
    else:
        assert reward == float(g_reward), where
    assert (bool(terminated), bool(truncated)) == (g_terminated, g_truncated), where


class Heuristic:
    """gymnasium's scripted walker, one per env, restarted with each episode."""

    def __init__(self, num_envs: int) -> None:
        self.walkers = [BipedalWalkerHeuristics() for _ in range(num_envs)]

    def actions(self, obs: np.ndarray) -> np.ndarray:
        return np.stack(
            [w.step_heuristic(o).astype(np.float32) for w, o in zip(self.walkers, obs, strict=True)]
        )

    def restart(self, i: int) -> None:
        self.walkers[i] = BipedalWalkerHeuristics()


def run_side_by_side(
    task: str,
    seed: int,
    steps: int,
    policy: str,
    max_episode_steps: int | None = None,
) -> dict[str, int]:
    """Steps envpool and gymnasium together; returns how the episodes ended."""
    pool = envpool.make(task, num_envs=NUM_ENVS, seed=seed, max_episode_steps=max_episode_steps)
    kwargs = {} if max_episode_steps is None else {"max_episode_steps": max_episode_steps}
    gyms = [gym.make(task, **kwargs) for _ in range(NUM_ENVS)]
    obs, _ = pool.reset()
    g_obs = np.stack([env.reset(seed=seed + i)[0] for i, env in enumerate(gyms)])
    np.testing.assert_array_equal(obs, g_obs)
    rng = np.random.default_rng(seed)
    heuristic = Heuristic(NUM_ENVS)
    ended = {"terminated": 0, "truncated": 0, "success": 0}
    needs_reset = [False] * NUM_ENVS
    for t in range(steps):
        if policy == "random":
            actions = rng.uniform(-1, 1, size=(NUM_ENVS, 4)).astype(np.float32)
        else:
            actions = heuristic.actions(obs)
        obs, rewards, terminated, truncated, _ = pool.step(actions)
        for i, env in enumerate(gyms):
            if needs_reset[i]:  # envpool's next-step autoreset
                theirs = (env.reset()[0], 0.0, False, False)
                needs_reset[i] = False
                heuristic.restart(i)
            else:
                g_obs_i, g_reward, g_term, g_trunc, _ = env.step(actions[i])
                theirs = (g_obs_i, g_reward, g_term, g_trunc)
                if g_term or g_trunc:
                    needs_reset[i] = True
                    ended["terminated"] += g_term
                    ended["truncated"] += g_trunc
                    ended["success"] += g_term and g_reward != -100
            ours = (obs[i], rewards[i], terminated[i], truncated[i])
            assert_same_step(ours, theirs, f"{task} seed {seed} env {i} step {t}")
    pool.close()
    return ended


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task: str) -> None:
    pool = envpool.make(task, num_envs=2)
    reference = gym.make(task)
    assert pool.single_observation_space == reference.observation_space
    assert pool.single_action_space == reference.action_space
    assert pool.single_observation_space.dtype == np.float32
    assert pool.single_action_space.dtype == np.float32
    assert pool.metadata["render_fps"] == reference.metadata["render_fps"]
    assert pool.spec.max_episode_steps == reference.spec.max_episode_steps
    obs, _ = pool.reset()
    assert obs.shape == (2, 24) and obs.dtype == np.float32
    pool.close()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("task", TASKS)
def test_random_actions_match_gymnasium(task: str, seed: int) -> None:
    ended = run_side_by_side(task, seed, 2000 if SLOW else 700, "random")
    assert ended["terminated"] >= 1  # random walkers fall: autoresets were replayed


@pytest.mark.parametrize("task", TASKS)
def test_time_limit_and_autoreset_match_gymnasium(task: str) -> None:
    ended = run_side_by_side(task, 11, 130, "random", max_episode_steps=40)
    assert ended["truncated"] >= 3


@pytest.mark.parametrize("task", TASKS)
def test_scripted_walker_matches_gymnasium(task: str) -> None:
    # The heuristic walks far over the terrain (and into hardcore's obstacles),
    # so legs touch and leave the ground and the lidar sees every kind of fixture.
    ended = run_side_by_side(task, 5, 1200 if SLOW else 500, "heuristic")
    if task == "BipedalWalkerHardcore-v3":
        assert ended["terminated"] >= 1


def test_reaching_the_end_matches_gymnasium() -> None:
    # gymnasium's heuristic crosses the whole normal terrain from seed 0 in 1649
    # steps, past the 1600-step limit: lift the limit on both sides.
    pool = envpool.make("BipedalWalker-v3", num_envs=1, seed=0, max_episode_steps=3000)
    reference = gym.make("BipedalWalker-v3", max_episode_steps=3000)
    obs, _ = pool.reset()
    g_obs, _ = reference.reset(seed=0)
    np.testing.assert_array_equal(obs[0], g_obs)
    walker = BipedalWalkerHeuristics()
    for t in range(3000):
        action = walker.step_heuristic(g_obs).astype(np.float32)
        obs, reward, terminated, truncated, _ = pool.step(action[None])
        g_obs, g_reward, g_terminated, g_truncated, _ = reference.step(action)
        assert_same_step(
            (obs[0], reward[0], terminated[0], truncated[0]),
            (g_obs, g_reward, g_terminated, g_truncated),
            f"step {t}",
        )
        if g_terminated or g_truncated:
            break
    assert g_terminated
    if np.lib.NumpyVersion(np.__version__) >= "2.0.0":
        # The heuristic's own numpy arithmetic differs slightly under numpy 1.x, where
        # this walk falls before the end (envpool still matches gymnasium step for step).
        assert g_reward != -100  # reached the far end, did not fall
    pool.close()


@pytest.mark.parametrize("task", TASKS)
def test_seeded_reset_replays_gymnasium(task: str) -> None:
    # A reset refills the same Box2D world, whose broadphase remembers earlier
    # episodes (proxy ids, and so contact and ray-cast order), so gymnasium
    # replays a seeded reset only from the same history: one episode first.
    pool = envpool.make(task, num_envs=2, seed=100)
    gyms = [gym.make(task) for _ in range(2)]
    rng = np.random.default_rng(0)
    pool.reset()
    for i, env in enumerate(gyms):
        env.reset(seed=100 + i)
    for _ in range(30):
        actions = rng.uniform(-1, 1, size=(2, 4)).astype(np.float32)
        pool.step(actions)
        for i, env in enumerate(gyms):
            env.step(actions[i])
    obs, _ = pool.reset(seed=[7, 8])
    g_obs = np.stack([env.reset(seed=7 + i)[0] for i, env in enumerate(gyms)])
    np.testing.assert_array_equal(obs, g_obs)
    running = [True, True]
    for t in range(200):
        actions = rng.uniform(-1, 1, size=(2, 4)).astype(np.float32)
        obs, rewards, terminated, truncated, _ = pool.step(actions)
        for i, env in enumerate(gyms):
            if not running[i]:
                continue
            g_obs_i, g_reward, g_term, g_trunc, _ = env.step(actions[i])
            assert_same_step(
                (obs[i], rewards[i], terminated[i], truncated[i]),
                (g_obs_i, g_reward, g_term, g_trunc),
                f"env {i} step {t}",
            )
            running[i] = not (g_term or g_trunc)
    pool.close()


def test_hardcore_option_selects_the_hardcore_terrain() -> None:
    plain = envpool.make("BipedalWalker-v3", num_envs=1, seed=3, hardcore=True)
    hardcore = envpool.make("BipedalWalkerHardcore-v3", num_envs=1, seed=3)
    reference = gym.make("BipedalWalker-v3", hardcore=True)
    normal = envpool.make("BipedalWalker-v3", num_envs=1, seed=3)
    obs = plain.reset()[0]
    np.testing.assert_array_equal(obs, hardcore.reset()[0])
    # The obstacles take extra draws before the hull's initial push.
    assert not np.array_equal(obs, normal.reset()[0])
    np.testing.assert_array_equal(obs[0], reference.reset(seed=3)[0])
    actions = np.full((1, 4), 0.5, dtype=np.float32)
    for _ in range(20):
        obs = plain.step(actions)[0]
        np.testing.assert_array_equal(obs, hardcore.step(actions)[0])
        np.testing.assert_array_equal(obs[0], reference.step(actions[0])[0])
    assert hardcore.spec.max_episode_steps == 2000


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"hardcore": "yes"}, "hardcore"),
        ({"hardcore": 1}, "hardcore"),
        ({"hardcore": None}, "hardcore"),
        ({"continuous": True}, "continuous"),
    ],
)
def test_bad_options_are_rejected(options: dict[str, Any], message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        envpool.make("BipedalWalker-v3", num_envs=1, **options)
