"""benchmarks/device_scaling.py, the scaling part of benchmarks/device_check.sh: it
runs and prints one row per task and thread count, with the peers that apply."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "device_scaling.py"


def _module():
    spec = importlib.util.spec_from_file_location("device_scaling", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_prints_one_row_per_task_and_thread_count(tmp_path, capsys):
    pytest.importorskip("ale_py")
    out = tmp_path / "scaling.json"
    argv = ["--tasks", "CartPole-v1", "Pong-v5", "--threads", "1", "2", "--seconds", "0.05"]
    assert _module().main([*argv, "--json", str(out)]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    header, body = rows[0], rows[1:]
    assert "envpool" in header and "ale-py AtariVectorEnv" in header
    assert [r.split(" | ")[:2] for r in body] == [
        ["| CartPole-v1", "1"],
        ["| CartPole-v1", "2"],
        ["| Pong-v5", "1"],
        ["| Pong-v5", "2"],
    ]
    results = json.loads(out.read_text())["results"]
    assert {(r["task"], r["engine"], r["num_threads"]) for r in results} >= {
        ("Pong-v5", "ale-py AtariVectorEnv", 2),
        ("CartPole-v1", "envpool", 1),
    }
