"""PointMaze (gymnasium-robotics 1.4.2) in envpool against gymnasium-robotics itself, side
by side on the same mujoco: env i of ``envpool.make(id, num_envs=n, seed=s)`` is
``gymnasium.make(id)`` reset with seed ``s + i``, both stepped with the same random
actions; every observation key, reward, termination, truncation and ``success`` must be
equal, bit for bit, over whole episodes and through autoresets (the reference resets
without a seed, continuing its generator, as the pool's env does). ENVPOOL_SLOW=1 plays
longer. Also the goal API (compute_reward and its kin, HER's relabelling) and bad input.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from robotics_reference import SLOW, episode_ends, reference, render_both
from robotics_reference import compare as compare_trace

import envpool
from envpool.registry import list_families

pytest.importorskip("gymnasium")
pytest.importorskip("gymnasium_robotics")

pytestmark = pytest.mark.numpy_sensitive

STEPS = 3000 if SLOW else 700
POINT_MAZE_IDS = sorted(t for t in list_families()["robotics"] if t.startswith("PointMaze"))


def compare(task: str, steps: int, num_envs: int = 2, seed: int = 3, **options: Any) -> int:
    """Steps the pool and gymnasium-robotics side by side; returns the episode ends seen."""
    return episode_ends(compare_trace(task, steps, num_envs, seed, **options))


def test_the_twenty_point_maze_ids() -> None:
    assert len(POINT_MAZE_IDS) == 20
    for task in POINT_MAZE_IDS:
        assert envpool.make_spec(task).max_episode_steps == reference(task).spec.max_episode_steps


@pytest.mark.parametrize("task", POINT_MAZE_IDS)
def test_point_maze_equals_gymnasium_robotics(task: str) -> None:
    limit = envpool.make_spec(task).max_episode_steps
    assert compare(task, max(STEPS, limit + 100)) >= 1


@pytest.mark.parametrize(
    "options",
    [
        {"continuing_task": False},
        {"continuing_task": False, "reward_type": "dense"},
        {"reset_target": True},
        {"maze_map": [[1, 1, 1, 1], [1, "r", 0, 1], [1, 0, "g", 1], [1, 1, 1, 1]]},
        {"maze_map": [[1, 1, 1, 1, 1], [1, "c", 0, "c", 1], [1, 1, 1, 1, 1]]},
        {"maze_map": [[1, 1, 1], [1, 0, 1], [1, 0, 1], [1, 1, 1]], "continuing_task": False},
    ],
)
def test_options_equal_gymnasium_robotics(options: dict[str, Any]) -> None:
    compare("PointMaze_Open_Diverse_GR-v3", 900, **options)


def test_spaces_are_gymnasium_robotics() -> None:
    env = envpool.make("PointMaze_Medium-v3", num_envs=1)
    ref = reference("PointMaze_Medium-v3")
    assert env.single_observation_space == ref.observation_space
    assert env.single_action_space == ref.action_space
    env.close()


def test_compute_reward_is_gymnasium_robotics() -> None:
    """The goal API on the pool equals the reference's, on single pairs and batches."""
    rng = np.random.default_rng(0)
    achieved, desired = rng.uniform(-2, 2, (50, 2)), rng.uniform(-2, 2, (50, 2))
    desired[:10] = achieved[:10] + 0.1  # some within reach
    for task, options in (
        ("PointMaze_UMaze-v3", {}),
        ("PointMaze_UMazeDense-v3", {}),
        ("PointMaze_UMaze-v3", {"continuing_task": False}),
    ):
        env = envpool.make(task, num_envs=1, **options)
        ref = reference(task, **options).unwrapped
        np.testing.assert_array_equal(
            env.compute_reward(achieved, desired, {}), ref.compute_reward(achieved, desired, {})
        )
        for i in (0, 20):
            assert env.compute_reward(achieved[i], desired[i], {}) == ref.compute_reward(
                achieved[i], desired[i], {}
            )
            assert env.compute_terminated(achieved[i], desired[i], {}) == (
                ref.compute_terminated(achieved[i], desired[i], {})
            )
            assert env.compute_truncated(achieved[i], desired[i], {}) is False
        env.close()


def test_her_relabelling_through_the_sb3_adapter() -> None:
    """SB3's HerReplayBuffer asks the VecEnv for compute_reward with env_method."""
    from envpool.integrations.sb3 import VecEnv

    env = envpool.make("PointMaze_UMaze-v3", num_envs=2)
    venv = VecEnv(env)
    achieved = np.array([[0.0, 0.0], [1.0, 1.0]])
    desired = np.array([[0.1, 0.0], [0.0, 0.0]])
    (rewards,) = venv.env_method("compute_reward", achieved, desired, [{}, {}], indices=[0])
    np.testing.assert_array_equal(rewards, [1.0, 0.0])
    venv.close()


@pytest.mark.parametrize(
    ("maze_map", "message"),
    [
        ([[1, 1], [1, 1]], "no free cell"),
        ([[1, 1, 1], [1, 2, 1], [1, 1, 1]], r"maze_map\[1\]\[1\] is 2"),
        ([[1, 1, 1], [1, "x", 1], [1, 1, 1]], "a cell is 1 \\(wall\\)"),
        ([[1, 1, 1], [1, 0], [1, 1, 1]], "row 0 has 3 cells, row 1 has 2"),
        ([], "non-empty list"),
        ("111/101/111", "list of rows"),
        ([[1, 1, 1], [1, "g", 1], [1, 1, 1]], "a cell for the goal and one for the agent's start"),
    ],
)
def test_bad_maze_maps_are_refused(maze_map: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make("PointMaze_UMaze-v3", num_envs=1, maze_map=maze_map)


def test_a_maze_whose_only_start_is_the_goal_is_refused_not_looped() -> None:
    """gymnasium-robotics draws starts forever when none is half a cell from the goal."""
    env = envpool.make("PointMaze_UMaze-v3", num_envs=1, maze_map=[[1, 1, 1], [1, 0, 1], [1, 1, 1]])
    with pytest.raises(envpool.errors.EnvError, match="no start cell far enough from the goal"):
        env.reset()
    env.close()


def test_bad_options_and_actions_are_refused_and_the_pool_goes_on() -> None:
    with pytest.raises(ValueError, match="reward_type must be 'sparse' or 'dense'"):
        envpool.make("PointMaze_UMaze-v3", num_envs=1, reward_type="shaped")
    with pytest.raises(ValueError, match="maze_size_scaling is fixed"):
        envpool.make("PointMaze_UMaze-v3", num_envs=1, maze_size_scaling=2)
    env = envpool.make("PointMaze_UMaze-v3", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 2), np.nan, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="same shape"):
        env.compute_reward(np.zeros((4, 2)), np.zeros((3, 2)), {})
    obs, *_ = env.step(np.zeros((2, 2), dtype=np.float32))
    assert obs["observation"].shape == (2, 4)
    env.close()


def test_sb3_her_trains_on_point_maze_through_envpool() -> None:
    """SB3's SAC with HerReplayBuffer, unmodified, on a pool (smoke size: it runs, relabels
    with the pool's compute_reward and keeps dict observations through episode ends)."""
    sb3 = pytest.importorskip("stable_baselines3")
    from envpool.integrations.sb3 import VecEnv

    env = envpool.make("PointMaze_UMaze-v3", num_envs=2, seed=0, max_episode_steps=30)
    venv = VecEnv(env)
    model = sb3.SAC(
        "MultiInputPolicy",
        venv,
        replay_buffer_class=sb3.HerReplayBuffer,
        learning_starts=70,
        batch_size=32,
        seed=0,
    )
    model.learn(100)
    buffer = model.replay_buffer
    assert buffer.pos > 0 and set(buffer.observations) == {
        "achieved_goal",
        "desired_goal",
        "observation",
    }
    venv.close()


@pytest.mark.parametrize("task", ["PointMaze_UMaze-v3", "PointMaze_Large_Diverse_GR-v3"])
def test_render_matches_gymnasium_robotics(task: str, tmp_path: Any) -> None:
    """gymnasium's default free camera over the maze, the target site at the goal."""
    ours, theirs = render_both(task, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
