"""LunarLander-v3 and LunarLanderContinuous-v3 replay gymnasium's episodes bit for bit.

Env i of a pool made with seed s is gymnasium's env after reset(seed=s + i): the
terrain, the initial push, the wind offsets and every step's engine dispersion
are the same numpy draws, and Box2D is the same engine with the same float32
inputs, so observations and rewards are equal, not close.
"""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest

import envpool

pytest.importorskip("Box2D", reason="gymnasium's LunarLander needs the box2d package")
from gymnasium.envs.box2d.lunar_lander import heuristic

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.cpu_sensitive]

NUM_ENVS = 3


def run_side_by_side(task, options, steps, seed, policy, render=False):
    """Steps a pool and gymnasium envs on the same actions; returns the rewards seen.
    render=True renders gymnasium's envs after every step (which adds its particles)."""
    env = envpool.make(task, num_envs=NUM_ENVS, seed=seed, **options)
    render_mode = "rgb_array" if render else None
    refs = [gym.make(task, render_mode=render_mode, **options) for _ in range(NUM_ENVS)]
    obs, _ = env.reset()
    ref_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
    np.testing.assert_array_equal(obs, np.stack(ref_obs))
    rewards = []
    restart = [False] * NUM_ENVS
    for t in range(steps):
        actions = policy(t, obs)
        obs, reward, terminated, truncated, _ = env.step(actions)
        for i, ref in enumerate(refs):
            if restart[i]:  # envpool resets on the step after an episode ends
                expected, expected_reward, expected_term, expected_trunc = (
                    ref.reset()[0],
                    0.0,
                    False,
                    False,
                )
                restart[i] = False
            else:
                expected, expected_reward, expected_term, expected_trunc, info = ref.step(
                    actions[i]
                )
                assert info == {}
            assert np.array_equal(obs[i], expected), (t, i, obs[i], expected)
            assert reward[i] == expected_reward, (t, i)
            assert (terminated[i], truncated[i]) == (expected_term, expected_trunc), (t, i)
            restart[i] = expected_term or expected_trunc
            rewards.append(float(reward[i]))
            if render:
                ref.render()
    env.close()
    return rewards


def random_policy(continuous: bool, seed: int = 0):
    rng = np.random.default_rng(seed)

    def policy(_t, _obs):
        if continuous:
            return rng.uniform(-1.2, 1.2, (NUM_ENVS, 2)).astype(np.float32)
        return rng.integers(0, 4, NUM_ENVS)

    return policy


@pytest.mark.parametrize("task", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_spaces_and_metadata_match_gymnasium(task):
    ref = gym.make(task)
    spec = envpool.make_spec(task)
    assert spec.observation_space == ref.observation_space
    assert spec.action_space == ref.action_space
    assert spec.max_episode_steps == ref.spec.max_episode_steps == 1000
    with envpool.make(task, num_envs=1) as env:
        assert env.metadata["render_fps"] == ref.metadata["render_fps"]


@pytest.mark.parametrize(
    ("task", "options", "seed"),
    [
        ("LunarLander-v3", {}, 0),
        ("LunarLander-v3", {"gravity": -3.5}, 17),
        ("LunarLander-v3", {"enable_wind": True, "turbulence_power": 2.0}, 5),
        ("LunarLanderContinuous-v3", {}, 1),
        ("LunarLanderContinuous-v3", {"enable_wind": True, "wind_power": 20.0}, 9),
        ("LunarLander-v3", {"continuous": True}, 3),
    ],
)
def test_random_episodes_equal_gymnasium(task, options, seed):
    continuous = task.startswith("LunarLanderContinuous") or options.get("continuous", False)
    rewards = run_side_by_side(task, options, 400, seed, random_policy(continuous, seed))
    assert -100.0 in rewards  # random flying crashes: the crash path is covered


@pytest.mark.parametrize("task", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_heuristic_landings_equal_gymnasium(task):
    # gymnasium's own heuristic lands the craft, so the legs' contacts and the
    # +100 for coming to rest are covered.
    def policy(_t, obs):
        actions = [heuristic(gym.make(task).unwrapped, o) for o in obs]
        return np.asarray(actions, dtype=np.float32 if "Continuous" in task else np.int64)

    rewards = run_side_by_side(task, {}, 700, 21, policy)
    assert 100.0 in rewards


def test_gymnasium_particles_do_not_change_the_motion(monkeypatch):
    # gymnasium simulates exhaust particles only when it renders; a pool made
    # without render_mode="rgb_array" does not. They collide with the ground only,
    # so the lander's motion is the same either way.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pytest.importorskip("pygame")
    run_side_by_side("LunarLander-v3", {}, 200, 4, random_policy(False, 4), render=True)


def test_seed_changes_the_terrain_and_reset_seed_replays():
    env = envpool.make("LunarLander-v3", num_envs=2, seed=0)
    first, _ = env.reset()
    assert not np.array_equal(first[0], first[1])
    again, _ = env.reset(seed=[0, 1])
    np.testing.assert_array_equal(first, again)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("gravity", 0.0),
        ("gravity", -12.0),
        ("gravity", math.nan),
        ("wind_power", 20.5),
        ("wind_power", -1.0),
        ("wind_power", math.nan),
        ("turbulence_power", 2.5),
        ("turbulence_power", math.inf),
    ],
)
def test_bad_options_name_the_option(option, value):
    with pytest.raises(ValueError, match=option):
        envpool.make("LunarLander-v3", num_envs=2, **{option: value})
    with envpool.make("LunarLander-v3", num_envs=2) as env:  # the process is fine
        env.reset()
        env.step(np.zeros(2, dtype=np.int64))


def test_mixed_continuous_per_env_is_refused():
    with pytest.raises(ValueError, match="continuous"):
        envpool.make("LunarLander-v3", num_envs=2, continuous=[True, False])


def test_nan_action_is_refused_and_the_pool_stays_usable():
    with envpool.make("LunarLanderContinuous-v3", num_envs=2) as env:
        env.reset(seed=0)
        with pytest.raises(ValueError, match="not finite"):
            env.step(np.array([[np.nan, 0.0], [0.0, 0.0]], dtype=np.float32))
        obs, *_ = env.step(np.zeros((2, 2), dtype=np.float32))
        assert np.isfinite(obs).all()
