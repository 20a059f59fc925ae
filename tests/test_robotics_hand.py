"""The Shadow Hand (gymnasium-robotics 1.4.2's HandReach-v3 and 54 HandManipulate v1
ids) in envpool against gymnasium-robotics itself on the same mujoco
(tests/robotics_reference.py, with its four joint-type checks patched): every id through
an autoreset, the options, the goal API, bad input. ENVPOOL_SLOW=1 plays longer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from robotics_reference import SLOW, compare, episode_ends, reference, render_both

import envpool
from envpool.families.robotics import tasks
from envpool.registry import list_families

pytest.importorskip("gymnasium")
pytest.importorskip("gymnasium_robotics")

pytestmark = pytest.mark.numpy_sensitive

HAND_IDS = sorted(t for t in list_families()["robotics"] if t.startswith("Hand"))


def test_the_56_hand_ids() -> None:
    import gymnasium

    from envpool.bench import robotics_peer

    robotics_peer.register()
    theirs = {t for t in gymnasium.registry if t.startswith("Hand") and t.endswith(("-v1", "-v3"))}
    assert set(HAND_IDS) == theirs and len(HAND_IDS) == 56
    for task in HAND_IDS:
        spec = gymnasium.registry[task]
        assert envpool.make_spec(task).max_episode_steps == spec.max_episode_steps, task


@pytest.mark.parametrize("task", HAND_IDS)
def test_hand_equals_gymnasium_robotics(task: str) -> None:
    """Each id over its time limit and into the next episode (a Hand episode never ends
    early): the resets' retries until the object rests on the palm, numpy's normals,
    the goals' rotations and the touch sensors all agree bit for bit."""
    limit = envpool.make_spec(task).max_episode_steps
    steps = 4 * limit + 10 if SLOW else limit + 5
    trace = compare(task, steps, num_envs=2, seed=5)
    assert episode_ends(trace) == 2 * (steps // (limit + 1))


def test_spaces_are_gymnasium_robotics() -> None:
    for task in (
        "HandReach-v3",
        "HandManipulateBlock-v1",
        "HandManipulatePen_BooleanTouchSensors-v1",
    ):
        env = envpool.make(task, num_envs=1)
        ref = reference(task)
        assert env.single_observation_space == ref.observation_space, task
        assert env.single_action_space == ref.action_space, task
        env.close()


def test_the_normal_sampler_is_numpys() -> None:
    """The resets' normals come from numpy's own sampler (numpy_parity hands it over):
    without it a Hand env would refuse to be made."""
    envpool.make("HandReach-v3", num_envs=1).close()
    assert "normal" in tasks.NUMPY_LOOPS


@pytest.mark.parametrize(
    ("task", "options"),
    [
        ("HandManipulateBlock_ContinuousTouchSensors-v1", {"touch_get_obs": "log"}),
        ("HandManipulateEgg-v1", {"target_rotation": "parallel", "distance_threshold": 0.03}),
        ("HandManipulateBlockRotateZ-v1", {"randomize_initial_position": False}),
        ("HandManipulateBlock-v1", {"target_position": "fixed", "rotation_threshold": 0.3}),
        ("HandReachDense-v3", {"distance_threshold": 0.02, "initial_qpos": {"robot0:WRJ1": 0.1}}),
    ],
)
def test_options_equal_gymnasium_robotics(task: str, options: dict[str, Any]) -> None:
    compare(task, 60, num_envs=1, seed=2, **options)


def test_compute_reward_is_gymnasium_robotics() -> None:
    """On single goal pairs (and batches where gymnasium-robotics handles them: for the
    pen, its batched z-ignoring overwrites a row instead of the z angle, so envpool's
    batch is checked row by row against its single calls)."""
    rng = np.random.default_rng(3)
    for task in (
        "HandManipulateBlockRotateZ-v1",
        "HandManipulateBlockFullDense-v1",
        "HandManipulatePenDense-v1",
        "HandManipulateEggRotate-v1",
    ):
        env = envpool.make(task, num_envs=1)
        ref = reference(task).unwrapped
        achieved, desired = rng.normal(size=(30, 7)), rng.normal(size=(30, 7))
        for goals in (achieved, desired):
            goals[:, 3:] /= np.linalg.norm(goals[:, 3:], axis=-1, keepdims=True)
        desired[:10] = achieved[:10] + 0.001  # some within the thresholds
        ours = env.compute_reward(achieved, desired, {})
        for k in range(len(achieved)):
            theirs = ref.compute_reward(achieved[k], desired[k], {})
            assert ours[k] == theirs, (task, k)
            assert env.compute_reward(achieved[k], desired[k], {}) == theirs
        if "Pen" not in task:
            np.testing.assert_array_equal(ours, ref.compute_reward(achieved, desired, {}))
        assert env.compute_terminated(achieved[0], desired[0], {}) is False
        with pytest.raises(ValueError, match="7 values"):
            env.compute_reward(achieved[:, :3], desired[:, :3], {})
        env.close()
    env = envpool.make("HandReach-v3", num_envs=1)
    ref = reference("HandReach-v3").unwrapped
    achieved, desired = rng.normal(size=(20, 15)) * 0.01, rng.normal(size=(20, 15)) * 0.01
    np.testing.assert_array_equal(
        env.compute_reward(achieved, desired, {}), ref.compute_reward(achieved, desired, {})
    )
    env.close()


@pytest.mark.parametrize(
    ("task", "options", "error", "message"),
    [
        ("HandManipulateBlock-v1", {"relative_control": True}, ValueError, "get_joint_qpos"),
        ("HandManipulateBlock-v1", {"target_rotation": "fixed"}, ValueError, "get_joint_qpos"),
        ("HandManipulateBlock-v1", {"target_rotation": "spin"}, ValueError, "'z', 'parallel'"),
        ("HandManipulateBlock-v1", {"target_position": "far"}, ValueError, "'ignore', 'fixed'"),
        ("HandManipulateBlock-v1", {"n_substeps": 10}, ValueError, "n_substeps must be 20"),
        ("HandManipulateBlock-v1", {"touch_get_obs": "log"}, ValueError, "touch_get_obs is fixed"),
        ("HandManipulatePen-v1", {"distance_threshold": 0.1}, ValueError, "is fixed"),
        ("HandManipulateEgg-v1", {"target_position_range": [0.0] * 6}, ValueError, "is fixed"),
        ("HandManipulateBlock_BooleanTouchSensors-v1", {"touch_get_obs": "x"}, ValueError, "'log'"),
        ("HandManipulateBlock-v1", {"initial_qpos": {"object:joint": [0] * 7}}, ValueError, "set_"),
        ("HandReach-v3", {"initial_qpos": {"robot0:NOPE": 0.1}}, ValueError, "no joint"),
        ("HandReach-v3", {"initial_qpos": [0.1]}, ValueError, "dict of joint names"),
        ("HandReach-v3", {"reward_type": "shaped"}, ValueError, "'sparse' or 'dense'"),
        ("HandReach-v3", {"model_file": "/tmp/x.xml"}, ValueError, "model_file is fixed"),
    ],
)
def test_bad_options_are_refused(
    task: str, options: dict[str, Any], error: Any, message: str
) -> None:
    with pytest.raises(error, match=message):
        envpool.make(task, num_envs=1, **options)


def test_bad_actions_are_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("HandManipulateEgg-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 20), np.nan, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 19), dtype=np.float32))
    obs, *_ = env.step(np.zeros((2, 20), dtype=np.float32))
    assert obs["observation"].shape == (2, 61)
    env.close()


@pytest.mark.parametrize(
    "task",
    ["HandReach-v3", "HandManipulateBlock_ContinuousTouchSensors-v1", "HandManipulatePenRotate-v1"],
)
def test_render_matches_gymnasium_robotics(task: str, tmp_path: Any) -> None:
    """gymnasium-robotics' camera (azimuth 55) and its render callbacks (the target at
    the goal, touch sites coloured, HandReach's sites moved)."""
    ours, theirs = render_both(task, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
