"""MiniGrid and BabyAI env steps/s: envpool against gymnasium's vector envs and the
original EnvPool.

    python benchmarks/bench_minigrid.py [--tasks MiniGrid-Empty-8x8-v0 MiniGrid-DoorKey-8x8-v0
        MiniGrid-KeyCorridorS3R3-v0 BabyAI-GoToLocal-v0 BabyAI-BossLevel-v0] [--num-envs 8]
        [--num-threads 2] [--seconds 2] [--rounds 3] [--peer-python /path/to/python]
        [--no-peers] [--json out.json]

Every engine steps --num-envs copies of a task in sync mode with the same kind of
pre-drawn random actions (Discrete(7)) and hands back the whole observation (image,
direction, mission): envpool on --num-threads threads; gymnasium's SyncVectorEnv and
AsyncVectorEnv over minigrid's own envs (``gymnasium.make`` after ``import minigrid``;
AsyncVectorEnv runs one process per env and pickles the observations, as minigrid's
mission space cannot be put in shared memory); and, with --peer-python, the original
EnvPool (1.2.5 has these ids) from another Python, in a subprocess, on as many threads.

Each round is one ``envpool bench`` run (envpool.bench) over every task and engine; the
table shows the median over the rounds with the range, and the ratios are the medians of
the ratios within a round (the machine may be shared and noisy, so compare within a run).
"envpool / best gymnasium" takes the faster of SyncVectorEnv and AsyncVectorEnv in each
round. `envpool bench --task MiniGrid-DoorKey-8x8-v0` compares more sizes and peers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict

from envpool.bench.report import (
    add_run_arguments,
    finish_script_run,
    format_ratio,
    markdown_table,
    rate_with_range,
)
from envpool.bench.runner import Settings, run

DEFAULT_TASKS = [
    "MiniGrid-Empty-8x8-v0",
    "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-KeyCorridorS3R3-v0",
    "BabyAI-GoToLocal-v0",
    "BabyAI-BossLevel-v0",
]
ENVPOOL = "envpool"
ORIGINAL = "original EnvPool"
GYMNASIUM = ("gymnasium SyncVectorEnv", "gymnasium AsyncVectorEnv")

Rounds = list[dict[tuple[str, str], float]]
"""One dict per round: (task, engine) -> env steps/s."""


def measure(args: argparse.Namespace) -> tuple[Rounds, dict[str, str], list[dict]]:
    """Every round's rates, the versions (the original EnvPool's included) and every
    measurement as a dict with its round."""
    rounds: Rounds = []
    found: list[dict] = []
    vers: dict[str, str] = {}
    for i in range(args.rounds):
        settings = Settings(
            tasks=args.tasks,
            num_envs=[args.num_envs],
            num_threads=args.num_threads,
            seconds=args.seconds,
            peers=not args.no_peers,
            peer_python=None if args.no_peers else args.peer_python,
            peer_names=GYMNASIUM,
        )
        report = run(settings, out=sys.stderr, progress=False)
        rounds.append({(m.task, m.engine): m.steps_per_second for m in report.measurements})
        found.extend({"round": i, **asdict(m)} for m in report.measurements)
        vers = report.versions
        line = ", ".join(f"{t} {e} {r:,.0f}" for (t, e), r in rounds[-1].items())
        print(f"round {i + 1}/{args.rounds}: {line}", file=sys.stderr, flush=True)
    return rounds, vers, found


def median_ratio(rounds: Rounds, task: str, peers: Sequence[str]) -> str:
    """envpool over the fastest of `peers`, the median over the rounds that have both."""
    ratios = []
    for rates in rounds:
        theirs = [rates[(task, p)] for p in peers if (task, p) in rates]
        if (task, ENVPOOL) in rates and theirs:
            ratios.append(rates[(task, ENVPOOL)] / max(theirs))
    return format_ratio(statistics.median(ratios)) if ratios else "-"


def table(rounds: Rounds, tasks: Sequence[str], original_name: str) -> list[str]:
    """One row per task: each engine's median rate (range), then envpool's ratios."""
    measured = {engine for rates in rounds for (_, engine) in rates}
    engines = [e for e in (ENVPOOL, ORIGINAL, *GYMNASIUM) if e in measured]
    names = [original_name if e == ORIGINAL else e for e in engines]
    header = ["task", *names]
    if ORIGINAL in engines:
        header.append(f"envpool / {original_name}")
    header.append("envpool / best gymnasium")
    rows = []
    for task in tasks:
        rates = [[r[(task, e)] for r in rounds if (task, e) in r] for e in engines]
        row = [task, *map(rate_with_range, rates)]
        if ORIGINAL in engines:
            row.append(median_ratio(rounds, task, [ORIGINAL]))
        rows.append([*row, median_ratio(rounds, task, GYMNASIUM)])
    return markdown_table(header, rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_run_arguments(parser, DEFAULT_TASKS, rounds=3, threads=False)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=2)
    parser.add_argument("--peer-python", help="a Python with the original EnvPool installed")
    parser.add_argument("--no-peers", action="store_true", help="measure envpool only")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    rounds, vers, found = measure(args)
    load_after = os.getloadavg()[0]
    original_name = ORIGINAL
    if ORIGINAL in vers:
        original_name = f"{ORIGINAL} {vers[ORIGINAL]}"
    print(
        f"{args.num_envs} envs, {args.num_threads} threads, sync; env steps/s, median of "
        f"{args.rounds} round(s) of {args.seconds:g} s (range)"
    )
    print()
    print("\n".join(table(rounds, args.tasks, original_name)))
    print()
    finish_script_run(args.json, vars(args), vers, (load_before, load_after), ("results", found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
