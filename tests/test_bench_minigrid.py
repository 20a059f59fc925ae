"""MiniGrid in the benchmarks: `envpool bench` runs gymnasium's vector envs over minigrid
as peers, and benchmarks/bench_minigrid.py prints its table (no timing is checked)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("minigrid")

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_minigrid.py"
TASK = "MiniGrid-Empty-5x5-v0"


def _run(*args: str) -> subprocess.CompletedProcess:
    """Runs a command from a folder without envpool's source, so the install is used."""
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),
    )


def test_envpool_bench_runs_minigrid_peers(tmp_path: Path) -> None:
    """minigrid's ids reach gymnasium's vector envs; AsyncVectorEnv runs without shared
    memory (minigrid's mission space cannot be shared)."""
    out = tmp_path / "x.json"
    done = _run(
        *("-m", "envpool", "bench", "--task", TASK, "--num-envs", "2", "--seconds", "0.05"),
        *("--json", str(out), "--no-progress"),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    engines = {r["engine"] for r in result["results"]}
    assert engines == {
        "envpool",
        "gymnasium for-loop",
        "gymnasium SyncVectorEnv",
        "gymnasium AsyncVectorEnv",
    }
    assert result["skipped"] == []
    assert "minigrid" in result["versions"]


def test_bench_minigrid_script(tmp_path: Path) -> None:
    """One row per task with each engine's median and envpool's ratios; every round's
    measurements in the JSON. A --peer-python that is not the original is noted and left out."""
    out = tmp_path / "mg.json"
    done = _run(
        *(str(SCRIPT), "--tasks", TASK, "MiniGrid-DoorKey-5x5-v0", "--num-envs", "2"),
        *("--seconds", "0.05", "--rounds", "2", "--json", str(out)),
        *("--peer-python", sys.executable),
    )
    assert done.returncode == 0, done.stderr
    assert "not the original EnvPool" in done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    header, body = rows[0], rows[1:]
    for name in ("envpool", "gymnasium SyncVectorEnv", "gymnasium AsyncVectorEnv"):
        assert f" {name} " in header
    assert "original EnvPool" not in header
    assert [r.split("|")[1].strip() for r in body] == [TASK, "MiniGrid-DoorKey-5x5-v0"]
    assert all(r.rstrip(" |").endswith("x") for r in body)  # envpool / best gymnasium
    results = json.loads(out.read_text())["results"]
    assert len(results) == 2 * 2 * 3  # rounds x tasks x engines
    assert {r["round"] for r in results} == {0, 1}
    assert {r["num_envs"] for r in results} == {2}


def test_reference_prints_stay_out_of_the_tables() -> None:
    """minigrid prints "Sampling rejected: ..." while it generates BossLevel's levels; the
    bench keeps a peer's prints out of its own output."""
    done = _run(
        *("-m", "envpool", "bench", "--task", "BabyAI-BossLevel-v0", "--num-envs", "4"),
        *("--seconds", "0.3", "--no-progress"),
    )
    assert done.returncode == 0, done.stderr
    assert "BabyAI-BossLevel-v0" in done.stdout
    assert "Sampling rejected" not in done.stdout + done.stderr
