"""``python -m envpool.distributed``: N actors x M envs against one PPO learner.

python -m envpool.distributed --actors 2 --envs 8                  # a local Ray
python -m envpool.distributed --simulated-nodes 2 --actors 2        # nodes on this machine
python -m envpool.distributed --address HEAD:6379 --actors 64       # an existing cluster
"""

from __future__ import annotations

import argparse
import json
import sys

from envpool.distributed.launcher import RunConfig, connect, train


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or argparse.ArgumentParser(
        prog="envpool distributed", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--task", default="CartPole-v1", help="task id (discrete actions)")
    parser.add_argument("--actors", type=int, default=2, help="rollout actors (one CPU each)")
    parser.add_argument("--envs", type=int, default=8, help="envs per actor")
    parser.add_argument("--length", type=int, default=128, help="trajectory length")
    parser.add_argument("--shards", type=int, default=2, help="trajectory store shards")
    parser.add_argument("--capacity", type=int, default=8, help="trajectories per shard")
    parser.add_argument("--batch", type=int, default=8, help="trajectories per learner update")
    parser.add_argument("--target", type=float, default=475.0, help="stop at this mean return")
    parser.add_argument("--seconds", type=float, default=300.0, help="time limit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--address", help="an existing Ray cluster (ray start --head ...)")
    parser.add_argument(
        "--simulated-nodes", type=int, default=0, help="start this many Ray nodes on this machine"
    )
    parser.add_argument("--cpus-per-node", type=int, default=2)
    parser.add_argument("--json", help="also write the full report to this file")
    return parser


def main(args: argparse.Namespace) -> int:
    import ray

    for name in ("actors", "envs", "length", "shards", "capacity", "batch"):
        if getattr(args, name) < 1:
            print(f"--{name} must be >= 1, got {getattr(args, name)}", file=sys.stderr)
            return 2
    cluster = connect(args.address, args.simulated_nodes, args.cpus_per_node)
    try:
        config = RunConfig(
            task_id=args.task,
            num_actors=args.actors,
            envs_per_actor=args.envs,
            trajectory_length=args.length,
            num_shards=args.shards,
            shard_capacity=args.capacity,
            batch_trajectories=args.batch,
            target_return=args.target,
            max_seconds=args.seconds,
            seed=args.seed,
            log_every=5.0,
        )
        report = train(config)
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()
    rate = report["actor_env_steps"] / report["seconds"]
    outcome = (
        f"solved in {report['seconds_to_solve']:.1f} s"
        if report["solved"]
        else f"not solved in {report['seconds']:.1f} s"
    )
    print(
        f"{args.task}: {outcome} (after {report['startup_seconds']:.1f} s for the actors to "
        f"start); mean return {report['mean_return']:.1f}, "
        f"{report['updates']} updates, {report['actor_env_steps']} env steps "
        f"({rate:,.0f}/s), {report['weight_puts']} weight versions put once each"
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main(build_parser().parse_args()))
