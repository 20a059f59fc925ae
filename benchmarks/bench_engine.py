"""The engine's own cost, without an emulator: a busy-wait env against its ideal rate.

    python benchmarks/bench_engine.py [--threads 1 2 4 ...] [--work-us 50 250]
        [--envs-per-thread 2] [--seconds 2] [--rounds 3] [--json out.json]
        [--fault-module DIR]

The env is the test-only fault env (cpp/tests/fault_env.h, built here with cmake as an
out-of-tree module, as the tests build it) with ``spin_us``: every step keeps its thread
busy for that many microseconds and does nothing else, so K threads can at most do
K * 1e6 / spin_us steps per second. The efficiency (steps/s over that ideal) is what the
engine loses to hand-offs, wake-ups, queues and the caller's Python loop, apart from the
cache and memory effects of a real emulator. Each thread count runs sync
(batch_size = num_envs) and async (batch_size = num_envs / 2, send/recv), with
--envs-per-thread envs per thread; on a machine with fewer CPUs than threads the ideal
counts the CPUs instead. Use it to see where scaling stops on a many-core machine
(benchmarks/device_check.sh) and to check an engine change against the last build.
A machine without a compiler takes the module prebuilt (``--fault-module``: the folder
``device_check.sh --prepare`` fills, for the same envpool and Python).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

import envpool
from envpool.bench.report import add_run_arguments
from envpool.bench.runner import machine, versions

REPO = Path(__file__).resolve().parents[1]


def _fault_env(prebuilt: str | None) -> str:
    """Registers the fault env, built here unless ``prebuilt`` names the folder that holds
    it; returns its task id."""
    sys.path.insert(0, str(REPO / "tests"))
    import fault_env

    fault_env.register(Path(prebuilt).resolve() if prebuilt else fault_env.build())
    return fault_env.TASK_ID


def steps_per_second(
    task: str, threads: int, num_envs: int, is_async: bool, work_us: int, seconds: float
) -> float:
    batch = max(1, num_envs // 2) if is_async else num_envs
    env = envpool.make(
        task,
        num_envs=num_envs,
        batch_size=batch,
        num_threads=threads,
        seed=0,
        spin_us=work_us,
        episode_length=1_000_000,
    )
    actions = np.zeros(batch, dtype=np.int64)
    try:
        if is_async:
            env.async_reset()

            def run(k: int) -> None:
                for _ in range(k):
                    env.send(actions, env.recv()[4]["env_id"])
        else:
            env.reset()

            def run(k: int) -> None:
                for _ in range(k):
                    env.step(actions)

        run(8)  # warm-up
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            run(16)
            calls += 16
        return calls * batch / (time.perf_counter() - start)
    finally:
        env.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_arguments(parser, [], rounds=3)
    parser.add_argument("--work-us", type=int, nargs="+", default=[50, 250])
    parser.add_argument(
        "--fault-module", help="a folder with the fault env module built (no compiler needed)"
    )
    args = parser.parse_args(argv)
    cpus = len(os.sched_getaffinity(0))
    threads = args.threads or sorted({1, 2, *range(4, cpus + 1, 4), cpus})
    task = _fault_env(args.fault_module)
    print("| work (us) | threads | mode | steps/s | of ideal |\n|---:|---:|---|---:|---:|")
    rows: list[dict[str, Any]] = []
    for work_us in args.work_us:
        for k in threads:
            for mode in ("sync", "async"):
                rates = [
                    steps_per_second(
                        task, k, k * args.envs_per_thread, mode == "async", work_us, args.seconds
                    )
                    for _ in range(args.rounds)
                ]
                ideal = min(k, cpus) * 1e6 / work_us
                rate = statistics.median(rates)
                rows.append(
                    {
                        "work_us": work_us,
                        "threads": k,
                        "mode": mode,
                        "steps_per_s": rate,
                        "rounds": rates,
                        "efficiency": rate / ideal,
                    }
                )
                print(
                    f"| {work_us} | {k} | {mode} | {rate:,.0f} | {rate / ideal:.0%} |",
                    flush=True,
                )
    info = machine()
    print(f"{info['cpus']} CPUs ({info['cpu']}); envpool {versions().get('envpool', '?')}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "settings": vars(args), "rows": rows}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
