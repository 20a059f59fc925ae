"""Fetch v4 (gymnasium-robotics 1.4.2) in envpool against gymnasium-robotics itself on the
same mujoco (tests/robotics_reference.py, with its four joint-type checks patched): the
8 ids through autoresets, the goal API, HER through the SB3 adapter, bad input.
ENVPOOL_SLOW=1 plays longer."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from robotics_reference import SLOW, compare, episode_ends, reference, render_both

import envpool
from envpool.registry import list_families

pytest.importorskip("gymnasium")
pytest.importorskip("gymnasium_robotics")

pytestmark = pytest.mark.numpy_sensitive

FETCH_IDS = sorted(t for t in list_families()["robotics"] if t.startswith("Fetch"))


def test_the_eight_fetch_ids() -> None:
    assert len(FETCH_IDS) == 8
    for task in FETCH_IDS:
        assert envpool.make_spec(task).max_episode_steps == reference(task).spec.max_episode_steps


@pytest.mark.parametrize("task", FETCH_IDS)
def test_fetch_equals_gymnasium_robotics(task: str) -> None:
    steps = 1000 if SLOW else 120
    assert episode_ends(compare(task, steps, num_envs=3)) == 3 * (steps // 51)


def test_spaces_are_gymnasium_robotics() -> None:
    for task in ("FetchReach-v4", "FetchPickAndPlace-v4"):
        env = envpool.make(task, num_envs=1)
        ref = reference(task)
        assert env.single_observation_space == ref.observation_space, task
        assert env.single_action_space == ref.action_space, task
        env.close()


@pytest.mark.parametrize("task", ["FetchPush-v4", "FetchReachDense-v4"])
def test_compute_reward_is_gymnasium_robotics(task: str) -> None:
    rng = np.random.default_rng(2)
    achieved, desired = rng.uniform(0, 1, (40, 3)), rng.uniform(0, 1, (40, 3))
    desired[:10] = achieved[:10] + 0.02
    env = envpool.make(task, num_envs=1)
    ref = reference(task).unwrapped
    ours, theirs = (
        env.compute_reward(achieved, desired, {}),
        ref.compute_reward(achieved, desired, {}),
    )
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
    assert env.compute_terminated(achieved[0], desired[0], {}) is False
    assert env.compute_truncated(achieved[0], desired[0], {}) is False
    with pytest.raises(ValueError, match="same shape"):
        env.compute_reward(achieved[:3], desired[:4], {})
    with pytest.raises(ValueError, match="3 coordinates"):
        env.compute_reward(achieved[:, :2], desired[:, :2], {})
    env.close()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"reward_type": "shaped"}, "'sparse' or 'dense'"),
        ({"distance_threshold": 0.1}, "distance_threshold is fixed"),
        ({"has_object": True}, "has_object is fixed"),
        ({"model_file": "/tmp/x.xml"}, "model_file is fixed"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        envpool.make("FetchReach-v4", num_envs=1, **options)


def test_bad_actions_are_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("FetchPush-v4", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 4), np.nan, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 3), dtype=np.float32))
    obs, *_ = env.step(np.zeros((2, 4), dtype=np.float32))
    assert obs["observation"].shape == (2, 25)
    env.close()


@pytest.mark.skipif(not SLOW, reason="trains for minutes: ENVPOOL_SLOW=1 runs it")
def test_sb3_her_learns_fetch_reach() -> None:
    """examples/fetch_her.py's full run: SB3's SAC + HerReplayBuffer on FetchReach-v4
    through envpool reaches a 90% greedy success rate within 20,000 env steps (CI runs
    the example at smoke size, tests/test_examples.py)."""
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("stable_baselines3")
    script = Path(__file__).resolve().parent.parent / "examples" / "fetch_her.py"
    done = subprocess.run(
        [sys.executable, str(script), "--steps", "20000", "--target", "0.9"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "reached 90%" in done.stdout


@pytest.mark.parametrize("task", ["FetchReach-v4", "FetchPickAndPlace-v4"])
def test_render_matches_gymnasium_robotics(task: str, tmp_path: Any) -> None:
    """gymnasium-robotics' camera (azimuth 132) and its render callback (the target site
    at the goal)."""
    ours, theirs = render_both(task, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
