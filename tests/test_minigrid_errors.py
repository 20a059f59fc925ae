"""Bad input to the MiniGrid tasks: invalid actions, options out of range and unknown
options raise errors naming the problem, and the pool (or the next one) works after."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envpool

BAD_OPTIONS = [
    ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 6}, "agent_view_size must be odd"),
    ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 1}, "agent_view_size must be odd and at least 3"),
    ("MiniGrid-Empty-8x8-v0", {"size": 2}, "size must be at least 3"),
    ("MiniGrid-Empty-Random-5x5-v0", {"size": 3}, "size must be at least 4"),
    ("MiniGrid-Empty-8x8-v0", {"agent_start_pos": (0, 3)}, "agent_start_pos must be a cell"),
    ("MiniGrid-Empty-8x8-v0", {"agent_start_dir": 4}, "agent_start_dir must be 0"),
    ("MiniGrid-Empty-8x8-v0", {"max_steps": -5}, "max_steps must be at least 0"),
    ("MiniGrid-DoorKey-8x8-v0", {"size": 4}, "size must be at least 5"),
    ("MiniGrid-LavaCrossingS9N1-v0", {"size": 10}, "size must be odd"),
    ("MiniGrid-LavaCrossingS9N1-v0", {"obstacle_type": "water"}, "obstacle_type must be 'lava'"),
    ("MiniGrid-KeyCorridorS3R3-v0", {"room_size": 2}, "room_size must be at least 3"),
    ("MiniGrid-KeyCorridorS3R3-v0", {"obj_type": "goal"}, "obj_type must be 'ball'"),
    ("MiniGrid-MultiRoom-N6-v0", {"maxNumRooms": 1, "minNumRooms": 2}, "maxNumRooms must be"),
    ("MiniGrid-GoToObject-6x6-N2-v0", {"numObjs": 40}, "numObjs must be at most"),
    ("MiniGrid-MemoryS7-v0", {"size": 8}, "size must be odd"),
    ("MiniGrid-ObstructedMaze-Full-v0", {"num_quarters": 5}, "num_quarters must be 1 to 4"),
    ("MiniGrid-ObstructedMaze-Full-v0", {"agent_room": (3, 1)}, "agent_room must be a room"),
    ("MiniGrid-FourRooms-v0", {"goal_pos": (0, 0)}, "goal_pos must be a cell inside"),
]


@pytest.mark.parametrize(("task_id", "options", "message"), BAD_OPTIONS, ids=str)
def test_bad_options_raise_value_error(task_id: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make(task_id, num_envs=2, **options)
    with pytest.raises(ValueError, match=message):
        envpool.make_spec(task_id, **options)
    with envpool.make(task_id, num_envs=2) as env:
        env.reset()
        env.step(np.zeros(2, dtype=np.int64))


def test_unknown_option_names_it() -> None:
    with pytest.raises(TypeError, match=r"unknown option 'numobjs'.*Did you mean 'numObjs'"):
        envpool.make("MiniGrid-Fetch-5x5-N2-v0", numobjs=2)
    # minigrid's Empty passes see_through_walls itself: not an option of its own
    with pytest.raises(TypeError, match="unknown option 'see_through_walls'"):
        envpool.make("MiniGrid-Empty-8x8-v0", see_through_walls=False)


@pytest.mark.parametrize(
    "task_id", ["MiniGrid-DoorKey-5x5-v0", "MiniGrid-Dynamic-Obstacles-5x5-v0"]
)
def test_out_of_range_action_leaves_the_pool_usable(task_id: str) -> None:
    with envpool.make(task_id, num_envs=2, seed=0) as env:
        n = int(env.single_action_space.n)
        env.reset()
        for bad in (n, -1):
            with pytest.raises(ValueError, match="out of range"):
                env.step(np.array([bad, 0]))
        obs, *_ = env.step(np.array([1, 1]))
    import gymnasium

    pytest.importorskip("minigrid")
    ref = gymnasium.make(task_id)
    ref.reset(seed=0)
    ref_obs, *_ = ref.step(1)
    np.testing.assert_array_equal(obs["image"][0], ref_obs["image"])
    assert obs["direction"][0] == ref_obs["direction"]


@pytest.mark.parametrize("task_id", ["MiniGrid-Empty-5x5-v0", "BabyAI-GoToRedBall-v0"])
def test_max_steps_none_is_minigrids_default(task_id: str) -> None:
    """minigrid's constructors take max_steps=None for "the env class's own limit";
    envpool takes it too, with the same limit as leaving the option out (0)."""
    limits = []
    for options in ({"max_steps": None}, {}):
        with envpool.make(task_id, num_envs=1, seed=0, **options) as env:
            env.reset(seed=0)
            for step in range(1, 10_000):
                _, _, terminated, truncated, _ = env.step(np.array([0]))  # turn left
                assert not terminated[0]
                if truncated[0]:
                    limits.append(step)
                    break
            else:
                raise AssertionError("no truncation in 10,000 steps")
    assert limits[0] == limits[1] > 0
