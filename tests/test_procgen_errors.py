"""Bad input to the Procgen tasks: every option is checked before procgen's library sees
it (the library ends the process on an option it does not accept), actions and saved
states are checked, and the pool stays usable after a refused call."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool import procgen_runtime

pytestmark = pytest.mark.skipif(
    os.uname().machine != "x86_64", reason="procgen's library runs on Linux x86-64 only"
)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"distribution_mode": "memory"},
            "starpilot has no memory mode; its distribution modes are easy, hard, extreme",
        ),
        ({"distribution_mode": "exploration"}, "starpilot has no exploration mode"),
        ({"distribution_mode": "nightmare"}, "'nightmare' is not one of procgen's"),
        ({"distribution_mode": 7}, "distribution_mode 7 is not one of procgen's modes"),
        ({"env_name": "pong"}, "procgen has no game 'pong'; its games are bigfish"),
        ({"num_levels": -1}, "num_levels must be in [0, 2**31 - 1], got -1"),
        ({"start_level": -5}, "start_level must be in [0, 2**31 - 1], got -5"),
        ({"start_level": 2**31 - 10, "num_levels": 20}, "start_level + num_levels must be at most"),
        ({"num_levels": 1.5}, "num_levels"),
        ({"library": "/tmp/libenv.so"}, "library is set by envpool"),
        ({"resource_root": "/tmp/"}, "resource_root is set by envpool"),
        ({"render_human": True}, "render_mode='rgb_array'"),
        ({"distribution_mod": "easy"}, "Did you mean 'distribution_mode'"),
    ],
)
def test_bad_options_are_refused_before_procgen_sees_them(options: dict, message: str) -> None:
    with pytest.raises((ValueError, TypeError)) as error:
        envpool.make("StarpilotHard-v0", num_envs=1, **options)
    assert message in str(error.value)


def test_exploration_sets_the_level_itself() -> None:
    with pytest.raises(ValueError, match=r"exploration.*sets num_levels and start_level itself"):
        envpool.make("CoinrunExploration-v0", num_envs=1, num_levels=3)


def test_bad_actions_are_refused_and_the_pool_goes_on() -> None:
    env = envpool.make("BigfishEasy-v0", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError, match=r"action 15 for env 1 is out of range \[0, 14\]"):
        env.step(np.array([0, 15]))
    with pytest.raises(ValueError, match="out of range"):
        env.step(np.array([-1, 0]))  # procgen's own forced reset is not an action
    with pytest.raises(TypeError, match="integer dtype"):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError):
        env.step(np.array([0, 1, 2]))
    obs, *_ = env.step(np.array([3, 4]))
    assert obs.shape == (2, 64, 64, 3)
    env.close()


def test_saved_states_are_checked_before_procgen_reads_them() -> None:
    env = envpool.make("MinerEasy-v0", num_envs=2, seed=0)
    env.reset()
    for _ in range(5):
        env.step(np.array([1, 2]))
    state = env.get_state()[0]
    flipped = bytearray(state)
    flipped[len(state) // 2] ^= 1
    with pytest.raises(ValueError, match="damaged procgen state"):
        env.set_state([bytes(flipped)], env_id=[0])
    with pytest.raises(ValueError, match="not a procgen state saved by envpool"):
        env.set_state([b"\x00" * 100], env_id=[0])
    with pytest.raises(ValueError, match="not a procgen state"):
        env.set_state([state[:10]], env_id=[0])
    with pytest.raises(TypeError, match="a list of states"):
        env.set_state(state)
    with pytest.raises(TypeError, match="bytes from get_state"):
        env.set_state(["text"], env_id=[0])
    with pytest.raises(ValueError, match="1 states for 2 envs"):
        env.set_state([state])
    other = envpool.make("MinerEasy-v0", num_envs=1, seed=0, use_backgrounds=False)
    other.reset()
    with pytest.raises(ValueError, match="saved from an env with other options"):
        other.set_state([state])
    other.close()
    # still usable, and the refused calls changed nothing
    obs, reward, *_ = env.step(np.array([1, 2]))
    assert obs.shape == (2, 64, 64, 3)
    env.close()


def test_state_needs_a_reset_first_and_an_idle_env() -> None:
    env = envpool.make("MazeEasy-v0", num_envs=2, batch_size=1, seed=0)
    with pytest.raises(Exception, match="reset"):
        env.get_state()
    env.async_reset()
    env.recv()
    with pytest.raises(envpool.errors.CallOrderError, match="in flight"):
        env.get_state()
    env.close()


def test_a_file_that_is_not_procgens_library_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from envpool.families.procgen import tasks

    fake = tmp_path / "libenv.so"
    fake.write_bytes(b"not a library")
    (tmp_path / "assets").mkdir()
    monkeypatch.setattr(tasks.procgen_runtime, "library", lambda: fake)
    monkeypatch.setattr(tasks, "_CHECKED", {})
    with pytest.raises(RuntimeError, match="cannot load procgen's game library"):
        envpool.make("CoinrunEasy-v0", num_envs=1)


def test_no_library_here_names_the_cause_and_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(procgen_runtime.platform, "machine", lambda: "aarch64")
    with pytest.raises(procgen_runtime.ProcgenUnavailableError, match="need Linux on x86-64"):
        envpool.make("CoinrunEasy-v0", num_envs=1)
    # the rest of envpool is unaffected
    env = envpool.make("CartPole-v1", num_envs=1)
    env.reset()
    env.close()


def test_other_tasks_have_no_saved_state() -> None:
    env = envpool.make("CartPole-v1", num_envs=1)
    env.reset()
    with pytest.raises(NotImplementedError, match="the Procgen tasks can"):
        env.get_state()
    env.close()
