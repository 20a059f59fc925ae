"""Steps/s against threads, 1 .. all CPUs, and the parallel efficiency of each count.

    python benchmarks/bench_scaling.py [--tasks Pong-v5 HalfCheetah-v5 CartPole-v1]
        [--threads 1 2 4 ...] [--envs-per-thread 2] [--seconds 2] [--rounds 3]
        [--json out.json]

For t threads a pool of ``t * --envs-per-thread`` envs runs in async mode with
batch_size=t (a batch is ready once any t envs are done, so a slow env never stalls
the others) and num_threads=t; the loop receives a batch and sends random actions
back for it, as a training loop does. Efficiency at t threads is
``rate(t) / (t * rate(1))``: 1.0 is perfect scaling, and what is lost goes to memory
bandwidth, the caller's Python loop (one core's worth, shared by every thread's
results) and the hand-off between threads.

On a machine of several NUMA nodes the largest count is also run as one pool per node
(``make(..., numa_node=k)``, each stepped by a Python thread of its own), the layout
docs/scaling.md recommends past one node. The thread counts default to 1, 2, 4, ...
up to the CPUs this process may use, and that number itself.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

import envpool
from envpool import numa
from envpool.bench.report import add_run_arguments, markdown_table, write_results_json


def _action_sampler(env: Any, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    space = env.single_action_space
    if hasattr(space, "n"):
        table = rng.integers(0, space.n, size=(64, env.num_envs))
    else:
        table = rng.uniform(space.low, space.high, size=(64, env.num_envs, *space.shape))
        table = table.astype(space.dtype)
    return table


def _drive(env: Any, batch: int, warmup: float, seconds: float, seed: int) -> int:
    """Steps ``env`` async for ``warmup`` then ``seconds``; returns env steps in the latter."""
    table = _action_sampler(env, seed)
    env.async_reset()
    steps = 0
    i = 0
    start = time.perf_counter()
    deadline = start + warmup + seconds
    counting = False
    while True:
        now = time.perf_counter()
        if now >= deadline:
            return steps
        if not counting and now >= start + warmup:
            counting = True
            steps = 0
        _, _, _, _, info = env.recv()
        env.send(table[i % 64][:batch], info["env_id"])
        steps += batch
        i += 1


def run_one_pool(task: str, threads: int, envs_per_thread: int, seconds: float) -> float:
    num_envs = threads * envs_per_thread
    with envpool.make(task, num_envs=num_envs, batch_size=threads, num_threads=threads) as env:
        return _drive(env, threads, min(0.5, seconds / 4), seconds, 0) / seconds


def run_per_node(task: str, envs_per_thread: int, seconds: float) -> float:
    nodes = numa.nodes()
    envs = []
    for node in nodes:
        t = len(node.cpus)
        envs.append(
            envpool.make(
                task, num_envs=t * envs_per_thread, batch_size=t, num_threads=t, numa_node=node.id
            )
        )
    counts = [0] * len(envs)
    barrier = threading.Barrier(len(envs))

    def drive(k: int) -> None:
        barrier.wait()
        batch = len(nodes[k].cpus)
        counts[k] = _drive(envs[k], batch, min(0.5, seconds / 4), seconds, k)

    workers = [threading.Thread(target=drive, args=(k,)) for k in range(len(envs))]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for env in envs:
        env.close()
    return sum(counts) / seconds


def default_threads() -> list[int]:
    cpus = len(numa.allowed_cpus())
    counts = []
    t = 1
    while t < cpus:
        counts.append(t)
        t *= 2
    counts.append(cpus)
    return counts


def measure(task: str, threads: list[int], envs_per_thread: int, seconds: float, rounds: int):
    rates: dict[int, list[float]] = {t: [] for t in threads}
    per_node: list[float] = []
    multi_node = len(numa.nodes()) > 1
    for _ in range(rounds):
        for t in threads:
            rates[t].append(run_one_pool(task, t, envs_per_thread, seconds))
        if multi_node:
            per_node.append(run_per_node(task, envs_per_thread, seconds))
    base = statistics.median(rates[threads[0]]) / threads[0]
    rows = []
    for t in threads:
        rate = statistics.median(rates[t])
        rows.append(
            {
                "threads": t,
                "steps_per_s": rate,
                "min": min(rates[t]),
                "max": max(rates[t]),
                "efficiency": rate / (t * base),
            }
        )
    out: dict[str, Any] = {"task": task, "envs_per_thread": envs_per_thread, "rows": rows}
    if multi_node:
        rate = statistics.median(per_node)
        total = sum(len(n.cpus) for n in numa.nodes())
        out["per_node"] = {
            "nodes": len(numa.nodes()),
            "threads": total,
            "steps_per_s": rate,
            "efficiency": rate / (total * base),
        }
    return out


def table(results: list[dict[str, Any]]) -> str:
    rows = []
    for r in results:
        measured = [(str(row["threads"]), row) for row in r["rows"]]
        if "per_node" in r:
            p = r["per_node"]
            measured.append((f"{p['threads']} as {p['nodes']} per-node pools", p))
        for threads, m in measured:
            rows.append([r["task"], threads, f"{m['steps_per_s']:,.0f}", f"{m['efficiency']:.2f}"])
    return "\n".join(markdown_table(["task", "threads", "env steps/s", "efficiency"], rows))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_run_arguments(parser, ["Pong-v5", "HalfCheetah-v5", "CartPole-v1"], rounds=3)
    args = parser.parse_args(argv)
    threads = sorted(set(args.threads or default_threads()))
    if threads[0] < 1:
        parser.error("--threads must be >= 1")
    nodes = numa.nodes()
    print(
        f"{len(numa.allowed_cpus())} CPUs, {len(nodes)} NUMA node(s): "
        + ", ".join(f"node {n.id}: {len(n.cpus)} CPUs" for n in nodes),
        flush=True,
    )
    results = []
    for task in args.tasks:
        results.append(measure(task, threads, args.envs_per_thread, args.seconds, args.rounds))
        print(table(results[-1:]), flush=True)
    print(table(results))
    if args.json:
        numa_nodes = [{"id": n.id, "cpus": len(n.cpus)} for n in nodes]
        write_results_json(args.json, args, results, numa_nodes=numa_nodes)


if __name__ == "__main__":
    main()
