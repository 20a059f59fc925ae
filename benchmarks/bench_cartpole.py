"""CartPole-v1 steps/s: envpool against gymnasium's vector envs, in one run.

    python benchmarks/bench_cartpole.py [--seconds 2] [--num-envs 8 64 256] [--json out.json]

Each engine steps num_envs CartPoles with random actions for about --seconds
(after a short warm-up) and reports env steps per second. The peers are
gymnasium's SyncVectorEnv over gymnasium.make envs and gymnasium's numpy
CartPole (make_vec with vectorization_mode="vector_entry_point"). Ratios are
only meaningful within one run: this machine is shared and noisy.

A thin wrapper over envpool.bench; `envpool bench --task CartPole-v1` runs the
same measurement with every peer.
"""

from __future__ import annotations

import argparse

from envpool import bench
from envpool.bench.engines import NumpyVectorEngine, SyncVectorEngine

TASK = "CartPole-v1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--num-envs", type=int, nargs="+", default=[8, 64, 256])
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()

    settings = bench.Settings(
        tasks=[TASK],
        num_envs=args.num_envs,
        seconds=args.seconds,
        peer_names=[NumpyVectorEngine.name, SyncVectorEngine.name],
    )
    report = bench.run(settings)
    print(bench.format_report(report))
    if args.json:
        bench.write_json(report, args.json)


if __name__ == "__main__":
    main()
