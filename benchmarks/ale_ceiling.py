"""The raw-emulator ceiling of an Atari pool on N cores: N processes, each stepping one
ALE the way a v5 env does (the action repeated 4 frames, sticky actions 0.25, a
grayscale screen per step, a reset at game over), counted together.

    python benchmarks/ale_ceiling.py [--task Pong] [--processes 1 2 16] [--seconds 3]

Prints frames/s and env steps/s (frames / 4) per process count; an envpool figure
divided by the ceiling at its thread count is the fraction of the emulator's limit.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import time
from typing import Any

import numpy as np


def _run(rom: str, seconds: float, ready: Any, frames: Any) -> None:
    import ale_py

    ale = ale_py.ALEInterface()
    ale.setLoggerMode(ale_py.LoggerMode.Error)
    ale.setFloat("repeat_action_probability", 0.25)
    ale.loadROM(ale_py.roms.get_rom_path(rom))
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(os.getpid())
    screen = np.empty((210, 160), np.uint8)
    ready.wait()  # every process has loaded its ROM: they start together
    n = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for a in rng.integers(0, len(actions), size=64):
            for _ in range(4):
                ale.act(actions[a])
            ale.getScreenGrayscale(screen)
            if ale.game_over():
                ale.reset_game()
        n += 64 * 4
    with frames.get_lock():
        frames.value += n


def ceiling(rom: str, processes: int, seconds: float) -> float:
    """Frames/s of `processes` raw ALE processes together."""
    ctx = mp.get_context("spawn")
    frames = ctx.Value("q", 0)
    ready = ctx.Barrier(processes)
    workers = [
        ctx.Process(target=_run, args=(rom, seconds, ready, frames)) for _ in range(processes)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return frames.value / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="pong", help="ALE rom id (pong, breakout, ...)")
    cpus = len(os.sched_getaffinity(0))
    parser.add_argument("--processes", type=int, nargs="+", default=[1, cpus])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"| processes | frames/s | steps/s ({args.task}, raw ALE) |")
    print("|---:|---:|---:|")
    for n in args.processes:
        fps = ceiling(args.task, n, args.seconds)
        print(f"| {n} | {fps:,.0f} | {fps / 4:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
