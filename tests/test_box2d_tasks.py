"""What envpool offers of gymnasium's Box2D family."""

from __future__ import annotations

import numpy as np
import pytest

import envpool
from envpool.registry import list_families


def test_box2d_family_lists_the_available_tasks():
    assert list_families()["box2d"] == [
        "BipedalWalker-v3",
        "BipedalWalkerHardcore-v3",
        "CarRacing-v3",
        "LunarLander-v3",
        "LunarLanderContinuous-v3",
    ]


@pytest.mark.parametrize(
    "task",
    [
        "LunarLander-v3",
        "LunarLanderContinuous-v3",
        "BipedalWalker-v3",
        "BipedalWalkerHardcore-v3",
        "CarRacing-v3",
    ],
)
def test_box2d_frames_are_offered(task):
    # The frames equal gymnasium's pixel for pixel: tests/test_box2d_render.py.
    with envpool.make(task, num_envs=2, render_mode="rgb_array") as env:
        assert env.metadata["render_modes"] == ["rgb_array"]
        env.reset()
        frames = env.render()
        assert len(frames) == 2
        for frame in frames:
            assert frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    env = envpool.make(task, num_envs=1)  # without render_mode, no frames
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        env.render()
    env.close()
