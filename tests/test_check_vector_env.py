"""envpool.testing.check_vector_env passes conforming VectorEnvs (gymnasium's own and
envpool's, in every autoreset mode) and names the problem of each broken one."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import ale_py
import gymnasium as gym
import numpy as np
import pytest
from broken_vector_envs import BROKEN, NextStepOverDisabled, gym_cartpole, pool_cartpole
from gymnasium import spaces
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from gymnasium.wrappers import TransformObservation
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import envpool
from envpool.testing import CHECKS, ConformanceError, ConformanceReport, check_vector_env

gym.register_envs(ale_py)

ALL_PASSED = set(CHECKS)
# gymnasium's Pong (no no-op starts) starts from the same frames whatever the seed; the
# seed shows only once sticky actions make runs differ, which may take more than the
# compared steps, and then the seed check skips rather than fails.
SEED_MAY_SKIP = {"ALE/Pong-v5"}

GYM_TASKS = [("CartPole-v1", {}), ("Pendulum-v1", {}), ("ALE/Pong-v5", {"obs_type": "grayscale"})]
POOL_TASKS = [
    "CartPole-v1",
    "Pendulum-v1",
    "MountainCarContinuous-v0",
    "Acrobot-v1",
    "Pong-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
]


def assert_all_ran(report: ConformanceReport, task: str) -> None:
    allowed_skips = {"seed"} if task in SEED_MAY_SKIP else set()
    assert set(report.skipped) <= allowed_skips, report
    assert set(report.passed) | set(report.skipped) == ALL_PASSED, report


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.name)
@pytest.mark.parametrize("vector_cls", [SyncVectorEnv, AsyncVectorEnv], ids=lambda c: c.__name__)
@pytest.mark.parametrize(("task", "kwargs"), GYM_TASKS, ids=[t for t, _ in GYM_TASKS])
def test_passes_gymnasium_vector_envs(
    task: str, kwargs: dict[str, Any], vector_cls: type, mode: AutoresetMode
) -> None:
    steps = 8 if "Pong" in task else 5

    def make() -> gym.Env:
        # A worker started by spawn or forkserver has not run this module's registration.
        gym.register_envs(ale_py)
        return gym.make(task, max_episode_steps=steps, **kwargs)

    env = vector_cls([make, make], autoreset_mode=mode)
    report = check_vector_env(env, max_steps=50)
    assert_all_ran(report, task)
    assert report.autoreset_mode == mode.name
    assert env.closed


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
@pytest.mark.parametrize("task", POOL_TASKS)
def test_passes_envpool_pools(task: str, mode: str) -> None:
    steps = 8 if "Pong" in task else 5
    env = envpool.make(task, num_envs=2, max_episode_steps=steps, autoreset_mode=mode)
    report = check_vector_env(env, max_steps=50)
    assert_all_ran(report, task)
    assert "episode end(s)" in dict((r.name, r.detail) for r in report.results)["autoreset"]


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_passes_a_pool_with_dict_observations(fault_env_dir: object, mode: str) -> None:
    env = envpool.make("FaultDict-v0", num_envs=3, max_episode_steps=5, autoreset_mode=mode)
    report = check_vector_env(env, max_steps=50)
    assert_all_ran(report, "FaultDict-v0")


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_passes_a_pool_with_tuple_observations(mode: str) -> None:
    env = envpool.make("Blackjack-v1", num_envs=3, autoreset_mode=mode)
    report = check_vector_env(env, max_steps=50)
    assert_all_ran(report, "Blackjack-v1")


def test_passes_a_third_party_next_step_implementation() -> None:
    # the same wrapper as two broken envs below, with neither bug switched on
    report = check_vector_env(NextStepOverDisabled(pool_cartpole("disabled")), max_steps=50)
    assert set(report.passed) == ALL_PASSED
    assert report.autoreset_mode == "NEXT_STEP"


@pytest.mark.parametrize("name", list(BROKEN))
def test_fails_broken_vector_env(name: str) -> None:
    make, phrase = BROKEN[name]
    env = make()
    try:
        with pytest.raises(ConformanceError, match=re.escape(phrase)) as caught:
            check_vector_env(env, max_steps=50)
    finally:
        with contextlib.suppress(Exception):
            env.close()
    assert isinstance(caught.value, AssertionError)
    assert caught.value.check in CHECKS
    assert str(caught.value).startswith(f"[{caught.value.check}]")


def test_passes_dict_and_tuple_observations() -> None:
    pole = spaces.Tuple((spaces.Discrete(3), spaces.Box(-np.inf, np.inf, (2,), np.float32)))
    obs_space = spaces.Dict({"cart": spaces.Box(-5.0, 5.0, (2,), np.float32), "pole": pole})

    def make() -> gym.Env:
        env = gym.make("CartPole-v1", max_episode_steps=5)
        return TransformObservation(env, lambda o: {"cart": o[:2], "pole": (1, o[2:])}, obs_space)

    for mode in AutoresetMode:
        report = check_vector_env(SyncVectorEnv([make, make], autoreset_mode=mode))
        assert set(report.passed) == ALL_PASSED


def test_passes_through_gymnasium_vector_wrappers() -> None:
    # RecordEpisodeStatistics adds info["episode"], a dict of arrays masked by info["_episode"]
    env = RecordEpisodeStatistics(pool_cartpole("same_step"))
    report = check_vector_env(env)
    assert set(report.passed) == ALL_PASSED
    assert "'_episode'" in dict((r.name, r.detail) for r in report.results)["info"]


def test_skips_autoreset_when_no_episode_ends() -> None:
    env = envpool.make("Pendulum-v1", num_envs=2)  # 200-step episodes
    report = check_vector_env(env, max_steps=10)
    assert "no episode ended within max_steps=10" in report.skipped["autoreset"]
    assert "autoreset" not in report.passed
    assert "reset_mask" in report.passed


def test_skips_reset_mask_with_one_env() -> None:
    env = envpool.make("CartPole-v1", num_envs=1, max_episode_steps=5)
    report = check_vector_env(env)
    assert "num_envs >= 2" in report.skipped["reset_mask"]
    assert report.num_envs == 1


def test_seed_check_skips_for_a_deterministic_env() -> None:
    # FrozenLake without slipping: every episode starts in cell 0 and moves deterministically,
    # so no seed can change what is observed; the check must say so, not fail
    make = lambda: gym.make("FrozenLake-v1", is_slippery=False, max_episode_steps=5)  # noqa: E731
    report = check_vector_env(SyncVectorEnv([make, make]), max_steps=50)
    assert "looks deterministic" in report.skipped["seed"]
    assert set(report.passed) == ALL_PASSED - {"seed"}


def test_skip_and_close_options() -> None:
    env = gym_cartpole()
    report = check_vector_env(env, skip=["seed", "info"], close=False)
    assert report.skipped["seed"] == "left out by skip="
    assert report.skipped["info"] == "left out by skip="
    assert report.skipped["close"].startswith("close=False")
    assert not env.closed
    env.close()


def test_report_lists_every_check() -> None:
    report = check_vector_env(pool_cartpole("same_step"))
    assert [r.name for r in report.results] == list(CHECKS)
    text = str(report)
    assert "autoreset_mode=SAME_STEP" in text
    assert all(f"passed  {name}:" in text for name in CHECKS)


def test_rejects_unknown_skip_names() -> None:
    with pytest.raises(ValueError, match="can be skipped"):
        check_vector_env(pool_cartpole(), skip=["spaces"])


def test_checker_leaves_the_env_action_space_rng_alone() -> None:
    env = pool_cartpole()
    env.action_space.seed(7)
    expected = [env.action_space.sample() for _ in range(3)]
    env.action_space.seed(7)
    check_vector_env(env, close=False)
    np.testing.assert_array_equal([env.action_space.sample() for _ in range(3)], expected)
    env.close()
