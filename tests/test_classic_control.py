"""The classic-control envs step for step against gymnasium's own.

Each envpool env's reset state (``info["state"]``, the exact float64 physics
state) is injected into a gymnasium env made with ``gymnasium.make``; both then
take the same actions through whole episodes, time limits and autoresets
included, and must agree bit for bit on state, observation, reward and flags.

One exception: Pendulum and MountainCarContinuous combine float32 actions with
Python floats, which numpy 2 (NEP 50) keeps in float32 and numpy 1.x promotes to
float64, so gymnasium's own numbers depend on the numpy version. envpool follows
numpy 2; under numpy 1.x those two tasks are compared one step at a time
(gymnasium restarted from our state before each step) within 1e-5 instead.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import envpool

pytestmark = [
    pytest.mark.filterwarnings("ignore:.*out of date:DeprecationWarning"),
    pytest.mark.numpy_sensitive,
    pytest.mark.cpu_sensitive,
]

TASKS = [
    "CartPole-v0",
    "CartPole-v1",
    "Pendulum-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
]

# The range gymnasium's reset draws each state component from, uniformly
# (low == high: a constant).
RESET_RANGES = {
    "CartPole-v0": [(-0.05, 0.05)] * 4,
    "CartPole-v1": [(-0.05, 0.05)] * 4,
    "Pendulum-v1": [(-np.pi, np.pi), (-1.0, 1.0)],
    "MountainCar-v0": [(-0.6, -0.4), (0.0, 0.0)],
    "MountainCarContinuous-v0": [(-0.6, -0.4), (0.0, 0.0)],
    "Acrobot-v1": [(-0.1, 0.1)] * 4,
}


# Tasks whose gymnasium results differ between numpy 1.x and 2.x (see above).
PROMOTION_DEPENDENT = {"Pendulum-v1", "MountainCarContinuous-v0"}
NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"


def gym_state(task: str, state: np.ndarray) -> np.ndarray:
    """Our state in the form gymnasium's reset leaves it."""
    if task == "Acrobot-v1":
        return state.astype(np.float32)  # Acrobot's reset state is float32
    return np.array(state, dtype=np.float64)


def gym_obs(task: str, env: Any) -> np.ndarray:
    """The observation gymnasium's reset would return for the current state."""
    if task == "Pendulum-v1":
        return env._get_obs()
    if task == "Acrobot-v1":
        return env._get_ob()
    return np.array(env.state, dtype=np.float32)


def heuristic(task: str, state: np.ndarray, rng: np.random.Generator, space: Any) -> Any:
    """A simple controller that reaches the goal (or, for CartPole, the time limit)."""
    if task.startswith("CartPole"):
        return int(state[2] + 0.5 * state[3] > 0)
    if task == "MountainCar-v0":
        return 2 if state[1] > 0 else 0
    if task == "Acrobot-v1":
        return 2 if state[3] > 0 else 0
    # Pendulum and MountainCarContinuous: push along the velocity.
    sign = 1.0 if state[1] >= 0 else -1.0
    return np.array([sign * rng.uniform(0, 1.5 * space.high[0])], dtype=np.float32)


def random_action(rng: np.random.Generator, space: Any) -> Any:
    """A uniform action; a Box one may lie outside the space."""
    if isinstance(space, gym.spaces.Discrete):
        return int(rng.integers(space.n))
    # Up to 1.5x past the bounds, to exercise the env's own clipping.
    action = rng.uniform(1.5 * space.low, 1.5 * space.high).astype(np.float32)
    if rng.random() < 0.05:
        action = rng.choice([space.low, space.high]).astype(np.float32)
    return action


def run_lockstep(task: str, seed: int, num_envs: int, num_steps: int, **options: Any) -> Counter:
    """Steps envpool and gymnasium side by side; returns how episodes ended.

    Odd env ids follow a heuristic (mostly), even ones act at random, so that
    both terminations and truncations occur.
    """
    env = envpool.make(task, num_envs=num_envs, seed=seed, **options)
    with env:
        return _lockstep(env, task, seed, num_envs, num_steps, **options)


def _lockstep(
    env: Any, task: str, seed: int, num_envs: int, num_steps: int, **options: Any
) -> Counter:
    space = env.single_action_space
    refs = [gym.make(task, disable_env_checker=True, **options) for _ in range(num_envs)]
    rng = np.random.default_rng(seed)
    ids = np.arange(num_envs)
    counts: Counter = Counter()

    def sync(i: int, obs: np.ndarray, info: dict) -> None:
        refs[i].reset(seed=seed + i)
        refs[i].unwrapped.state = gym_state(task, info["state"][i])
        expected = gym_obs(task, refs[i].unwrapped)
        if task == "Acrobot-v1":
            # gymnasium takes cos/sin of the float32 reset state with numpy's
            # float32 kernels, which are not always correctly rounded.
            np.testing.assert_allclose(obs[i], expected, rtol=0, atol=1e-7)
        else:
            assert np.array_equal(obs[i], expected), (i, obs[i], expected)
        assert info["elapsed_step"][i] == 0

    obs, info = env.reset()
    np.testing.assert_array_equal(info["env_id"], ids)
    for i in range(num_envs):
        sync(i, obs, info)
    ended = np.zeros(num_envs, dtype=bool)
    elapsed = np.zeros(num_envs, dtype=np.int64)

    for t in range(num_steps):
        state = info["state"]
        actions = [
            heuristic(task, state[i], rng, space)
            if i % 2 == 1 and rng.random() >= 0.1
            else random_action(rng, space)
            for i in range(num_envs)
        ]
        obs, reward, terminated, truncated, info = env.step(np.stack(actions))
        np.testing.assert_array_equal(info["env_id"], ids)
        for i in range(num_envs):
            where = f"{task} seed={seed} env={i} step={t}"
            if ended[i]:  # next_step autoreset: this step only reset env i
                assert reward[i] == 0.0, where
                assert not terminated[i] and not truncated[i], where
                sync(i, obs, info)
                ended[i] = False
                elapsed[i] = 0
                continue
            legacy = NUMPY_1 and task in PROMOTION_DEPENDENT
            if legacy:  # compare single steps: the two numpy versions drift apart
                dtype = np.asarray(refs[i].unwrapped.state).dtype
                refs[i].unwrapped.state = np.asarray(state[i], dtype=dtype)
            g_obs, g_reward, g_term, g_trunc, _ = refs[i].step(actions[i])
            elapsed[i] += 1
            g_state = np.asarray(refs[i].unwrapped.state, dtype=np.float64)
            if legacy:
                np.testing.assert_allclose(info["state"][i], g_state, atol=1e-5, err_msg=where)
                np.testing.assert_allclose(obs[i], g_obs, atol=1e-5, err_msg=where)
                np.testing.assert_allclose(reward[i], g_reward, rtol=1e-5, err_msg=where)
            else:
                assert np.array_equal(info["state"][i], g_state), (where, info["state"][i], g_state)
                assert np.array_equal(obs[i], g_obs), (where, obs[i], g_obs)
                assert reward[i] == g_reward, (where, reward[i], g_reward)
            assert terminated[i] == g_term, where
            assert truncated[i] == g_trunc, where
            assert info["elapsed_step"][i] == elapsed[i], where
            ended[i] = g_term or g_trunc
            counts["terminated"] += bool(g_term)
            counts["truncated"] += bool(g_trunc)
    return counts


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task):
    with envpool.make(task, num_envs=1) as env:
        spaces = env.single_observation_space, env.single_action_space
    ref = gym.make(task)
    for ours, theirs in [
        (spaces[0], ref.observation_space),
        (spaces[1], ref.action_space),
    ]:
        assert ours == theirs
        assert type(ours) is type(theirs)
        assert ours.dtype == theirs.dtype
        if isinstance(theirs, gym.spaces.Box):
            assert ours.shape == theirs.shape
            np.testing.assert_array_equal(ours.low, theirs.low)
            np.testing.assert_array_equal(ours.high, theirs.high)
        else:
            assert (ours.n, ours.start) == (theirs.n, theirs.start)


@pytest.mark.parametrize("task", TASKS)
def test_episodes_match_gymnasium(task):
    steps = gym.spec(task).max_episode_steps + 20  # every env ends and resets
    counts = Counter()
    for seed in (0, 7):
        counts += run_lockstep(task, seed, num_envs=4, num_steps=steps)
    assert counts["truncated"] > 0
    if task != "Pendulum-v1":  # Pendulum never terminates
        assert counts["terminated"] > 0


@pytest.mark.parametrize(
    ("task", "options"),
    [
        ("CartPole-v1", {"sutton_barto_reward": True}),
        ("Pendulum-v1", {"g": 9.81}),
        ("MountainCar-v0", {"goal_velocity": 0.01}),
        ("MountainCarContinuous-v0", {"goal_velocity": 0.02}),
    ],
)
def test_options_match_gymnasium(task, options):
    counts = run_lockstep(task, seed=3, num_envs=2, num_steps=250, **options)
    assert sum(counts.values()) > 0


@pytest.mark.parametrize("task", TASKS)
def test_initial_state_distribution(task):
    n = 2000
    ranges = RESET_RANGES[task]
    with envpool.make(task, num_envs=n, seed=11) as env:
        _, info = env.reset()
        ours = info["state"].copy()
    assert ours.shape == (n, len(ranges))

    ref = gym.make(task).unwrapped
    theirs = []
    for seed in range(n):
        ref.reset(seed=seed)
        theirs.append(np.asarray(ref.state, dtype=np.float64))
    theirs = np.array(theirs)

    if task == "Acrobot-v1":  # gymnasium keeps this state in float32
        np.testing.assert_array_equal(ours, ours.astype(np.float32))
    for k, (low, high) in enumerate(ranges):
        col, ref_col = ours[:, k], theirs[:, k]
        if low == high:
            assert np.all(col == low) and np.all(ref_col == low)
            continue
        width = high - low
        if task == "Acrobot-v1":  # rounding to float32 can reach float32(+-0.1)
            assert np.float32(low) <= col.min() and col.max() <= np.float32(high)
        else:
            assert low <= col.min() and col.max() <= high
        assert col.min() < low + 0.01 * width and col.max() > high - 0.01 * width
        assert len(np.unique(col)) > 0.99 * n
        sigma = width / np.sqrt(12)
        assert abs(col.mean() - (low + high) / 2) < 5 * sigma / np.sqrt(n)
        assert abs(col.mean() - ref_col.mean()) < 5 * sigma * np.sqrt(2 / n)
        assert 0.93 < col.std() / sigma < 1.07
        assert 0.9 < col.std() / ref_col.std() < 1.1
