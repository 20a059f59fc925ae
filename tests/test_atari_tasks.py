"""Atari tasks: one per single-player ROM ale-py ships, ALE linked so that ale_py can live
beside it, and clear errors when a game, ale-py or a ROM is missing."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

import envpool
from envpool.families.atari.tasks import MULTI_PLAYER_ROM_IDS, ROM_IDS, task_name
from envpool.registry import get_task

ale_py = pytest.importorskip("ale_py")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),  # import the installed envpool, not the source folder
    )


def _listed_atari_tasks() -> set[str]:
    return {t for t in envpool.list_all_envs() if get_task(t).entry_point == "envpool._atari:Atari"}


def test_one_task_per_single_player_rom_that_ale_py_ships() -> None:
    shipped = set(ale_py.roms.get_all_rom_ids())
    assert set(ROM_IDS) | set(MULTI_PLAYER_ROM_IDS) == shipped
    assert not set(ROM_IDS) & set(MULTI_PLAYER_ROM_IDS)
    assert len(ROM_IDS) == 104
    tasks = _listed_atari_tasks()
    for name in ["Pong-v5", "Breakout-v5", "MontezumaRevenge-v5", "SpaceInvaders-v5"]:
        assert name in tasks
    assert tasks == {f"{task_name(r)}-v5" for r in ROM_IDS}


def test_task_names_are_gymnasium_ale_v5_names() -> None:
    import gymnasium as gym

    gym.register_envs(ale_py)
    ale_names = {k[4:] for k in gym.registry if k.startswith("ALE/") and k.endswith("-v5")}
    assert _listed_atari_tasks() == ale_names


def test_every_listed_atari_task_can_be_made() -> None:
    for task_id in sorted(_listed_atari_tasks()):
        spec = envpool.make_spec(task_id)
        assert spec.action_space.n >= 2, task_id


@pytest.mark.parametrize("rom_id", MULTI_PLAYER_ROM_IDS)
def test_multi_player_roms_are_not_tasks_and_say_why(rom_id: str) -> None:
    game = task_name(rom_id)
    assert f"{game}-v5" not in envpool.list_all_envs()
    why = f"{game}-v5 is not available: ale-py .* ships the {game} ROM for multi-player use only"
    with pytest.raises(ValueError, match=why):
        envpool.make_spec(f"{game}-v5")


@pytest.mark.parametrize("rom_id", MULTI_PLAYER_ROM_IDS)
def test_multi_player_rom_as_rom_path_says_why_it_cannot_run(rom_id: str) -> None:
    game = task_name(rom_id)
    with pytest.raises(ValueError, match=f"is the {game} ROM, which ale-py ships for multi-player"):
        envpool.make_spec("Pong-v5", rom_path=str(ale_py.roms.get_rom_path(rom_id)))


@pytest.mark.parametrize("first", ["ale_py", "envpool"])
def test_ale_py_and_envpool_in_one_process(first: str) -> None:
    second = "envpool" if first == "ale_py" else "ale_py"
    done = _run(
        f"""
        import numpy as np
        import {first}, {second}
        import ale_py, envpool
        ale = ale_py.ALEInterface()
        ale.setLoggerMode(ale_py.LoggerMode.Error)
        ale.loadROM(ale_py.roms.get_rom_path("pong"))
        ale.act(ale.getMinimalActionSet()[0])
        with envpool.make("Pong-v5", num_envs=2) as env:
            obs, info = env.reset()
            env.step(np.zeros(2, dtype=np.int64))
        print(obs.shape)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "(2, 4, 84, 84)" in done.stdout


def test_unknown_game_suggests_close_names() -> None:
    with pytest.raises(ValueError, match="Pong-v5"):
        envpool.make("Pongg-v5")


def test_missing_ale_py_names_the_fix() -> None:
    done = _run(
        """
        import sys
        sys.modules["ale_py"] = None  # as if ale-py were not installed
        import envpool
        try:
            envpool.make("Pong-v5")
        except ImportError as exc:
            print("ERROR", exc)
        """
    )
    assert done.returncode == 0, done.stderr
    assert "pip install ale-py==0.12.1" in done.stdout


def test_missing_rom_file_names_the_fix(tmp_path) -> None:
    with pytest.raises(ValueError, match="ale-py"):
        envpool.make("Pong-v5", rom_path=str(tmp_path / "absent.bin"))


def test_render_returns_every_env_frame() -> None:
    with envpool.make("Pong-v5", num_envs=3, render_mode="rgb_array") as env:
        env.reset()
        env.step(np.zeros(3, dtype=np.int64))
        frames = env.render()
    assert isinstance(frames, tuple) and len(frames) == 3  # as gymnasium's VectorEnv returns
    frames = np.stack(frames)
    assert frames.shape == (3, 210, 160, 3)
    assert frames.dtype == np.uint8
    assert frames.any()


def test_render_needs_render_mode() -> None:
    with envpool.make("Pong-v5", num_envs=1) as env:
        env.reset()
        with pytest.raises(ValueError, match="render_mode"):
            env.render()


def test_seeded_reset_replays_like_a_fresh_env() -> None:
    """ALE keeps RAM across reset_game; a seeded reset must still replay exactly.

    In Seaquest a game played after a long one goes differently from a first
    game, unless reset(seed=...) starts the emulator afresh.
    """
    actions = np.random.default_rng(0).integers(0, 18, size=(1500, 1))

    def rollout(env, steps: int) -> list[np.ndarray]:
        n = env.single_action_space.n
        return [env.step(a % n)[0].copy() for a in actions[:steps]]

    with envpool.make("Seaquest-v5", num_envs=1, seed=5, noop_max=0) as fresh:
        fresh.reset()
        expected = rollout(fresh, 300)
    with envpool.make("Seaquest-v5", num_envs=1, seed=5, noop_max=0) as used:
        used.reset()
        rollout(used, 1500)  # long enough to change the console's state
        used.reset(seed=5)
        got = rollout(used, 300)
    for a, b in zip(expected, got, strict=True):
        np.testing.assert_array_equal(a, b)
