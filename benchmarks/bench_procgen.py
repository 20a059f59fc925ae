"""Procgen env steps/s: envpool (sync and async) against procgen's own ProcgenGym3Env and
the original EnvPool; and what the first make in a process costs.

    python benchmarks/bench_procgen.py [--tasks CoinrunEasy-v0 StarpilotEasy-v0
        BigfishEasy-v0 MazeEasy-v0] [--num-envs 8] [--num-threads 2] [--batch-size 4]
        [--seconds 2] [--rounds 3] [--peer-python /path/to/python] [--no-peers]
        [--startup-runs 3] [--json out.json]

Every engine plays --num-envs copies of a task on --num-threads threads, all on procgen
0.10.7's own game library, with the same pre-drawn random actions (Discrete(15), from
``numpy.random.default_rng(0)``), and counts the env steps whose results it received:

- envpool, sync (every env each step) and async (``async_reset``, then ``recv`` /
  ``send`` of --batch-size envs);
- procgen's ``ProcgenGym3Env(num=num_envs, num_threads=num_threads)``, its C++-threaded
  vector env: ``act`` then ``observe`` per step (gym3's API; ``observe`` copies the
  observations, ``get_info`` is not called). procgen 0.10.7 has wheels for CPython up to
  3.10 only: on a later Python its ``procgen/env.py`` is loaded from the pinned wheel by
  tests/procgen_reference.py (needs gym3 0.3.3, installed ``--no-deps``, cffi and pytest);
- with --peer-python, the original EnvPool (1.2.5 has the same ids) from another Python,
  in a subprocess, sync and async (its Procgen needs the system's Qt 5 runtime, e.g.
  ``apt-get install libqt5gui5``).

Each round measures every engine once per task; the table shows the median over the
rounds (range), and the ratios are the medians of the ratios within a round (the machine
may be shared and noisy, so compare within a run). "best" is an engine's faster mode in
the round.

Start-up: each engine, in --startup-runs fresh processes, imports its package, makes
--num-envs envs of the first task and resets them (procgen loads and decodes all its
images once per process here), then makes and resets every task again (the per-make
cost after that); the medians over the processes. The library's files are in the page
cache by then (a warm disk).

The engines are envpool.bench's; `envpool bench --task CoinrunEasy-v0` compares more
sizes (ProcgenGym3Env only where procgen imports).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from envpool.bench import engines as eng
from envpool.bench.report import (
    add_run_arguments,
    finish_script_run,
    format_ratio,
    markdown_table,
    rate_with_range,
)
from envpool.bench.runner import versions

DEFAULT_TASKS = ["CoinrunEasy-v0", "StarpilotEasy-v0", "BigfishEasy-v0", "MazeEasy-v0"]
TESTS = Path(__file__).resolve().parent.parent / "tests"
"""Where tests/procgen_reference.py is (procgen's ProcgenGym3Env from its wheel)."""

ENVPOOL = "envpool"
GYM3 = eng.ProcgenGym3Engine.name
ORIGINAL = eng.OriginalEnvpoolEngine.name
SYNC, ASYNC = "sync", "async"

Rates = dict[tuple[str, str, str], list[float]]
"""(task, engine, mode) -> env steps/s, one per round (None-free; a round may lack one)."""


def load_reference(folder: Path) -> str | None:
    """Makes procgen's ProcgenGym3Env importable (``procgen.env``): procgen itself where
    it is installed, else its wheel unpacked into `folder` by tests/procgen_reference.py.
    None when it is there, else why not."""
    if eng.procgen_reference() is not None:
        return None
    for module, hint in (
        ("gym3", "pip install --no-deps gym3==0.3.3"),
        ("cffi", "pip install cffi"),
        ("pytest", "pip install pytest"),
    ):
        if importlib.util.find_spec(module) is None:
            return f"procgen's ProcgenGym3Env needs {module} here ({hint})"
    if not (TESTS / "procgen_reference.py").is_file():
        return f"no {TESTS / 'procgen_reference.py'} (run from envpool's source tree)"
    sys.path.insert(0, str(TESTS))
    try:
        import procgen_reference

        procgen_reference.load(folder)
    except Exception as exc:
        return f"procgen's ProcgenGym3Env does not load: {type(exc).__name__}: {exc}"
    finally:
        sys.path.remove(str(TESTS))
    return None if eng.procgen_reference() is not None else "procgen.env has no ProcgenGym3Env"


STARTUP_SCRIPT = """
import json, sys, time
kind, n, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
folder, tests = sys.argv[4], sys.argv[5]
tasks = [t.split(":") for t in sys.argv[6:]]  # task id, game, mode
start = time.perf_counter()
if kind == "gym3":
    if folder != "-":  # procgen's env.py from its wheel, unpacked there by the parent
        sys.path.insert(0, tests)
        import pathlib, procgen_reference
        procgen_reference.load(pathlib.Path(folder))
    from procgen.env import ProcgenGym3Env

    def make(task, game, mode):
        env = ProcgenGym3Env(num=n, env_name=game, distribution_mode=mode,
                             num_threads=threads, rand_seed=0)
        env.observe()
        return env
else:
    import importlib.util, envpool
    if kind == "original" and importlib.util.find_spec("envpool.bench") is not None:
        sys.exit("its envpool is this package (it has envpool.bench), not the original EnvPool")
    make_env = envpool.make_gymnasium if kind == "original" else envpool.make

    def make(task, game, mode):
        env = make_env(task, num_envs=n, num_threads=threads, seed=0)
        env.reset()
        return env
imported = time.perf_counter()
make(*tasks[0]).close()
first = time.perf_counter()
later = []
for task in [*tasks[1:], tasks[0]]:
    t = time.perf_counter()
    env = make(*task)
    later.append(time.perf_counter() - t)
    env.close()
print(json.dumps({"import": imported - start, "first": first - imported, "later": later}))
"""


def startup(
    kind: str, python: str, args: argparse.Namespace, folder: str, tasks: list[str]
) -> dict[str, Any] | str:
    """One fresh process of `kind` ("envpool", "gym3", "original"): seconds to import, to
    make and reset the first task's envs, and to make and reset each task after that;
    or why it failed."""
    import envpool

    specs = []
    for task in tasks:
        config = envpool.make_spec(task).config
        specs.append(f"{task}:{config['env_name']}:{config['distribution_mode']}")
    command = [python, "-c", STARTUP_SCRIPT, kind, str(args.num_envs), str(args.num_threads)]
    try:
        done = subprocess.run(
            [*command, folder, str(TESTS), *specs],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=os.path.expanduser("~"),  # not a folder holding this envpool's source
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{type(exc).__name__}: {exc}"
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_startup(
    args: argparse.Namespace, engines: dict[str, str], tasks: list[str]
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, str]]:
    """--startup-runs fresh processes of each engine (`engines`: kind -> python), in turn."""
    runs: dict[str, list[dict[str, Any]]] = {}
    failed: dict[str, str] = {}
    for i in range(args.startup_runs):
        for kind, python in engines.items():
            if kind in failed:
                continue
            folder = args.reference_folder if kind == "gym3" and args.reference_folder else "-"
            result = startup(kind, python, args, folder, tasks)
            if isinstance(result, str):
                failed[kind] = result
                print(f"note: start-up of {kind} failed: {result}", file=sys.stderr)
                continue
            runs.setdefault(kind, []).append(result)
            print(
                f"  start-up {i + 1}/{args.startup_runs} {kind}: import {result['import']:.2f} s,"
                f" first make {result['first']:.2f} s, later makes "
                f"{statistics.median(result['later']) * 1e3:.0f} ms",
                file=sys.stderr,
                flush=True,
            )
    return runs, failed


def measure(
    args: argparse.Namespace, plan: list[tuple[eng.Engine, int | None, str]]
) -> tuple[Rates, list[dict[str, Any]], dict[str, str]]:
    """Every round's rates of every (engine, batch_size, mode) of `plan` on every task."""
    rates: Rates = {}
    found: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    infos = {t: eng.task_info(t) for t in args.tasks}
    for i in range(args.rounds):
        print(f"round {i + 1}/{args.rounds}", file=sys.stderr, flush=True)
        for task in args.tasks:
            for engine, batch, mode in plan:
                if engine.name in skipped:
                    continue
                case = eng.Case(infos[task], args.num_envs, batch, args.num_threads, args.seconds)
                try:
                    rate = engine.measure(case)
                except eng.CannotRunError as exc:
                    skipped[engine.name] = str(exc)
                    print(f"note: {engine.name} left out: {exc}", file=sys.stderr)
                    continue
                rates.setdefault((task, engine.name, mode), []).append(rate)
                found.append(
                    {"round": i, "task": task, "engine": engine.name, "mode": mode, "rate": rate}
                )
                print(f"  {task} {engine.name} {mode}: {rate:,.0f} steps/s", file=sys.stderr)
    return rates, found, skipped


def per_round(rates: Rates, task: str, engine: str, mode: str | None) -> list[float | None]:
    """The engine's rate in each round (None where missing); mode None: its best mode."""
    modes = [mode] if mode else [SYNC, ASYNC]
    series = [rates.get((task, engine, m), []) for m in modes]
    rounds = max((len(s) for s in series), default=0)
    out: list[float | None] = []
    for i in range(rounds):
        found = [s[i] for s in series if len(s) > i]
        out.append(max(found) if found else None)
    return out


def ratio(
    rates: Rates, task: str, a: tuple[str, str | None], b: tuple[str, str | None]
) -> list[float]:
    """a / b within each round that has both (engine, mode) pairs (mode None: best)."""
    xs, ys = per_round(rates, task, *a), per_round(rates, task, *b)
    return [x / y for x, y in zip(xs, ys, strict=False) if x and y]


def ratio_cell(ratios: Sequence[float]) -> str:
    """The median ratio, with the rounds' range for several."""
    if not ratios:
        return "-"
    cell = format_ratio(statistics.median(ratios))
    if len(ratios) > 1:
        cell += f" ({min(ratios):.2f}-{max(ratios):.2f})"
    return cell


RATIOS = {
    "envpool sync / ProcgenGym3Env": ((ENVPOOL, SYNC), (GYM3, SYNC)),
    "envpool async / ProcgenGym3Env": ((ENVPOOL, ASYNC), (GYM3, SYNC)),
    "envpool async / sync": ((ENVPOOL, ASYNC), (ENVPOOL, SYNC)),
    "envpool / original (best modes)": ((ENVPOOL, None), (ORIGINAL, None)),
}


def tables(
    rates: Rates, args: argparse.Namespace, original_name: str
) -> tuple[list[str], list[str]]:
    """The env steps/s table (median (range) of each engine and mode) and the ratios."""
    columns = [
        (ENVPOOL, SYNC, "envpool sync"),
        (ENVPOOL, ASYNC, f"envpool async (batch_size {args.batch_size})"),
        (GYM3, SYNC, "ProcgenGym3Env"),
        (ORIGINAL, SYNC, f"{original_name} sync"),
        (ORIGINAL, ASYNC, f"{original_name} async"),
    ]
    columns = [c for c in columns if any((t, c[0], c[1]) in rates for t in args.tasks)]
    rows = [
        [task, *(rate_with_range(rates.get((task, e, m))) for e, m, _ in columns)]
        for task in args.tasks
    ]
    steps = markdown_table(["task", *(label for _, _, label in columns)], rows)
    names = [n for n, (a, b) in RATIOS.items() if any(ratio(rates, t, a, b) for t in args.tasks)]
    ratio_rows = [
        [task, *(ratio_cell(ratio(rates, task, *RATIOS[n])) for n in names)] for task in args.tasks
    ]
    return steps, markdown_table(["task", *names], ratio_rows)


STARTUP_NAMES = {"envpool": "envpool", "gym3": "ProcgenGym3Env", "original": ORIGINAL}


def startup_table(
    runs: dict[str, list[dict[str, Any]]], args: argparse.Namespace, original_name: str
) -> list[str]:
    rows = []
    for kind, results in runs.items():
        name = original_name if kind == "original" else STARTUP_NAMES[kind]

        def cell(values: list[float], unit: float = 1.0, fmt: str = "{:.2f} s") -> str:
            mid = fmt.format(statistics.median(values) * unit)
            if len(values) == 1:
                return mid
            return f"{mid} ({fmt.format(min(values) * unit)}-{fmt.format(max(values) * unit)})"

        later = [statistics.median(r["later"]) for r in results]
        rows.append(
            [
                name,
                cell([r["import"] for r in results]),
                cell([r["first"] for r in results]),
                cell(later, 1e3, "{:.0f} ms"),
            ]
        )
    n = args.num_envs
    header = [
        "engine",
        "import",
        f"first make + reset, {n} envs (once per process)",
        f"later make + reset, {n} envs",
    ]
    return markdown_table(header, rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_run_arguments(parser, DEFAULT_TASKS, rounds=3, threads=False)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4, help="async batch size (0: no async)")
    parser.add_argument("--peer-python", help="a Python with the original EnvPool installed")
    parser.add_argument("--no-peers", action="store_true", help="measure envpool only")
    parser.add_argument(
        "--startup-runs", type=int, default=3, help="fresh processes per engine (0: none)"
    )
    args = parser.parse_args(argv)
    n, b = args.num_envs, args.batch_size

    from envpool.registry import get_task

    for task in args.tasks:
        if eng.task_family(task) != "procgen":
            parser.error(f"{task} is not a Procgen task")
        get_task(task).load()

    ours = eng.EnvpoolEngine()
    plan: list[tuple[eng.Engine, int | None, str]] = [(ours, None, SYNC)]
    if 0 < b < n:
        plan.append((ours, b, ASYNC))
    startup_engines = {"envpool": sys.executable}
    original = None
    skipped: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="procgen-reference-") as folder:
        args.reference_folder = None
        if not args.no_peers:
            why = load_reference(Path(folder))
            if why:
                skipped[GYM3] = why
                print(f"note: {GYM3} left out: {why}", file=sys.stderr)
            else:
                plan.append((eng.ProcgenGym3Engine(), None, SYNC))
                startup_engines["gym3"] = sys.executable
                if (Path(folder) / "procgen" / "env.py").is_file():
                    args.reference_folder = folder
            if args.peer_python:
                original = eng.OriginalEnvpoolEngine(args.peer_python)
                plan.append((original, None, SYNC))
                if 0 < b < n:
                    plan.append((original, b, ASYNC))
                startup_engines["original"] = args.peer_python

        load_before = os.getloadavg()[0]
        rates, found, failed = measure(args, plan)
        skipped.update(failed)
        if ORIGINAL in skipped:
            startup_engines.pop("original", None)
        startups, startup_failed = (
            measure_startup(args, startup_engines, args.tasks) if args.startup_runs else ({}, {})
        )
        load_after = os.getloadavg()[0]

    original_name = ORIGINAL
    vers = versions()
    if original is not None and original.version:
        original_name = f"{ORIGINAL} {original.version}"
        vers[ORIGINAL] = original.version
    steps, ratios = tables(rates, args, original_name)
    print()
    print(
        f"{n} envs, {args.num_threads} threads; env steps/s, median of {args.rounds} "
        f"round(s) of {args.seconds:g} s (range)"
    )
    print()
    print("\n".join(steps))
    print()
    print("Ratios: median of the rounds' ratios (range)")
    print()
    print("\n".join(ratios))
    if startups:
        print()
        print(
            f"Start-up: median of {args.startup_runs} fresh process(es) (range); "
            "later makes: the median over the tasks"
        )
        print()
        print("\n".join(startup_table(startups, args, original_name)))
    for name, why in {**skipped, **startup_failed}.items():
        print(f"note: {name} left out: {why}")
    print()
    results = [*found, *({"startup": k, **r} for k, rs in startups.items() for r in rs)]
    settings = {k: v for k, v in vars(args).items() if k != "reference_folder"}
    finish_script_run(args.json, settings, vers, (load_before, load_after), ("results", results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
