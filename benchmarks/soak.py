"""Soak test: a long async send/recv run that watches memory and threads.

    python benchmarks/soak.py                 20M CartPole-v1 steps, then 1M Pong-v5 steps
    python benchmarks/soak.py --ci            the 30-second version that CI runs
    python benchmarks/soak.py --task CartPole-v1 --steps 1e8

Each phase runs one pool in async mode (batch_size = num_envs / 2), sends
random actions back to whichever envs come out of recv(), and resets every
env now and then. It samples the resident set size (RSS) and thread count
about once a second. After a warm-up (the first tenth of the run, at most 20
seconds) the RSS must stay within 5% of its post-warm-up value and the thread
count must not change. Exits with status 1 if a phase breaks either rule or
returns a malformed batch.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

import envpool

MAX_RSS_GROWTH = 0.05
RESET_EVERY = 200_000  # env steps between full resets


def status_kb(key: str) -> int:
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(key)).split()[1])


@dataclass
class Phase:
    task: str
    num_envs: int
    steps: float
    seconds: float | None = None


@dataclass
class Outcome:
    task: str
    steps: int
    seconds: float
    rss_start_kb: int
    rss_max_kb: int
    rss_end_kb: int
    threads_start: int
    threads_seen: set[int]

    @property
    def rss_growth(self) -> float:
        return (self.rss_max_kb - self.rss_start_kb) / self.rss_start_kb

    @property
    def ok(self) -> bool:
        return self.rss_growth < MAX_RSS_GROWTH and self.threads_seen == {self.threads_start}


def run_phase(phase: Phase, seed: int = 0) -> Outcome:
    env = envpool.make(
        phase.task, env_type="gymnasium", num_envs=phase.num_envs, batch_size=phase.num_envs // 2
    )
    rng = np.random.default_rng(seed)
    n_actions = int(env.single_action_space.n)
    actions = rng.integers(0, n_actions, size=(4096, phase.num_envs // 2), dtype=np.int64)
    limit_steps = int(phase.steps)
    warmup_steps = limit_steps // 10
    warmup_seconds = 20.0 if phase.seconds is None else phase.seconds / 10
    start = time.monotonic()
    steps = 0
    since_reset = 0
    baseline: tuple[int, int] | None = None
    rss_max = 0
    threads_seen: set[int] = set()
    next_sample = start
    env.async_reset(seed=seed)
    i = 0
    while True:
        obs, _, _, _, info = env.recv()
        ids = info["env_id"]
        well_formed = ids.min() >= 0 and ids.max() < phase.num_envs
        if obs.shape[0] != phase.num_envs // 2 or not well_formed:
            raise AssertionError(f"malformed batch: obs {obs.shape}, env_id {ids}")
        steps += len(ids)
        since_reset += len(ids)
        now = time.monotonic()
        elapsed = now - start
        if now >= next_sample:
            next_sample = now + 1.0
            rss, threads = status_kb("VmRSS:"), status_kb("Threads:")
            if baseline is None:
                if steps >= warmup_steps or elapsed >= warmup_seconds:
                    baseline = (rss, threads)
                    rss_max = rss
                    threads_seen.add(threads)
            else:
                rss_max = max(rss_max, rss)
                threads_seen.add(threads)
        done = steps >= limit_steps or (phase.seconds is not None and elapsed >= phase.seconds)
        if done and baseline is not None:
            break
        if since_reset >= RESET_EVERY:
            # reset() waits for the envs in flight and drops their results.
            since_reset = 0
            env.reset()
            env.async_reset()
            continue
        env.send(actions[i % len(actions)], env_id=ids)
        i += 1
    seconds = time.monotonic() - start
    rss_end = status_kb("VmRSS:")
    env.close()
    assert baseline is not None
    return Outcome(
        phase.task,
        steps,
        seconds,
        baseline[0],
        max(rss_max, rss_end),
        rss_end,
        baseline[1],
        threads_seen,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ci", action="store_true", help="20 s of CartPole-v1, 10 s of Pong-v5")
    parser.add_argument("--task", help="run only this task (with --steps)")
    parser.add_argument("--steps", type=float, default=1e6, help="env steps for --task")
    parser.add_argument("--num-envs", type=int, default=None)
    args = parser.parse_args(argv)
    if args.ci:
        phases = [Phase("CartPole-v1", 64, 1e15, 20.0), Phase("Pong-v5", 8, 1e15, 10.0)]
    elif args.task:
        phases = [Phase(args.task, args.num_envs or 16, args.steps)]
    else:
        phases = [Phase("CartPole-v1", 64, 20e6), Phase("Pong-v5", 16, 1e6)]
    if args.num_envs and not args.task:
        phases = [Phase(p.task, args.num_envs, p.steps, p.seconds) for p in phases]
    failed = False
    header = f"{'task':<12} {'steps':>11} {'s':>7} {'steps/s':>9} {'RSS MB':>15} {'growth':>7}"
    print(header, "threads")
    for phase in phases:
        out = run_phase(phase)
        failed |= not out.ok
        print(
            f"{out.task:<12} {out.steps:>11,} {out.seconds:>7.1f} {out.steps / out.seconds:>9,.0f} "
            f"{out.rss_start_kb / 1024:>6.1f}->{out.rss_max_kb / 1024:<6.1f}  "
            f"{out.rss_growth:>6.2%} {sorted(out.threads_seen)}"
            f"{'' if out.ok else '  FAILED'}",
            flush=True,
        )
    print("soak:", "FAILED" if failed else "passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
