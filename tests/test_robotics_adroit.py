"""Adroit v1 (gymnasium-robotics 1.4.2: AdroitHand{Door,Hammer,Pen,Relocate}-v1 and their
Sparse ids) in envpool against gymnasium-robotics itself on the same mujoco
(tests/robotics_reference.py): the 8 ids through autoresets, the spaces, bad input.
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

ADROIT_IDS = sorted(t for t in list_families()["robotics"] if t.startswith("AdroitHand"))


def test_the_eight_adroit_ids() -> None:
    assert len(ADROIT_IDS) == 8
    for task in ADROIT_IDS:
        assert envpool.make_spec(task).max_episode_steps == reference(task).spec.max_episode_steps


@pytest.mark.parametrize("task", ADROIT_IDS)
def test_adroit_equals_gymnasium_robotics(task: str) -> None:
    """Random actions, some past the bounds (clipped), through two autoresets each."""
    if SLOW:  # the ids' own 200-step episodes
        assert episode_ends(compare(task, 1000)) == 2 * (1000 // 201)
    else:
        assert episode_ends(compare(task, 130, max_episode_steps=50)) == 2 * 2


def test_spaces_are_gymnasium_robotics() -> None:
    for task in ADROIT_IDS[::2]:
        env = envpool.make(task, num_envs=1)
        ref = reference(task)
        assert env.single_observation_space == ref.observation_space, task
        assert env.single_action_space == ref.action_space, task
        env.close()


def test_reward_type_is_case_insensitive_as_gymnasium_robotics() -> None:
    env = envpool.make("AdroitHandDoor-v1", num_envs=1, reward_type="Sparse")
    env.reset()
    _, reward, *_ = env.step(np.zeros((1, 28), np.float32))
    assert reward[0] == -0.1
    env.close()


def test_bad_options_and_actions_are_refused_and_the_pool_goes_on() -> None:
    with pytest.raises(ValueError, match="'dense' or 'sparse'"):
        envpool.make("AdroitHandPen-v1", num_envs=1, reward_type="shaped")
    with pytest.raises(ValueError, match="model_file is fixed"):
        envpool.make("AdroitHandPen-v1", num_envs=1, model_file="/tmp/pen.xml")
    env = envpool.make("AdroitHandRelocate-v1", num_envs=2)
    env.reset()
    with pytest.raises(ValueError, match="not finite"):
        env.step(np.full((2, 30), np.nan, dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros((2, 29), dtype=np.float32))
    obs, *_ = env.step(np.zeros((2, 30), dtype=np.float32))
    assert obs.shape == (2, 39)
    env.close()


@pytest.mark.parametrize("task", ["AdroitHandDoor-v1", "AdroitHandHammer-v1", "AdroitHandPen-v1"])
def test_render_matches_gymnasium_robotics(task: str, tmp_path: Any) -> None:
    """gymnasium-robotics' camera for each task (distance and azimuth, MuJoCo's default
    elevation, the geoms' median looked at)."""
    ours, theirs = render_both(task, tmp_path)
    np.testing.assert_array_equal(ours, theirs)
