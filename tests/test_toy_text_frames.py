"""Toy-text rgb_array frames equal gymnasium's env.render(), pixel for pixel.

A pool made with render_mode="rgb_array" steps side by side with gymnasium envs reset
with the same seeds (the toy-text tasks replay gymnasium's random stream), on the same
random actions, through autoresets. Some steps are left unrendered on purpose: Taxi's
frame turns the taxi to its last move only when it is rendered, as gymnasium's does.
The frames come from gymnasium's own renderer (envpool/families/toy_text/frames.py),
so CI runs this file under pygame 2.6.1 and pygame-ce 2.5.8 alike.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium as gym
import numpy as np
import pytest
from test_classic_control_frames import assert_render_names_the_install

import envpool

pytest.importorskip("pygame", reason="gymnasium's toy-text frames are drawn with pygame")

NUM_ENVS = 3
CASES = [
    ("FrozenLake-v1", {}),
    ("FrozenLake8x8-v1", {"is_slippery": False}),
    ("CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("Taxi-v4", {}),
    ("Blackjack-v1", {}),
]


def rendered_at(t: int) -> bool:
    return t % 5 != 3


@pytest.mark.parametrize(("task", "options"), CASES, ids=[task for task, _ in CASES])
def test_frames_match_gymnasium(task: str, options: dict) -> None:
    seed = 5
    pool = envpool.make(task, num_envs=NUM_ENVS, seed=seed, render_mode="rgb_array", **options)
    refs = [gym.make(task, render_mode="rgb_array", **options) for _ in range(NUM_ENVS)]

    def compare(where: str) -> None:
        frames = pool.render()
        for i, ref in enumerate(refs):
            expected = ref.render()
            assert frames[i].shape == expected.shape and frames[i].dtype == np.uint8
            differ = int(np.any(frames[i] != expected, axis=-1).sum())
            assert differ == 0, f"{task} env {i} {where}: {differ} pixels differ"

    pool.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    compare("after reset")
    rng = np.random.default_rng(seed)
    ended = [False] * NUM_ENVS
    episodes = 0
    for t in range(230):  # past Taxi's 200-step limit
        actions = rng.integers(0, pool.single_action_space.n, NUM_ENVS)
        _, _, terminated, truncated, _ = pool.step(actions)
        for i, ref in enumerate(refs):
            if ended[i]:  # envpool's next-step autoreset
                ref.reset()
                episodes += 1
            else:
                ref.step(int(actions[i]))
        ended = list(terminated | truncated)
        if rendered_at(t):
            compare(f"step {t}")
    pool.close()
    # frames after an autoreset too (random walks rarely end CliffWalking's episodes)
    assert episodes >= 1 or task.startswith("CliffWalking")


def test_frames_of_a_random_lake() -> None:
    # map_name=None: one random map for every env, which the frames show
    with envpool.make("FrozenLake-v1", num_envs=2, map_name=None, render_mode="rgb_array") as pool:
        pool.reset()
        rows = pool.spec.config["desc"].split("\n")
        ref = gym.make("FrozenLake-v1", desc=rows, render_mode="rgb_array")
        ref.reset(seed=0)  # the start tile, as the pool's envs
        assert all(np.array_equal(frame, ref.render()) for frame in pool.render())


def test_without_pygame_render_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from envpool.families.toy_text import frames

    monkeypatch.setattr(frames, "_references", {})  # no gymnasium env kept yet
    assert_render_names_the_install(
        monkeypatch, "Taxi-v4", 'pip install "gymnasium[toy-text]"', (456, 536, 3)
    )
