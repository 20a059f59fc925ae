"""What envpool offers of gymnasium's Box2D family, and what it refuses with a reason."""

from __future__ import annotations

import pytest

import envpool
from envpool.registry import list_families


def test_box2d_family_lists_the_available_tasks():
    assert list_families()["box2d"] == [
        "BipedalWalker-v3",
        "BipedalWalkerHardcore-v3",
        "LunarLander-v3",
        "LunarLanderContinuous-v3",
    ]


def test_car_racing_is_known_and_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"CarRacing-v3 is not available.*gymnasium\.make"):
        envpool.make("CarRacing-v3")


@pytest.mark.parametrize("task", ["LunarLander-v3", "BipedalWalker-v3"])
def test_box2d_frames_are_refused_until_they_match_gymnasium(task):
    with pytest.raises(ValueError, match="cannot render frames"):
        envpool.make(task, render_mode="rgb_array")
    with envpool.make(task, num_envs=1) as env:  # the process and later pools are fine
        assert env.metadata["render_modes"] == []
