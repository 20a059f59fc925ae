"""FrankaKitchen-v1 (gymnasium-robotics 1.4.2) in envpool against gymnasium-robotics
itself on the same mujoco (tests/robotics_reference.py): the noisy observations, the
velocity-to-position control, the nested goal dicts and the task bookkeeping through
autoresets; options; bad input. ENVPOOL_SLOW=1 plays longer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from robotics_reference import SLOW, compare, episode_ends, reference, render_both

import envpool
from envpool.families.robotics.kitchen_tasks import KITCHEN_TASKS

pytest.importorskip("gymnasium")
pytest.importorskip("gymnasium_robotics")

pytestmark = pytest.mark.numpy_sensitive


def test_kitchen_equals_gymnasium_robotics() -> None:
    steps = 3 * 281 if SLOW else 290
    assert episode_ends(compare("FrankaKitchen-v1", steps, num_envs=2, seed=7)) == 2 * (
        steps // 281
    )


@pytest.mark.parametrize(
    "options",
    [
        {"tasks_to_complete": ["kettle", "microwave"], "object_noise_ratio": 0.01},
        {"remove_task_when_completed": False, "terminate_on_tasks_completed": False},
        {"robot_noise_ratio": 0.1, "frame_skip": 42},
    ],
)
def test_options_equal_gymnasium_robotics(options: dict[str, Any]) -> None:
    compare("FrankaKitchen-v1", 40, num_envs=1, seed=1, **options)


def test_spaces_are_gymnasium_robotics() -> None:
    """Nested goal dicts (gymnasium's Dict of Dicts), float64 actions."""
    env = envpool.make("FrankaKitchen-v1", num_envs=2, tasks_to_complete=["kettle", "microwave"])
    ref = reference("FrankaKitchen-v1", tasks_to_complete=["kettle", "microwave"])
    assert env.single_observation_space == ref.observation_space
    assert env.single_action_space == ref.action_space
    obs, info = env.reset()
    assert set(obs["achieved_goal"]) == {"kettle", "microwave"}
    assert obs["desired_goal"]["kettle"].shape == (2, 7)
    assert info["tasks_to_complete"].shape == (2, len(KITCHEN_TASKS))
    assert info["tasks_to_complete"][:, KITCHEN_TASKS.index("kettle")].all()
    assert not info["tasks_to_complete"][:, KITCHEN_TASKS.index("top burner")].any()
    env.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tasks_to_complete": ["oven"]}, "'oven' is not one of"),
        ({"tasks_to_complete": "kettle"}, "list of task names"),
        ({"frame_skip": 20}, "frame_skip must be 40 to 43"),
        ({"init_qpos": [0.0] * 30}, "init_qpos is fixed"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make("FrankaKitchen-v1", num_envs=1, **options)


def test_bad_actions_are_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("FrankaKitchen-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 9), np.nan))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 8)))
    obs, *_ = env.step(np.zeros((2, 9)))
    assert obs["observation"].shape == (2, 59)
    env.close()


def test_render_matches_gymnasium_robotics(tmp_path: Any) -> None:
    """gymnasium-robotics' camera for the kitchen (distance 2.2, azimuth 70, elevation
    -35, its look-at point)."""
    ours, theirs = render_both("FrankaKitchen-v1", tmp_path)
    np.testing.assert_array_equal(ours, theirs)


def test_compute_reward_is_gymnasium_robotics() -> None:
    """On goal dicts near and far from the goals, the count of tasks within 0.3 equals
    gymnasium-robotics' (right after a reset, when every task remains); with a pool's
    info, done tasks no longer count; batches give one count per row."""
    tasks = ["microwave", "kettle", "light switch"]
    env = envpool.make("FrankaKitchen-v1", num_envs=1, tasks_to_complete=tasks)
    ref = reference("FrankaKitchen-v1", tasks_to_complete=tasks).unwrapped
    ref.reset(seed=0)
    rng = np.random.default_rng(0)
    goal = {t: np.asarray(ref.goal[t]) for t in tasks}
    rows = []
    for _ in range(40):
        achieved = {t: goal[t] + rng.normal(0, 0.25, goal[t].shape) for t in tasks}
        ours = env.compute_reward(achieved, goal, {})
        assert ours == ref.compute_reward(achieved, goal, {})
        rows.append(achieved)
    assert len({env.compute_reward(a, goal, {}) for a in rows}) >= 3  # near and far
    batch = {t: np.stack([a[t] for a in rows]) for t in tasks}
    batch_goal = {t: np.broadcast_to(goal[t], batch[t].shape) for t in tasks}
    counts = env.compute_reward(batch, batch_goal, {})
    np.testing.assert_array_equal(counts, [env.compute_reward(a, goal, {}) for a in rows])
    done = np.ones((len(rows), len(KITCHEN_TASKS)), dtype=bool)
    done[:, KITCHEN_TASKS.index("kettle")] = False
    without_kettle = env.compute_reward(batch, batch_goal, {"tasks_to_complete": done})
    kettle = [np.linalg.norm(a["kettle"] - goal["kettle"]) < 0.3 for a in rows]
    np.testing.assert_array_equal(without_kettle, counts - np.asarray(kettle))
    with pytest.raises(ValueError, match="task 'kettle'"):
        env.compute_reward({"microwave": goal["microwave"]}, goal, {})
    env.close()
