"""Steps/s of envpool and its peers against threads, 1 .. all CPUs, as one table.

    python benchmarks/device_scaling.py [--tasks Pong-v5 CartPole-v1 HalfCheetah-v5]
        [--threads 1 2 4 8 16] [--envs-per-thread 2] [--seconds 2] [--rounds 1]
        [--peer-python /path/to/python-with-the-original-envpool] [--json out.json]

For t threads each engine runs ``t * --envs-per-thread`` envs in async mode, ``t`` envs
per recv, on ``t`` worker threads: envpool, ale-py's AtariVectorEnv (Atari tasks), and
the original EnvPool when ``--peer-python`` names a Python that has it.
benchmarks/device_check.sh runs this on a many-core machine; it runs here too, with
fewer threads.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict

from envpool.bench.report import add_run_arguments
from envpool.bench.runner import Measurement, Settings, run, versions

ALE_PEER = "ale-py AtariVectorEnv"


def default_threads() -> list[int]:
    cpus = len(os.sched_getaffinity(0))
    counts = [1]
    while counts[-1] * 2 <= cpus:
        counts.append(counts[-1] * 2)
    if counts[-1] != cpus:
        counts.append(cpus)
    return counts


def measure(args: argparse.Namespace) -> list[Measurement]:
    found: list[Measurement] = []
    for _ in range(args.rounds):
        for t in args.threads:
            settings = Settings(
                tasks=args.tasks,
                num_envs=[t * args.envs_per_thread],
                batch_size=t,
                num_threads=t,
                seconds=args.seconds,
                peer_names=[ALE_PEER],
                peer_python=args.peer_python,
            )
            found.extend(run(settings, progress=False).measurements)
    return found


def table(found: Sequence[Measurement], threads: Sequence[int]) -> list[str]:
    """One row per task, engine and thread count: median steps/s and ratios to envpool."""
    rates: dict[tuple[str, str, int], list[float]] = {}
    for m in found:
        t = m.num_threads or 0
        rates.setdefault((m.task, m.engine, t), []).append(m.steps_per_second)
    engines = sorted({m.engine for m in found}, key=lambda e: (e != "envpool", e))
    lines = [
        "| task | threads | " + " | ".join(engines) + " | envpool / best peer |",
        "|---|---:|" + "---:|" * (len(engines) + 1),
    ]
    for task in dict.fromkeys(m.task for m in found):
        for t in threads:
            med = {
                e: statistics.median(rates[(task, e, t)]) for e in engines if (task, e, t) in rates
            }
            if "envpool" not in med:
                continue
            peers = [v for e, v in med.items() if e != "envpool"]
            ratio = f"{med['envpool'] / max(peers):.2f}x" if peers else "-"
            cells = [f"{med[e]:,.0f}" if e in med else "-" for e in engines]
            lines.append(f"| {task} | {t} | " + " | ".join(cells) + f" | {ratio} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_run_arguments(parser, ["Pong-v5", "CartPole-v1", "HalfCheetah-v5"], rounds=1)
    parser.add_argument("--peer-python", help="a Python with the original EnvPool installed")
    args = parser.parse_args(argv)
    args.threads = args.threads or default_threads()
    found = measure(args)
    print("\n".join(table(found, args.threads)))
    print()
    print(", ".join(f"{k} {v}" for k, v in versions().items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": vars(args), "results": [asdict(m) for m in found]}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
