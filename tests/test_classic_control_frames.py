"""Classic-control rgb_array frames equal gymnasium's env.render(), pixel for pixel.

A pool made with render_mode="rgb_array" steps side by side with gymnasium envs whose
state is set from envpool's ``info["state"]`` at every reset (as in
tests/test_classic_control.py); both render every step, and the frames must be identical
arrays. The frames are drawn by the installed pygame on both sides, so CI runs this
file under pygame 2.6.1 and pygame-ce 2.5.8 (.ci/run's tests and pygame-ce steps).
Float32 states are covered: Acrobot's after each reset, MountainCarContinuous's after
each step. Pendulum's frame shows the last torque as gymnasium's arrow image.
"""

from __future__ import annotations

import os
import re
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium as gym
import numpy as np
import pytest
from test_classic_control import gym_state

import envpool

pytest.importorskip("pygame", reason="gymnasium's classic-control frames are drawn with pygame")

TASKS = ["CartPole-v1", "Acrobot-v1", "MountainCar-v0", "MountainCarContinuous-v0", "Pendulum-v1"]
NUM_ENVS = 2


def actions_for(task: str, space: gym.Space, rng: np.random.Generator) -> np.ndarray:
    if task == "Pendulum-v1":  # past the torque limit too: gymnasium clips, the arrow flips
        return rng.uniform(-3.0, 3.0, (NUM_ENVS, 1)).astype(np.float32)
    if task == "MountainCarContinuous-v0":
        return rng.uniform(-1.5, 1.5, (NUM_ENVS, 1)).astype(np.float32)
    return rng.integers(0, space.n, NUM_ENVS)


@pytest.mark.parametrize("task", TASKS)
def test_frames_match_gymnasium(task: str) -> None:
    seed = 11
    pool = envpool.make(task, num_envs=NUM_ENVS, seed=seed, render_mode="rgb_array")
    refs = [gym.make(task, render_mode="rgb_array") for _ in range(NUM_ENVS)]

    def sync(i: int, info: dict) -> None:  # gymnasium restarted from envpool's reset state
        refs[i].reset(seed=seed + i)
        refs[i].unwrapped.state = gym_state(task, info["state"][i])

    def compare(where: str) -> None:
        frames = pool.render()
        assert len(frames) == NUM_ENVS
        for i, ref in enumerate(refs):
            expected = ref.render()
            assert frames[i].shape == expected.shape and frames[i].dtype == np.uint8
            differ = int(np.any(frames[i] != expected, axis=-1).sum())
            assert differ == 0, f"{task} env {i} {where}: {differ} pixels differ"

    _, info = pool.reset()
    for i in range(NUM_ENVS):
        sync(i, info)
    compare("after reset")
    rng = np.random.default_rng(seed)
    restart = [False] * NUM_ENVS
    for t in range(260):
        actions = actions_for(task, pool.single_action_space, rng)
        _, _, _, _, info = pool.step(actions)
        for i, ref in enumerate(refs):
            if restart[i]:  # envpool's next-step autoreset
                sync(i, info)
                restart[i] = False
            else:
                _, _, terminated, truncated, _ = ref.step(actions[i])
                restart[i] = terminated or truncated
        compare(f"step {t}")
    pool.close()


def test_frames_of_some_envs_and_the_original_api() -> None:
    with envpool.make("CartPole-v1", env_type="gym", num_envs=3, render_mode="rgb_array") as pool:
        pool.reset()
        frames = pool.render(env_id=[2, 0])
        assert len(frames) == 2 and frames[0].shape == (400, 600, 3)
        assert pool.metadata["render_fps"] == 50


def assert_render_names_the_install(
    monkeypatch: pytest.MonkeyPatch, task: str, install: str, shape: tuple[int, ...]
) -> None:
    """Without pygame, ``task``'s render() raises an ImportError naming ``install``; with
    pygame back (``monkeypatch`` undone), the pool steps and renders on."""
    with envpool.make(task, num_envs=1, render_mode="rgb_array") as pool:
        pool.reset()
        monkeypatch.setitem(sys.modules, "pygame", None)
        with pytest.raises(ImportError, match=re.escape(install)):
            pool.render()
        monkeypatch.undo()
        pool.step(np.array([1]))  # the pool goes on
        assert pool.render()[0].shape == shape


def test_without_pygame_render_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    assert_render_names_the_install(
        monkeypatch, "Acrobot-v1", 'pip install "gymnasium[classic-control]"', (500, 500, 3)
    )
