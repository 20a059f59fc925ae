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

The engines are envpool.bench's; `envpool bench --task Pong-v5` compares more
sizes and peers.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from typing import Any

import numpy as np

from envpool.bench import engines as eng


def raw_ale_frames(task: eng.TaskInfo, seconds: float) -> float:
    """Frames/s of one thread calling ALE's act() with random actions."""
    import ale_py

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.loadROM(ale_py.roms.get_rom_path(task.rom_id))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)

    def run(k: int) -> int:
        for a in rng.integers(0, len(actions), size=400 * k):
            ale.act(actions[a])
            if ale.game_over():
                ale.reset_game()
        return 400 * k

    return eng.timed(run, seconds)


RSS_SCRIPT = """
import json, sys
import numpy as np
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


def measure(engine: eng.Engine, task: eng.TaskInfo, n: int, t: int, b: int | None, s: float):
    """Steps/s of `engine`, or None when it cannot run here (the reason is printed)."""
    reason = engine.unavailable(task)
    if reason:
        print(f"skipping {engine.name}: {reason}")
        return None
    try:
        return engine.measure(eng.Case(task, n, b, t, s))
    except eng.CannotRunError as exc:
        print(f"skipping {engine.name}: {exc}")
        return None


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
    n, t, b, s = args.num_envs, args.num_threads, args.batch_size, args.seconds
    task = eng.task_info(args.task)

    engines: list[tuple[eng.Engine, bool]] = [(eng.EnvpoolEngine(), True)]
    if not args.no_peers:
        engines.append((eng.AleVectorEngine(), True))
        engines.append((eng.AsyncVectorEngine(), False))  # one process per env: sync only
        if args.peer_python:
            engines.append((eng.OriginalEnvpoolEngine(args.peer_python), True))
    rows: dict[str, dict[str, Any]] = {}
    for engine, has_async in engines:
        sync = measure(engine, task, n, t, None, s)
        if sync is None:
            continue
        rows[engine.name] = {"sync": sync, "async": None}
        if has_async:
            rows[engine.name]["async"] = measure(engine, task, n, t, b, s)
    ceiling = raw_ale_frames(task, s) * t
    rss = rss_per_env(task.task_id)

    skip = task.frame_skip
    print(
        f"{task.task_id}: {n} envs, {t} threads, async batch_size {b}; frames/s ({skip} per step)"
    )
    print("| engine | sync | async | sync / ceiling |")
    print("|---|---:|---:|---:|")
    for name, r in rows.items():
        sync = r["sync"] * skip
        asy = f"{r['async'] * skip:,.0f}" if r.get("async") else "-"
        print(f"| {name} | {sync:,.0f} | {asy} | {sync / ceiling:.0%} |")
    print(f"raw ALE act() ceiling ({t} x one thread): {ceiling:,.0f} frames/s")
    print(f"envpool RSS per env: {rss / 2**20:.2f} MiB")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "task": task.task_id,
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
