"""The `envpool` command: list, info, bench, and its errors."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

import envpool


def _console_script() -> list[str]:
    """The installed `envpool` command, next to this Python's other scripts when possible."""
    for folder in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        path = Path(folder) / "envpool"
        if path.is_file() and os.access(path, os.X_OK):
            return [str(path)]
    found = shutil.which("envpool")
    if found is None:
        pytest.skip("the envpool console script is not installed (pip install .)")
    return [found]


def run(*args: str, command: list[str] | None = None, timeout: float = 60):
    """Runs `envpool ARGS` from a folder without envpool's source, so the install is used."""
    return subprocess.run(
        [*(command or _console_script()), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tempfile.gettempdir(),
    )


def test_list_all() -> None:
    done = run("list")
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split()
    assert listed == sorted(listed)
    assert {"CartPole-v1", "Pendulum-v1", "Pong-v5", "Breakout-v5"} <= set(listed)
    assert set(listed) <= set(envpool.list_all_envs())  # other tests may register more here


def test_list_glob_and_substring() -> None:
    done = run("list", "Pong*")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Pong-v5"]
    done = run("list", "cartpole-v")  # case-insensitive; the DMC's Cartpole* ids lack the "-"
    assert done.stdout.split() == ["CartPole-v0", "CartPole-v1"]
    done = run("list", "NoSuchGame")
    assert done.returncode == 1
    assert "no task id matches" in done.stderr


def test_list_families() -> None:
    done = run("list", "--families")
    assert done.returncode == 0, done.stderr
    counts = {line.split()[0]: int(line.split()[1]) for line in done.stdout.splitlines()}
    for family in ("atari", "box2d", "classic_control", "mujoco", "toy_text"):
        assert counts[family] == len(envpool.registry.list_families()[family])
    assert counts["box2d"] == 5 and counts["classic_control"] == 6
    done = run("list", "--family", "box2d")
    assert done.stdout.split() == [
        "BipedalWalker-v3",
        "BipedalWalkerHardcore-v3",
        "CarRacing-v3",
        "LunarLander-v3",
        "LunarLanderContinuous-v3",
    ]
    done = run("list", "--family", "box2d", "lunar*")
    assert done.stdout.split() == ["LunarLander-v3", "LunarLanderContinuous-v3"]
    done = run("list", "--family", "box3d")
    assert done.returncode == 1
    assert "no family 'box3d'" in done.stderr and "box2d" in done.stderr


def test_info_shows_spaces_and_options() -> None:
    done = run("info", "CartPole-v1")
    assert done.returncode == 0, done.stderr
    for text in ("Discrete(2)", "max_episode_steps  500", "sutton_barto_reward = False"):
        assert text in done.stdout
    done = run("info", "Pong-v5", "--json")
    info = json.loads(done.stdout)
    assert info["options"]["frame_skip"] == 4
    assert info["observation_space"] == "Box(0, 255, (4, 84, 84), uint8)"


def test_python_dash_m() -> None:
    done = run("list", command=[sys.executable, "-m", "envpool"])
    assert done.returncode == 0, done.stderr
    assert "CartPole-v1" in done.stdout.split()


def test_bench_envpool_only(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    done = run(
        "bench",
        *("--task", "CartPole-v1", "--num-envs", "4", "--seconds", "0.2"),
        *("--json", str(out), "--no-peers"),
    )
    assert done.returncode == 0, done.stderr
    assert "| envpool" in done.stdout
    result = json.loads(out.read_text())
    (row,) = result["results"]
    assert row["engine"] == "envpool" and row["num_envs"] == 4
    assert row["steps_per_second"] > 0


def test_bench_with_peers_and_plot(tmp_path: Path) -> None:
    has_plot = importlib.util.find_spec("matplotlib") is not None
    plot = ["--plot", str(tmp_path / "x.png")] if has_plot else []
    out = tmp_path / "x.json"
    done = run(
        "bench",
        *("--task", "CartPole-v1", "--num-envs", "2", "--num-envs", "4", "--seconds", "0.2"),
        *("--json", str(out), *plot),
    )
    assert done.returncode == 0, done.stderr
    engines = {r["engine"] for r in json.loads(out.read_text())["results"]}
    assert {"envpool", "gymnasium SyncVectorEnv", "gymnasium for-loop"} <= engines
    assert "envpool speed-up" in done.stdout
    if has_plot:
        assert (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG")


def test_bench_atari_counts_frames(tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    done = run(
        "bench",
        *("--task", "Pong-v5", "--num-envs", "2", "--batch-size", "1", "--seconds", "0.2"),
        *("--json", str(out), "--no-peers"),
    )
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text())["results"]
    assert row["batch_size"] == 1
    assert row["frames_per_second"] == pytest.approx(4 * row["steps_per_second"])


def test_bench_multi_agent_counts_agent_steps(tmp_path: Path) -> None:
    """An mpe2 task: envpool against the mpe2 for-loop and SuperSuit's vector envs (or a
    note that supersuit is missing), with agent steps/s = steps/s x 4 agents."""
    out = tmp_path / "x.json"
    done = run(
        "bench",
        *("--task", "SimpleTag-v3", "--num-envs", "2", "--num-threads", "1"),
        *("--seconds", "0.1", "--json", str(out), "--no-progress"),
        command=[sys.executable, "-m", "envpool"],
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["agents"] == {"SimpleTag-v3": 4}
    rows = {r["engine"]: r for r in result["results"]}
    peers = ["mpe2 for-loop"]
    if importlib.util.find_spec("supersuit") is None:
        assert "needs supersuit" in done.stdout
    else:
        peers += ["SuperSuit concat_vec_envs", "SuperSuit concat_vec_envs (processes)"]
    assert set(rows) == {"envpool", *peers}
    for row in rows.values():
        assert row["agent_steps_per_second"] == pytest.approx(4 * row["steps_per_second"])
    assert "agent steps/s" in done.stdout


def test_bench_multi_agent_async() -> None:
    """The multi-agent pool's async batches (rows are envs) through the bench's loop."""
    from envpool import bench

    settings = bench.Settings(
        tasks=["SimpleSpread-v3"], num_envs=[4], batch_size=2, seconds=0.05, peers=False
    )
    report = bench.run(settings, progress=False)
    (row,) = report.measurements
    assert (row.engine, row.batch_size) == ("envpool", 2)
    assert row.agent_steps_per_second == pytest.approx(3 * row.steps_per_second)
    assert "agent steps/s = steps/s x 3 agents" in bench.format_report(report)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "required"),
        (("frobnicate",), "invalid choice"),
        (("info", "CartPol-v1"), "CartPole-v1"),
        (("bench", "--task", "NoSuchTask-v0"), "unknown task id"),
        (("bench", "--num-envs", "0"), "must be >= 1"),
        (("bench", "--seconds", "soon"), "expected a number"),
        (("bench", "--num-envs", "4", "--batch-size", "8"), "--batch-size 8"),
        (("bench", "--json", "/no/such/folder/x.json"), "does not exist"),
        (("bench", "--peer-python", "/no/such/python"), "no such executable"),
    ],
)
def test_bad_arguments_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run(*args, command=[sys.executable, "-m", "envpool"])
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def _without(module: str, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """Runs `python -m envpool ARGS` with `module` made unimportable."""
    blocker = folder / module
    blocker.mkdir()
    (blocker / "__init__.py").write_text(f"raise ImportError('{module} hidden for a test')\n")
    return subprocess.run(
        [sys.executable, "-m", "envpool", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tempfile.gettempdir(),
        env={**os.environ, "PYTHONPATH": str(folder)},
    )


def test_plot_without_matplotlib_names_the_extra(tmp_path: Path) -> None:
    """A --plot without matplotlib fails before measuring, naming envpool[bench]."""
    done = _without("matplotlib", tmp_path, "bench", "--plot", str(tmp_path / "x.png"))
    assert done.returncode == 2
    assert 'pip install "envpool[bench]"' in done.stderr


def test_missing_peer_dependency_is_one_note(tmp_path: Path) -> None:
    """Without opencv, gymnasium's Atari peers are skipped with one line; tqdm is optional."""
    (tmp_path / "tqdm").mkdir()
    (tmp_path / "tqdm" / "__init__.py").write_text("raise ImportError('tqdm hidden')\n")
    args = ("bench", "--task", "Pong-v5", "--num-envs", "2", "--seconds", "0.1")
    done = _without("cv2", tmp_path, *args)
    assert done.returncode == 0, done.stderr
    notes = [line for line in done.stdout.splitlines() if "needs opencv" in line]
    assert len(notes) == 1 and "gymnasium SyncVectorEnv" in notes[0]
    assert "[1/2] Pong-v5 2 envs: envpool" in done.stderr  # the plain-text progress
    assert "| ale-py AtariVectorEnv" in done.stdout


def test_peer_python_must_hold_the_original() -> None:
    """--peer-python pointing at this envpool is noted and left out, not mislabelled."""
    done = run(
        "bench",
        *("--task", "CartPole-v1", "--num-envs", "2", "--seconds", "0.1", "--no-peers"),
        *("--peer-python", sys.executable),
    )
    assert done.returncode == 0, done.stderr
    assert "not the original EnvPool" in done.stdout
    assert "| original EnvPool" not in done.stdout


def test_info_describes_a_dict_observation() -> None:
    done = run("info", "CheetahRun-v1")
    assert done.returncode == 0, done.stderr
    assert "dm observation     {position: BoundedArray(shape=(8,)" in done.stdout
    assert "model_file" in done.stdout and "(filled in when a pool is made)" in done.stdout


@pytest.mark.parametrize(
    "task_id", ["SimpleSpread-v3", "MiniGrid-DoorKey-8x8-v0", "BabyAI-GoToRedBall-v0"]
)
def test_info_shows_defaults_that_make_accepts(task_id: str) -> None:
    """Every default `envpool info` prints is one `make` takes back (mpe2's neighbour
    counts and minigrid's max_steps are None, not the config's 0), enumerated options
    list their choices, and a multi-agent task shows no dm_env specs (it refuses
    env_type='dm')."""
    done = run("info", "--json", task_id)
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    options = {k: tuple(v) if isinstance(v, list) else v for k, v in info["options"].items()}
    with envpool.make(task_id, num_envs=1, **options) as env:
        env.reset(seed=0)
    text = run("info", task_id).stdout
    if task_id.startswith("Simple"):
        assert info["action_spec"] is None and "dm action" not in text
        assert "env_type='dm' is refused" in text
        assert options["num_agent_neighbors"] is None
    else:
        assert options["max_steps"] is None
        assert "'rgb_partial'" in text and "max_steps" in info["option_notes"]
