"""CartPole-v1 steps/s: envpool against gymnasium's vector envs, in one run.

    python benchmarks/bench_cartpole.py [--seconds 2] [--num-envs 8 64 256] [--json out.json]

Each engine steps num_envs CartPoles with random actions for about --seconds
(after a short warm-up) and reports env steps per second. The peers are
gymnasium's SyncVectorEnv over gymnasium.make envs and gymnasium's numpy
CartPole (make_vec with vectorization_mode="vector_entry_point"). Ratios are
only meaningful within one run: this machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import envpool

TASK = "CartPole-v1"


def _time_loop(step: Callable[[np.ndarray], object], actions: list[np.ndarray], seconds: float):
    """Runs step() over pre-drawn actions for about `seconds`; returns steps/s of the batch."""
    for a in actions[:20]:
        step(a)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for a in actions:
            step(a)
        calls += len(actions)
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def bench_envpool(num_envs: int, seconds: float, actions: list[np.ndarray]) -> float:
    with envpool.make(TASK, num_envs=num_envs, seed=0) as env:
        env.reset()
        return _time_loop(env.step, actions, seconds) * num_envs


def bench_gymnasium(mode: str, num_envs: int, seconds: float, actions: list[np.ndarray]) -> float:
    env = gym.make_vec(TASK, num_envs=num_envs, vectorization_mode=mode)
    env.reset(seed=0)
    try:
        return _time_loop(env.step, actions, seconds) * num_envs
    finally:
        env.close()


ENGINES: dict[str, Callable[[int, float, list[np.ndarray]], float]] = {
    "envpool": bench_envpool,
    "gymnasium numpy (vector_entry_point)": lambda n, s, a: bench_gymnasium(
        "vector_entry_point", n, s, a
    ),
    "gymnasium SyncVectorEnv": lambda n, s, a: bench_gymnasium("sync", n, s, a),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--num-envs", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    results: list[dict[str, object]] = []
    print(f"{TASK} steps/s on {os.cpu_count()} cores, {platform.processor() or platform.machine()}")
    print(f"| num_envs | {' | '.join(ENGINES)} | envpool / best peer |")
    print(f"|---:|{'---:|' * len(ENGINES)}---:|")
    for num_envs in args.num_envs:
        actions = [rng.integers(0, 2, size=num_envs) for _ in range(256)]
        row = {name: bench(num_envs, args.seconds, actions) for name, bench in ENGINES.items()}
        best_peer = max(v for k, v in row.items() if k != "envpool")
        cells = " | ".join(f"{row[name]:,.0f}" for name in ENGINES)
        print(f"| {num_envs} | {cells} | {row['envpool'] / best_peer:.2f}x |", flush=True)
        results.append({"num_envs": num_envs, "steps_per_second": row})
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"task": TASK, "results": results}, f, indent=2)


if __name__ == "__main__":
    main()
