"""Several pools in one process: threads of their own against one shared thread pool.

    python benchmarks/bench_shared_threads.py [--tasks CartPole-v1 Pong-v5] [--pools 4]
        [--num-envs 8] [--seconds 2] [--rounds 3] [--json out.json]

Each of --pools pools steps --num-envs copies of a task in sync mode with pre-drawn
random actions, in two ways of driving them:

- alternate: one Python thread steps pool 0, 1, 2, 3, 0, 1, ... (train and eval pools,
  or a multi-task learner that steps its tasks in turn);
- threads: one Python thread per pool, all stepping at once (actors in threads).

and two ways of giving them threads:

- separate: every pool starts its own, one per CPU (the default of make()), so
  --pools pools ask for --pools threads per CPU;
- shared: one ``envpool.make_thread_pool()`` of one thread per CPU runs every pool.

Reported: env steps per second over all pools (the sum), the median over --rounds
rounds, each round measuring every combination once in turn; the ratio shared /
separate is the median of the per-round ratios (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import envpool
from envpool.bench.report import add_run_arguments, markdown_table, write_results_json

DRIVERS = ("alternate", "threads")
SHARING = ("separate", "shared")


def _actions(env: Any, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    return [rng.integers(0, space.n, size=env.num_envs) for _ in range(count)]


def _make_pools(task: str, pools: int, num_envs: int, shared: Any) -> list[Any]:
    kwargs: dict[str, Any] = {"thread_pool": shared} if shared is not None else {"num_threads": 0}
    envs = [envpool.make(task, num_envs=num_envs, seed=k, **kwargs) for k in range(pools)]
    for env in envs:
        env.reset()
    return envs


def _run_alternate(envs: list[Any], actions: list[list[np.ndarray]], seconds: float) -> int:
    steps = 0
    i = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for env, acts in zip(envs, actions, strict=True):
            env.step(acts[i % len(acts)])
            steps += env.num_envs
        i += 1
    return steps


def _run_threads(envs: list[Any], actions: list[list[np.ndarray]], seconds: float) -> int:
    counts = [0] * len(envs)
    start = threading.Barrier(len(envs) + 1)

    def drive(k: int) -> None:
        env, acts = envs[k], actions[k]
        start.wait()
        deadline = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < deadline:
            env.step(acts[i % len(acts)])
            i += 1
        counts[k] = i * env.num_envs

    threads = [threading.Thread(target=drive, args=(k,)) for k in range(len(envs))]
    for t in threads:
        t.start()
    start.wait()
    for t in threads:
        t.join()
    return sum(counts)


RUNNERS: dict[str, Callable[[list[Any], list[list[np.ndarray]], float], int]] = {
    "alternate": _run_alternate,
    "threads": _run_threads,
}


def measure(task: str, pools: int, num_envs: int, seconds: float, rounds: int) -> dict[str, Any]:
    rates: dict[str, dict[str, list[float]]] = {d: {s: [] for s in SHARING} for d in DRIVERS}
    threads: dict[str, int] = {}
    for _ in range(rounds):
        for sharing in SHARING:
            shared = envpool.make_thread_pool() if sharing == "shared" else None
            envs = _make_pools(task, pools, num_envs, shared)
            # worker threads started: a sync pool of its own runs num_threads - 1
            # workers and a standby one
            threads[sharing] = (
                shared.num_threads if shared is not None else sum(e.num_threads for e in envs)
            )
            actions = [_actions(env, 64, k) for k, env in enumerate(envs)]
            for driver in DRIVERS:
                RUNNERS[driver](envs, actions, min(0.3, seconds / 4))  # warm up
                steps = RUNNERS[driver](envs, actions, seconds)
                rates[driver][sharing].append(steps / seconds)
            for env in envs:
                env.close()
            del envs, shared
    out: dict[str, Any] = {
        "task": task,
        "pools": pools,
        "num_envs": num_envs,
        "threads_started": threads,
    }
    for driver in DRIVERS:
        ratios = [
            s / p for s, p in zip(rates[driver]["shared"], rates[driver]["separate"], strict=True)
        ]
        out[driver] = {
            sharing: {"median": statistics.median(v), "min": min(v), "max": max(v)}
            for sharing, v in rates[driver].items()
        }
        out[driver]["shared_over_separate"] = statistics.median(ratios)
    return out


def _table(results: list[dict[str, Any]]) -> str:
    header = [
        "task",
        "driver",
        "separate threads (steps/s)",
        "shared thread pool (steps/s)",
        "shared / separate",
    ]
    rows = [
        [
            r["task"],
            driver,
            f"{r[driver]['separate']['median']:,.0f}",
            f"{r[driver]['shared']['median']:,.0f}",
            f"{r[driver]['shared_over_separate']:.2f}x",
        ]
        for r in results
        for driver in DRIVERS
    ]
    return "\n".join(markdown_table(header, rows, left=frozenset({0, 1})))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser, ["CartPole-v1", "Pong-v5"], rounds=3, threads=False)
    parser.add_argument("--pools", type=int, default=4)
    parser.add_argument("--num-envs", type=int, default=8)
    args = parser.parse_args(argv)
    results = []
    for task in args.tasks:
        result = measure(task, args.pools, args.num_envs, args.seconds, args.rounds)
        print(
            f"{task}: threads started: separate {result['threads_started']['separate']}, "
            f"shared {result['threads_started']['shared']}",
            flush=True,
        )
        results.append(result)
    print(_table(results))
    if args.json:
        write_results_json(args.json, args, results)


if __name__ == "__main__":
    main()
