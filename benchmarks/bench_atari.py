"""Atari frames/s: envpool against ale-py's AtariVectorEnv and gymnasium's AsyncVectorEnv.

    python benchmarks/bench_atari.py [--task Pong-v5] [--num-envs 8] [--num-threads 2]
        [--batch-size 4] [--seconds 5] [--peer-python /path/to/python] [--json out.json]

Every engine runs the same preprocessing (84x84 grey, stack 4, frame skip 4 with
a max-pool, up to 30 no-ops, fire reset, unclipped rewards) with random actions.
frames/s counts emulator frames (4 per env step). The raw-emulator ceiling is
one thread calling ALE's act() in a loop, times the number of threads. The RSS
per env is measured in a fresh interpreter: its growth from making and stepping
32 envs, divided by 32. --peer-python runs the original EnvPool from another
Python environment in a subprocess and adds its rows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import error as gym_error

FRAME_SKIP = 4


def _rom_id(task: str) -> str:
    from envpool.atari_tasks import ROM_IDS, task_name

    return next(r for r in ROM_IDS if f"{task_name(r)}-v5" == task)


def _timed(loop: Callable[[], int], seconds: float) -> float:
    """Calls loop() (which returns env steps taken) until `seconds` pass; steps/s."""
    loop()  # warm-up
    steps, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        steps += loop()
    return steps / elapsed


def envpool_sync(task: str, n: int, threads: int, seconds: float) -> float:
    import envpool

    with envpool.make(task, num_envs=n, num_threads=threads, seed=0) as env:
        env.reset()
        rng = np.random.default_rng(0)
        k = env.single_action_space.n

        def loop() -> int:
            for _ in range(20):
                env.step(rng.integers(0, k, size=n))
            return 20 * n

        return _timed(loop, seconds)


def envpool_async(task: str, n: int, threads: int, batch: int, seconds: float) -> float:
    import envpool

    with envpool.make(task, num_envs=n, batch_size=batch, num_threads=threads, seed=0) as env:
        env.async_reset()
        rng = np.random.default_rng(0)
        k = env.single_action_space.n

        def loop() -> int:
            for _ in range(20):
                info = env.recv()[4]
                env.send(rng.integers(0, k, size=batch), info["env_id"])
            return 20 * batch

        return _timed(loop, seconds)


def ale_vector(task: str, n: int, threads: int, batch: int, seconds: float) -> float:
    from ale_py.vector_env import AtariVectorEnv

    env = AtariVectorEnv(
        _rom_id(task), n, batch_size=batch, num_threads=threads, reward_clipping=False
    )
    try:
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        k = env.single_action_space.n
        rows = batch or n

        def loop() -> int:
            for _ in range(20):
                env.step(rng.integers(0, k, size=rows))
            return 20 * rows

        return _timed(loop, seconds)
    finally:
        env.close()


def gymnasium_async(task: str, n: int, seconds: float) -> float:
    import ale_py
    import gymnasium as gym
    from gymnasium.wrappers import AtariPreprocessing, FrameStackObservation

    gym.register_envs(ale_py)

    def make() -> gym.Env:
        env = gym.make(f"ALE/{task}", frameskip=1, repeat_action_probability=0.0)
        return FrameStackObservation(AtariPreprocessing(env, noop_max=30), 4)

    env = gym.vector.AsyncVectorEnv([make for _ in range(n)])
    try:
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        k = env.single_action_space.n

        def loop() -> int:
            for _ in range(20):
                env.step(rng.integers(0, k, size=n))
            return 20 * n

        return _timed(loop, seconds)
    finally:
        env.close()


def raw_ale_frames(task: str, seconds: float) -> float:
    """Frames/s of one thread calling ALE's act() with random actions."""
    import ale_py

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.loadROM(ale_py.roms.get_rom_path(_rom_id(task)))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)

    def loop() -> int:
        for a in rng.integers(0, len(actions), size=400):
            ale.act(actions[a])
            if ale.game_over():
                ale.reset_game()
        return 400

    return _timed(loop, seconds)


RSS_SCRIPT = """
import json, sys
import numpy as np
from gymnasium import error as gym_error
import envpool

def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS"))

task, n = sys.argv[1], int(sys.argv[2])
with envpool.make(task, num_envs=1) as warm:  # loads the extension and ALE once
    warm.reset()
before = rss()
env = envpool.make(task, num_envs=n, num_threads=2)
env.reset()
for _ in range(200):
    env.step(np.zeros(n, dtype=np.int64))
print(json.dumps({"rss_per_env": (rss() - before) / n}))
"""


def rss_per_env(task: str, n: int = 32) -> float:
    out = subprocess.run(
        [sys.executable, "-c", RSS_SCRIPT, task, str(n)],
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.expanduser("~"),
    )
    return json.loads(out.stdout.strip().splitlines()[-1])["rss_per_env"]


PEER_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    import envpool
    task, n, threads, batch, seconds = sys.argv[1], *map(int, sys.argv[2:5]), float(sys.argv[5])
    out = {}
    for name, bs in (("sync", n), ("async", batch)):
        env = envpool.make_gymnasium(task, num_envs=n, batch_size=bs, num_threads=threads,
                                     seed=0, reward_clip=False)
        rng = np.random.default_rng(0)
        k = env.action_space.n
        if bs == n:
            env.reset()
            step = lambda: env.step(rng.integers(0, k, size=n))
        else:
            env.async_reset()
            def step():
                info = env.recv()[-1]
                env.send(rng.integers(0, k, size=bs), info["env_id"])
        for _ in range(20):
            step()
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            step()
            steps += bs
        out[name] = steps / (time.perf_counter() - start)
        env.close()
    print(json.dumps(out))
""")


def original_envpool(python: str, task: str, n: int, threads: int, batch: int, seconds: float):
    out = subprocess.run(
        [python, "-c", PEER_SCRIPT, task, str(n), str(threads), str(batch), str(seconds)],
        capture_output=True,
        text=True,
        check=True,
        cwd=os.path.expanduser("~"),
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="Pong-v5")
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--peer-python", help="a python with the original EnvPool installed")
    parser.add_argument("--no-peers", action="store_true", help="measure envpool only")
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    task, n, t, b, s = args.task, args.num_envs, args.num_threads, args.batch_size, args.seconds

    rows: dict[str, dict[str, Any]] = {}
    rows["envpool"] = {
        "sync": envpool_sync(task, n, t, s),
        "async": envpool_async(task, n, t, b, s),
    }
    if not args.no_peers:
        rows["ale-py AtariVectorEnv"] = {
            "sync": ale_vector(task, n, t, 0, s),
            "async": ale_vector(task, n, t, b, s),
        }
        try:
            rows["gymnasium AsyncVectorEnv"] = {"sync": gymnasium_async(task, n, s), "async": None}
        except (ImportError, gym_error.DependencyNotInstalled) as exc:  # needs opencv
            print(f"skipping gymnasium AsyncVectorEnv: {exc}")
        if args.peer_python:
            rows["original EnvPool"] = original_envpool(args.peer_python, task, n, t, b, s)
    ceiling = raw_ale_frames(task, s) * t
    rss = rss_per_env(task)

    print(f"{task}: {n} envs, {t} threads, async batch_size {b}; frames/s (4 per env step)")
    print("| engine | sync | async | sync / ceiling |")
    print("|---|---:|---:|---:|")
    for name, r in rows.items():
        sync = r["sync"] * FRAME_SKIP
        asy = f"{r['async'] * FRAME_SKIP:,.0f}" if r.get("async") else "-"
        print(f"| {name} | {sync:,.0f} | {asy} | {sync / ceiling:.0%} |")
    print(f"raw ALE act() ceiling ({t} x one thread): {ceiling:,.0f} frames/s")
    print(f"envpool RSS per env: {rss / 2**20:.2f} MiB")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "task": task,
                    "num_envs": n,
                    "num_threads": t,
                    "batch_size": b,
                    "steps_per_second": rows,
                    "raw_ale_frames_per_second": ceiling,
                    "rss_per_env_bytes": rss,
                },
                f,
                indent=2,
            )


if __name__ == "__main__":
    main()
