"""What a cold `pip install ".[bench]"` costs, stage by stage (docs/development.md).

    python benchmarks/build_time.py [--rev HEAD] [--runs 2] [--extras bench]
        [--families LIST] [--define NAME=VALUE ...] [--json out.json] [--keep]

Each run does what a new user's first install does: a fresh clone (`git archive` of
--rev, so the checkout can change meanwhile), a fresh virtual env, an empty pip cache,
no ccache, and the README's `pip install ".[bench]"`. A compiler launcher (this script's
`--launch` mode) records every compile and link: its start, end and CPU time
(user + system, from wait4) and its output, so the table splits the build into ALE,
Box2D, each envpool module's compiles and each link; "before/after the build" is
everything else (the venv, downloads, the dependency install, CMake's configure, the
install into the venv). The median run's table is printed; --json keeps all runs.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
LOG_VARIABLE = "ENVPOOL_BUILD_TIMING_LOG"


def launch(command: list[str]) -> int:
    """Runs one compile or link and appends [start, end, cpu seconds, output] to the log."""
    start = time.time()
    pid = os.posix_spawnp(command[0], command, os.environ)
    _, status, usage = os.wait4(pid, 0)
    output = command[command.index("-o") + 1] if "-o" in command[:-1] else command[-1]
    with open(os.environ[LOG_VARIABLE], "a") as log:
        cpu = usage.ru_utime + usage.ru_stime
        log.write(json.dumps([start, time.time(), cpu, output]) + "\n")
    return os.waitstatus_to_exitcode(status)


def stage_of(output: str) -> str:
    """The table row a compile or link belongs to, from its output's path."""
    name = os.path.basename(output)
    if "ale-build" in output:
        return "ALE (compile)"
    if "box2d_engine" in output:
        return "Box2D (compile)"
    module = re.search(r"CMakeFiles/(_\w+)\.dir/", output)
    if module:
        return f"{module.group(1)} (compile)"
    if name.endswith(".so"):
        return f"{name.split('.')[0]} (link)"
    return f"{name} (other)"


def one_run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="envpool-build-time-"))
    log = folder / "units.jsonl"
    launcher = folder / "launch"
    launcher.write_text(
        f'#!/bin/sh\nexec {sys.executable} {Path(__file__).resolve()} --launch "$@"\n'
    )
    launcher.chmod(0o755)
    env = {
        **os.environ,
        "PIP_CACHE_DIR": str(folder / "pip-cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "CCACHE_DISABLE": "1",
        "CMAKE_CXX_COMPILER_LAUNCHER": str(launcher),
        "CMAKE_CXX_LINKER_LAUNCHER": str(launcher),
        LOG_VARIABLE: str(log),
    }
    env.pop("VIRTUAL_ENV", None)
    if args.families is not None:
        env["ENVPOOL_FAMILIES"] = args.families
    source = folder / "src"
    source.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", args.rev], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    target = f"{source}[{args.extras}]" if args.extras else str(source)
    command = [str(folder / "venv" / "bin" / "pip"), "install", target]
    command += [f"-Cbuild-dir={folder / 'build'}"]
    command += [f"-Ccmake.define.{d}" for d in args.define]
    start = time.time()
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    with open(folder / "pip.log", "w") as pip_log:
        result = subprocess.run(command, env=env, stdout=pip_log, stderr=subprocess.STDOUT)
    end = time.time()
    if result.returncode != 0:
        tail = (folder / "pip.log").read_text().splitlines()[-30:]
        raise SystemExit("build_time: the install failed:\n" + "\n".join(tail))
    units = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    stages: dict[str, dict[str, float]] = {}
    for unit_start, unit_end, cpu, output in units:
        row = stages.setdefault(stage_of(output), {"units": 0, "cpu": 0.0, "start": 1e18, "end": 0})
        row["units"] += 1
        row["cpu"] += cpu
        row["start"] = min(row["start"], unit_start)
        row["end"] = max(row["end"], unit_end)
    build_start = min((u[0] for u in units), default=start)
    build_end = max((u[1] for u in units), default=start)
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"build_time: kept {folder}")
    return {
        "wall": end - start,
        "build_wall": build_end - build_start,
        "before_build": build_start - start,
        "after_build": end - build_end,
        "cpu": sum(u[2] for u in units),
        "stages": {
            name: {"units": r["units"], "cpu": r["cpu"], "wall": r["end"] - r["start"]}
            for name, r in sorted(stages.items())
        },
    }


def table(run: dict[str, Any]) -> str:
    lines = ["| stage | units | wall s (first start to last end) | CPU s |", "|---|---:|---:|---:|"]
    lines.append(
        f"| before the build (venv, downloads, dependencies, configure) | | "
        f"{run['before_build']:.0f} | |"
    )
    for name, row in run["stages"].items():
        lines.append(f"| {name} | {row['units']} | {row['wall']:.0f} | {row['cpu']:.0f} |")
    lines.append(f"| after the build (install into the venv) | | {run['after_build']:.0f} | |")
    lines.append(
        f"| **total** | | **{run['wall']:.0f}** ({run['wall'] / 60:.1f} min; "
        f"compiling and linking {run['build_wall']:.0f}) | **{run['cpu']:.0f}** |"
    )
    return "\n".join(lines)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--launch":
        sys.exit(launch(sys.argv[2:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the commit to build")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--extras", default="bench", help="the extras installed ('' for none)")
    parser.add_argument("--families", default=None, help="ENVPOOL_FAMILIES for the build")
    parser.add_argument(
        "--define",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a CMake definition, e.g. ENVPOOL_LTO=ON",
    )
    parser.add_argument("--json", type=Path, help="write every run's numbers here")
    parser.add_argument("--keep", action="store_true", help="keep the runs' folders")
    args = parser.parse_args()
    runs = []
    for i in range(args.runs):
        run = one_run(args)
        print(
            f"build_time: run {i + 1}: {run['wall']:.0f} s wall, {run['cpu']:.0f} s CPU", flush=True
        )
        runs.append(run)
    median = sorted(runs, key=lambda r: r["wall"])[(len(runs) - 1) // 2]
    print(
        f"\nnproc {os.cpu_count()}, {len(runs)} run(s), median wall "
        f"{statistics.median(r['wall'] for r in runs):.0f} s; the median run:\n"
    )
    print(table(median))
    if args.json:
        args.json.write_text(
            json.dumps({"runs": runs, "args": vars(args) | {"json": None}}, indent=1, default=str)
        )


if __name__ == "__main__":
    main()
