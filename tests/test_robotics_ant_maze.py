"""AntMaze (gymnasium-robotics 1.4.2, v3, v4 and v5) in envpool against
gymnasium-robotics itself on the same mujoco (tests/maze_reference.py): every id through
autoresets, the options of each version, the Ant's info, and bad input. ENVPOOL_SLOW=1
plays each id for more than a whole episode at its own time limit."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from robotics_reference import SLOW, compare, episode_ends, reference, render_both

import envpool
from envpool import mujoco_runtime
from envpool.registry import list_families

pytest.importorskip("gymnasium")
pytest.importorskip("gymnasium_robotics")

pytestmark = pytest.mark.numpy_sensitive

ANT_MAZE_IDS = sorted(t for t in list_families()["robotics"] if t.startswith("AntMaze"))
# two goal/start cells side by side: v3's start may land by the goal, so goals are reached
ANT_XML = os.path.join(mujoco_runtime.gymnasium_assets_dir(), "ant.xml")
TWO_CELLS = [[1, 1, 1, 1], [1, "c", "c", 1], [1, 1, 1, 1]]


def test_the_sixty_ant_maze_ids() -> None:
    assert len(ANT_MAZE_IDS) == 60
    for task in ANT_MAZE_IDS:
        assert envpool.make_spec(task).max_episode_steps == reference(task).spec.max_episode_steps


@pytest.mark.parametrize("task", ANT_MAZE_IDS)
def test_ant_maze_equals_gymnasium_robotics(task: str) -> None:
    if SLOW:
        limit = envpool.make_spec(task).max_episode_steps
        assert episode_ends(compare(task, limit + 100)) >= 2
    else:
        assert episode_ends(compare(task, 130, max_episode_steps=50)) == 4


@pytest.mark.parametrize(
    ("task", "options"),
    [
        ("AntMaze_UMaze-v3", {"maze_map": TWO_CELLS}),
        ("AntMaze_UMazeDense-v3", {"maze_map": TWO_CELLS}),
        ("AntMaze_UMaze-v3", {"maze_map": TWO_CELLS, "continuing_task": False}),
        ("AntMaze_UMaze-v4", {"maze_map": TWO_CELLS, "reset_target": True}),
        ("AntMaze_UMaze-v5", {"continuing_task": False, "reward_type": "dense"}),
        ("AntMaze_Open-v4", {"use_contact_forces": True, "contact_force_range": (-0.5, 0.5)}),
        ("AntMaze_Open-v4", {"ctrl_cost_weight": 0.1, "terminate_when_unhealthy": False}),
        ("AntMaze_Open-v5", {"include_cfrc_ext_in_observation": False, "main_body": 2}),
        ("AntMaze_Open-v5", {"frame_skip": 3, "forward_reward_weight": 2.0}),
        ("AntMaze_Open-v5", {"healthy_z_range": (0.5, 0.8), "healthy_reward": 3.0}),
        ("AntMaze_Open-v5", {"xml_file": ANT_XML, "contact_cost_weight": 1e-3}),
    ],
)
def test_options_equal_gymnasium_robotics(task: str, options: dict[str, Any]) -> None:
    two_cells = "maze_map" in options
    trace = compare(
        task,
        300 if SLOW else 120,
        num_envs=8 if two_cells else 2,
        seed=0,
        max_episode_steps=60,
        **options,
    )
    if two_cells and task.endswith("v3"):
        # the goal was reached at least once: v3 then draws the next goal before the reward
        reached = [
            np.linalg.norm(step["achieved_goal"] - step["desired_goal"], axis=-1) <= 0.45
            for step in trace
        ]
        assert np.any(reached)


def test_spaces_are_gymnasium_robotics() -> None:
    for task, options in (
        ("AntMaze_Medium-v5", {}),
        ("AntMaze_Medium-v4", {}),
        ("AntMaze_Medium-v3", {"use_contact_forces": True}),
    ):
        env = envpool.make(task, num_envs=1, **options)
        ref = reference(task, **options)
        assert env.single_observation_space == ref.observation_space, task
        assert env.single_action_space == ref.action_space, task
        env.close()


def test_compute_reward_is_gymnasium_robotics() -> None:
    rng = np.random.default_rng(1)
    achieved, desired = rng.uniform(-8, 8, (40, 2)), rng.uniform(-8, 8, (40, 2))
    desired[:8] = achieved[:8] + 0.2
    for task in ("AntMaze_UMaze-v5", "AntMaze_UMazeDense-v4", "AntMaze_UMaze-v3"):
        env = envpool.make(task, num_envs=1)
        ref = reference(task).unwrapped
        np.testing.assert_array_equal(
            env.compute_reward(achieved, desired, {}), ref.compute_reward(achieved, desired, {})
        )
        env.close()


@pytest.mark.parametrize(
    ("task", "options", "message"),
    [
        ("AntMaze_UMaze-v4", {"frame_skip": 3}, "does not take 'frame_skip'"),
        ("AntMaze_UMaze-v3", {"xml_file": "ant.xml"}, "does not take 'xml_file'"),
        ("AntMaze_UMaze-v5", {"use_contact_forces": True}, "does not take 'use_contact_forces'"),
        ("AntMaze_UMaze-v3", {"reset_target": True}, "does not take 'reset_target'"),
        ("AntMaze_UMaze-v5", {"version": "v4"}, "version is fixed by AntMaze"),
        ("AntMaze_UMaze-v5", {"maze_size_scaling": 2}, "maze_size_scaling is fixed"),
        ("AntMaze_UMaze-v5", {"xml_file": "no_such_ant.xml"}, "does not exist"),
        ("AntMaze_UMaze-v5", {"main_body": 99}, "has no body 99"),
        ("AntMaze_UMaze-v5", {"reward_type": "shaped"}, "'sparse' or 'dense'"),
        ("AntMaze_UMaze-v5", {"maze_map": [[1, 1], [1, 1]]}, "no free cell"),
        ("AntMaze_UMaze-v5", {"healthy_z_range": (0.2,)}, "a \\(low, high\\) pair"),
    ],
)
def test_bad_options_are_refused(task: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make(task, num_envs=1, **options)


def test_bad_actions_are_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("AntMaze_UMaze-v5", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 8), np.nan, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 2), dtype=np.float32))
    obs, *_ = env.step(np.zeros((2, 8), dtype=np.float32))
    assert obs["observation"].shape == (2, 105)
    env.close()


@pytest.mark.parametrize("task", ["AntMaze_UMaze-v5", "AntMaze_Medium_Diverse_GR-v4"])
def test_render_matches_gymnasium_robotics(task: str, tmp_path: Any) -> None:
    ours, theirs = render_both(task, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
