"""Procgen in the benchmarks: `envpool bench` compares envpool with procgen's own
ProcgenGym3Env where procgen imports (else envpool alone, with a note), and
benchmarks/bench_procgen.py prints its tables (no timing is checked)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/cpuinfo") or os.uname().machine != "x86_64",
    reason="procgen's library runs on Linux x86-64 only",
)

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_procgen.py"
TASK = "CoinrunEasy-v0"
GYM3 = "procgen ProcgenGym3Env"


def _run(*args: str) -> subprocess.CompletedProcess:
    """Runs a command from a folder without envpool's source, so the install is used."""
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),
    )


def test_envpool_bench_procgen_without_procgen(tmp_path: Path) -> None:
    """procgen itself does not import on this Python (its wheels stop at 3.10): envpool is
    measured alone, with a note naming the missing peer; no gymnasium peer is tried."""
    out = tmp_path / "x.json"
    done = _run(
        *("-m", "envpool", "bench", "--task", TASK, "--num-envs", "2", "--seconds", "0.05"),
        *("--json", str(out), "--no-progress"),
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(out.read_text())
    assert result["settings"]["num_envs"] == {TASK: [2]}
    assert {r["engine"] for r in result["results"]} == {"envpool"}
    if sys.version_info >= (3, 11):  # else procgen may be installed
        assert [s["engine"] for s in result["skipped"]] == [GYM3]
        assert "pip install procgen==0.10.7" in done.stdout


def test_envpool_bench_without_procgen_library(tmp_path: Path) -> None:
    """procgen's library cannot be had (no wheel, an empty cache): the task is left out
    with procgen_runtime's reason, not a traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "envpool", "bench", "--task", TASK, "--num-envs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),
        env={
            **os.environ,
            "ENVPOOL_CACHE_DIR": str(tmp_path / "cache"),
            "ENVPOOL_PROCGEN_WHEEL": str(tmp_path / "missing.whl"),
        },
    )
    assert done.returncode == 0, done.stderr
    assert f"note: {TASK}: envpool skipped: ENVPOOL_PROCGEN_WHEEL=" in done.stdout
    assert "Traceback" not in done.stderr


def test_envpool_bench_runs_procgen_gym3(tmp_path: Path) -> None:
    """With procgen's env module importable (here: from its wheel), ProcgenGym3Env is a
    peer, sync at the sizes asked for; envpool runs async against it with a batch size."""
    from procgen_reference import load

    from envpool import bench

    load(tmp_path)
    settings = bench.Settings(tasks=[TASK], num_envs=[4], batch_size=2, num_threads=2, seconds=0.05)
    report = bench.run(settings, progress=False)
    found = {(m.engine, m.batch_size) for m in report.measurements}
    assert found == {("envpool", 2), (GYM3, 4)}
    assert report.skipped == []
    assert "procgen ProcgenGym3Env" in bench.format_report(report)


def test_bench_procgen_script(tmp_path: Path) -> None:
    """The rates table (envpool sync and async, ProcgenGym3Env), the ratios and the
    start-up table; a --peer-python that is not the original is noted and left out."""
    out = tmp_path / "pg.json"
    done = _run(
        *(str(SCRIPT), "--tasks", TASK, "MazeEasy-v0", "--num-envs", "4", "--batch-size", "2"),
        *("--seconds", "0.05", "--rounds", "2", "--startup-runs", "1", "--json", str(out)),
        *("--peer-python", sys.executable),
    )
    assert done.returncode == 0, done.stderr
    assert "not the original EnvPool" in done.stdout
    tables = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    rates, ratios, startup = tables[:3], tables[3:6], tables[6:]
    for name in ("envpool sync", "envpool async (batch_size 2)", "ProcgenGym3Env"):
        assert f" {name} " in rates[0]
    assert "original" not in rates[0]
    assert [r.split("|")[1].strip() for r in rates[1:]] == [TASK, "MazeEasy-v0"]
    assert " envpool sync / ProcgenGym3Env " in ratios[0]
    assert " envpool async / sync " in ratios[0]
    assert all(r.rstrip(" |").endswith(")") for r in ratios[1:])  # median (range)
    assert [r.split("|")[1].strip() for r in startup[1:]] == ["envpool", "ProcgenGym3Env"]
    results = json.loads(out.read_text())["results"]
    rows = [r for r in results if "round" in r]
    assert len(rows) == 2 * 2 * 3  # rounds x tasks x (envpool sync, async, ProcgenGym3Env)
    starts = [r for r in results if "startup" in r]
    assert [r["startup"] for r in starts] == ["envpool", "gym3"]
    assert all(r["first"] > 0 and len(r["later"]) == 2 for r in starts)
