"""Distributed PPO on CartPole-v1 with Ray: rollout actors, a sharded trajectory store,
and a learner that publishes its weights once per version (envpool.distributed).

    python examples/distributed_cartpole.py                       # local Ray, solves in ~45 s
    python examples/distributed_cartpole.py --simulated-nodes 2   # actors on 2 simulated nodes
    python examples/distributed_cartpole.py --address HOST:6379   # an existing Ray cluster
    python examples/distributed_cartpole.py --smoke               # a few updates (~15 s)

The run stops when the mean return of the last 100 episodes reaches --target (475 is
CartPole-v1's threshold) or after --max-seconds. It needs pip install "envpool[ray]".
Ray's processes listen on the machine's network: run it on machines you trust (tests
run it in a network namespace with loopback only).
"""

from __future__ import annotations

import argparse
import sys

import ray

from envpool.distributed import RunConfig, connect, train


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--address", help="join the Ray cluster at this address")
    where.add_argument(
        "--simulated-nodes",
        type=int,
        default=0,
        help="start this many simulated Ray nodes on this machine (0: one local Ray)",
    )
    parser.add_argument("--actors", type=int, default=2, help="rollout actors (one CPU each)")
    parser.add_argument("--envs-per-actor", type=int, default=8)
    parser.add_argument("--target", type=float, default=475.0, help="mean return to stop at")
    parser.add_argument("--max-seconds", type=float, default=90.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--smoke", action="store_true", help="a few updates only: checks that it all runs"
    )
    args = parser.parse_args(argv)

    config = RunConfig(
        num_actors=args.actors,
        envs_per_actor=args.envs_per_actor,
        target_return=args.target,
        max_seconds=args.max_seconds,
        seed=args.seed,
        log_every=0.0 if args.smoke else 5.0,
    )
    if args.smoke:
        config.trajectory_length = 32
        config.max_updates = 3
        config.max_seconds = min(args.max_seconds, 60.0)

    if args.address:
        where_text = f"the Ray cluster at {args.address}"
    elif args.simulated_nodes:
        where_text = f"{args.simulated_nodes} simulated nodes"
    else:
        where_text = "a local Ray"
    print(
        f"training {config.task_id} on {where_text}: {config.num_actors} actors x "
        f"{config.envs_per_actor} envs, {config.num_shards} store shards, "
        f"target mean return {config.target_return:g} within {config.max_seconds:g} s",
        flush=True,
    )
    cluster = connect(
        address=args.address,
        simulated_nodes=args.simulated_nodes,
        cpus_per_node=args.actors if not args.simulated_nodes else 2,
    )
    try:
        report = train(config)
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()

    seconds = report["seconds"]
    if report["solved"]:
        verdict = f"yes, in {report['seconds_to_solve']:.1f} s"
    else:
        verdict = f"no (stopped after {seconds:.1f} s)"
    print(f"solved: {verdict}")
    print(
        f"updates: {report['updates']}  weight puts: {report['weight_puts']}  "
        f"episodes: {report['episodes']}  mean return (last 100): {report['mean_return']:.1f}"
    )
    print(
        f"env steps: {report['actor_env_steps']} by the actors, "
        f"{report['learner_env_steps']} trained on ({report['dropped_stale']} trajectories "
        f"dropped as stale); env steps/s: {report['actor_env_steps'] / max(seconds, 1e-9):.0f}"
    )
    print(f"shard failures: {len(report['shard_failures'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
