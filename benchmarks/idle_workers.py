"""CPU that a pool's worker threads burn while the calling thread is busy (issue #44).

    python benchmarks/idle_workers.py [--task CartPole-v1] [--threads 1 2] [--busy-ms 0 0.5 2]

A loop steps 8 envs (sync: step; async, batch 4: recv / send) and between calls keeps the
calling thread busy for --busy-ms (a Python spin, as a policy's forward pass would). The
process's CPU time minus the calling thread's is what the workers used, shown as a share
of one core over the loop's wall time. With a tiny env (CartPole: a few microseconds of
work per call) nearly all of it is waiting: spinning before the workers sleep. Nothing
here is a pass/fail check; it prints a table.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import envpool


def measure(task: str, threads: int, batch: int, busy_ms: float, calls: int) -> tuple[float, float]:
    """(workers' CPU, caller's CPU), each as a share of one core over the loop's wall time."""
    env = envpool.make(task, num_envs=8, num_threads=threads, batch_size=batch, seed=0)
    actions = np.zeros(batch, dtype=np.int64)
    if batch < 8:
        env.async_reset()
    else:
        env.reset()

    def busy() -> None:
        end = time.perf_counter() + busy_ms / 1000
        while time.perf_counter() < end:
            pass

    process, caller, wall = time.process_time(), time.thread_time(), time.perf_counter()
    for _ in range(calls):
        if batch < 8:
            info = env.recv()[4]
            busy()
            env.send(actions, info["env_id"])
        else:
            env.step(actions)
            busy()
    wall = time.perf_counter() - wall
    caller = time.thread_time() - caller
    process = time.process_time() - process
    env.close()
    return (process - caller) / wall, caller / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="CartPole-v1")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--busy-ms", type=float, nargs="+", default=[0.0, 0.5, 2.0])
    parser.add_argument("--calls", type=int, default=400)
    args = parser.parse_args()
    print("| threads | mode | caller busy per call | workers' CPU (share of a core) | caller's |")
    print("|---:|---|---:|---:|---:|")
    for threads in args.threads:
        for batch, mode in ((8, "sync"), (4, "async, batch 4")):
            for busy_ms in args.busy_ms:
                workers, caller = measure(args.task, threads, batch, busy_ms, args.calls)
                print(
                    f"| {threads} | {mode} | {busy_ms} ms | {workers:.1%} | {caller:.1%} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
