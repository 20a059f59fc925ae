"""Checks `envpool tune`'s advice: is its pick within 10% of the best of an exhaustive sweep?

    python benchmarks/check_tune.py [--tasks CartPole-v1 Pong-v5] [--num-envs 8]
        [--budget 60] [--sweep-seconds 1.5] [--sweep-rounds 3]
        [--final-seconds 2] [--final-rounds 5] [--tolerance 0.10] [--json out.json]

For each task, at --num-envs envs:

1. sweep: every candidate of ``envpool.tune.candidates()`` (the grid `envpool tune`
   searches) is measured for --sweep-seconds, in --sweep-rounds rounds (each round
   measures every candidate once, in an order rotated from round to round); a
   candidate's rate is its median; the sweep's best is the highest median;
2. tune: ``envpool.tune.tune()`` with --budget (its default, 60 s), on pools of its own;
3. side by side: tune's pick and the sweep's best are measured again, alternately
   (A B, B A, ...), for --final-rounds rounds of --final-seconds each; the ratio is
   the median of the per-round ratios pick / best. It passes when the ratio is at
   least 1 - --tolerance (0.9). When tune picked the sweep's best, the ratio is 1.

Rates are env steps per second with pre-drawn random actions, as `envpool tune`
measures them. The machine may be shared: run it when the load is low; the exit
status is 1 if a task fails the check.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

from envpool import tune
from envpool.bench.runner import machine, versions


def sweep(
    task: str, num_envs: int, seconds: float, rounds: int
) -> dict[tune.Candidate, list[float]]:
    items = tune.candidates(num_envs)
    rates: dict[tune.Candidate, list[float]] = {c: [] for c in items}
    with tune.PoolMeasurer(task) as m:
        for c in items:  # open every pool first, so no round includes the opening
            m.measure(c, 0.05)
        for k in range(rounds):
            shift = k * len(items) // rounds
            for c in items[shift:] + items[:shift]:
                rates[c].append(m.measure(c, seconds))
                print(
                    f"  sweep {k + 1}/{rounds}: {c.label:<38} {rates[c][-1]:>12,.0f} steps/s",
                    file=sys.stderr,
                    flush=True,
                )
    return rates


def side_by_side(
    task: str, a: tune.Candidate, b: tune.Candidate, seconds: float, rounds: int
) -> tuple[list[float], list[float]]:
    ra: list[float] = []
    rb: list[float] = []
    with tune.PoolMeasurer(task) as m:
        m.measure(a, 0.2)
        m.measure(b, 0.2)
        for k in range(rounds):
            order = [(a, ra), (b, rb)] if k % 2 == 0 else [(b, rb), (a, ra)]
            for c, out in order:
                out.append(m.measure(c, seconds))
    return ra, rb


def check(task: str, args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    print(f"{task}: sweep of every candidate ...", file=sys.stderr, flush=True)
    rates = sweep(task, args.num_envs, args.sweep_seconds, args.sweep_rounds)
    sweep_seconds = time.perf_counter() - started
    medians = {c: statistics.median(r) for c, r in rates.items()}
    ranked = sorted(medians, key=lambda c: -medians[c])
    best = ranked[0]

    print(f"{task}: envpool tune, budget {args.budget:g} s ...", file=sys.stderr, flush=True)
    report = tune.tune(task, num_envs=args.num_envs, budget=args.budget, progress=True)
    pick = report.pick.candidate

    if pick == best:
        ratios = [1.0]
        ra = rb = []
    else:
        print(f"{task}: pick and best side by side ...", file=sys.stderr, flush=True)
        ra, rb = side_by_side(task, pick, best, args.final_seconds, args.final_rounds)
        ratios = [x / y for x, y in zip(ra, rb, strict=True)]
    ratio = statistics.median(ratios)
    passed = ratio >= 1 - args.tolerance
    return {
        "task": task,
        "num_envs": args.num_envs,
        "sweep": {
            "seconds": args.sweep_seconds,
            "rounds": args.sweep_rounds,
            "seconds_taken": sweep_seconds,
            "ranked": [
                {
                    **c.to_json(),
                    "median_steps_per_second": medians[c],
                    "steps_per_second": rates[c],
                    "sweep_rank": ranked.index(c) + 1,
                }
                for c in ranked
            ],
        },
        "tune": {
            "budget": args.budget,
            "seconds_taken": report.search.seconds_taken,
            "pick": pick.to_json(),
            "make": report.make_call,
            "pick_steps_per_second": report.pick.steps_per_second,
            "pick_sweep_rank": ranked.index(pick) + 1,
            "pick_sweep_ratio": medians[pick] / medians[best],
        },
        "best": {**best.to_json(), "make": tune.make_call(task, best)},
        "side_by_side": {
            "seconds": args.final_seconds,
            "rounds": len(ra),
            "pick_steps_per_second": ra,
            "best_steps_per_second": rb,
            "ratios": ratios,
        },
        "ratio": ratio,
        "passed": passed,
    }


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def describe(c: dict[str, Any]) -> str:
    threads = f"shared {c['num_threads']}" if c["shared"] else f"{c['num_threads']}"
    return f"{c['mode']} b={c['batch_size']} t={threads}"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", nargs="+", default=["CartPole-v1", "Pong-v5"])
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--budget", type=float, default=tune.DEFAULT_BUDGET)
    parser.add_argument("--sweep-seconds", type=float, default=1.5)
    parser.add_argument("--sweep-rounds", type=int, default=3)
    parser.add_argument("--final-seconds", type=float, default=2.0)
    parser.add_argument("--final-rounds", type=int, default=5)
    parser.add_argument("--tolerance", type=float, default=0.10)
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()

    load = _load()
    results = [check(task, args) for task in args.tasks]
    load_after = _load()
    m = machine()
    print(
        f"\n{m['cpus']} CPUs ({m['cpu']}), {tune.usable_cpus()} usable; 1-minute load "
        f"average {load:.2f} at the start, {load_after:.2f} at the end; "
        f"{args.num_envs} envs; tune budget {args.budget:g} s; sweep "
        f"{args.sweep_rounds} x {args.sweep_seconds:g} s per candidate; side by side "
        f"{args.final_rounds} x {args.final_seconds:g} s\n"
    )
    print(
        "| task | sweep's best (median steps/s) | tune's pick (its rank in the sweep) "
        "| tune took | pick / best, side by side | within 10% |"
    )
    print("|---|---|---|---|---|---|")
    for r in results:
        best = r["sweep"]["ranked"][0]
        t = r["tune"]
        print(
            f"| {r['task']} | {describe(best)} ({best['median_steps_per_second']:,.0f}) "
            f"| {describe(t['pick'])} (#{t['pick_sweep_rank']} of {len(r['sweep']['ranked'])}) "
            f"| {t['seconds_taken']:.0f} s | {r['ratio']:.3f} | {'yes' if r['passed'] else 'NO'} |"
        )
    for r in results:
        print(f"\n{r['task']}: the sweep, best first (median steps/s; relative to the best)")
        top = r["sweep"]["ranked"][0]["median_steps_per_second"]
        for row in r["sweep"]["ranked"]:
            rel = row["median_steps_per_second"] / top
            print(f"  {describe(row):<26} {row['median_steps_per_second']:>12,.0f}  {rel:6.1%}")
        print(f"  tune's make line: {r['tune']['make']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "machine": m,
                    "versions": versions(),
                    "load": [load, load_after],
                    "results": results,
                },
                f,
                indent=2,
            )
            f.write("\n")
        print(f"\nwrote {args.json}")
    return 0 if all(r["passed"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
