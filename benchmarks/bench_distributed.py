"""envpool.distributed measurements: actor throughput, weight serving, time to solve.

    unshare -n sh -c 'ip link set lo up; python benchmarks/bench_distributed.py [--json out.json]'

Four parts, each printed as a markdown table (docs/distributed.md has one run; the
defaults take about 4 minutes on a 2-core machine):

1. local: plain envpool CartPole-v1 in one process, for context: a sync pool with
   random actions, and the rollout actor's own loop (async pool, random actions /
   numpy policy / numpy policy + trajectory cutting) without Ray.
2. actors: total env steps/s of 1, 2 and 4 ``RolloutActor``s (8 envs each), one per
   simulated node (``ray.cluster_utils.Cluster``, 1 CPU per node), while the driver
   drains the fifo store and discards what it takes (a learner that costs nothing);
   once with RunConfig's ``refresh_every`` (4) and once with 64, to show what the
   actors' board reads cost.
3. weights: 16 light fetcher actors on 4 simulated nodes and ``--versions`` weight
   versions, once through the cache (``WeightPublisher`` + ``WeightBoard`` + each
   node's object store) and once through ``NaiveWeightServer`` (every actor asks the
   learner). Counts the learner-side work (puts vs replies served), board reads,
   fetches and the copies of each version; then how many reads/s the board answers.
4. solve: ``launcher.train`` with its defaults (2 actors x 8 envs, one local Ray node)
   until CartPole-v1 is solved, per seed. The clock starts once both actors step; the
   actors' start-up before that is a column of its own.

Ray binds its ports on every interface, so without ``--address`` this script refuses
to run unless loopback is the only network interface (the ``unshare -n`` above gives
it a private network namespace). With ``--address`` it joins an existing cluster and
runs parts 2 and 3 there (nodes are the cluster's own).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from typing import Any

import numpy as np
import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

import envpool
from envpool.distributed import (
    NaiveWeightServer,
    NumpyPolicy,
    RolloutActor,
    RunConfig,
    StoreReader,
    TrajectoryCutter,
    WeightBoard,
    WeightFetcher,
    WeightPublisher,
    connect,
    make_shards,
    train,
)
from envpool.distributed.launcher import stop_actors
from envpool.distributed.policy import init_weights

TASK = "CartPole-v1"
PARTS = ("local", "actors", "weights", "solve")


def check_network(address: str | None) -> None:
    """Exits unless loopback is the only interface (or an existing cluster is named)."""
    if address is not None:
        return
    names = [name for _, name in socket.if_nameindex()]
    if names != ["lo"]:
        sys.exit(
            f"refusing to start Ray: network interfaces {names}, not just 'lo'. Ray binds "
            "its ports on every interface; run this in a private network namespace:\n"
            "  unshare -n sh -c 'ip link set lo up; python benchmarks/bench_distributed.py'\n"
            "or pass --address of an existing cluster."
        )
    try:  # lo must also be up, or Ray cannot reach itself
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            probe.listen(1)
            with socket.create_connection(probe.getsockname(), timeout=2):
                pass
    except OSError as exc:
        sys.exit(f"loopback is not usable ({exc}): run 'ip link set lo up' first")


def worker_nodes() -> list[str]:
    """Ids of the alive nodes that are not the head (all alive nodes if only one)."""
    alive = [n for n in ray.nodes() if n["Alive"]]
    workers = [n["NodeID"] for n in alive if "node:__internal_head__" not in n["Resources"]]
    return workers or [n["NodeID"] for n in alive]


def on_node(node_id: str) -> NodeAffinitySchedulingStrategy:
    return NodeAffinitySchedulingStrategy(node_id, soft=False)


# ---------------------------------------------------------------- 1. local context


def bench_local(seconds: float, num_envs: int) -> list[dict[str, Any]]:
    rows = []
    pool = envpool.make(TASK, num_envs=num_envs, seed=0)
    pool.reset()
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 2, size=(1024, num_envs))
    steps, i = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(64):
            pool.step(actions[i % 1024])
            i += 1
        steps += 64 * num_envs
    rate = steps / (time.perf_counter() - start)
    pool.close()
    rows.append({"loop": f"sync pool, {num_envs} envs, random actions", "steps_per_s": rate})

    # The RolloutActor's loop, in this process and without Ray: the same pool
    # settings, numpy policy and trajectory cutting; finished trajectories dropped.
    pool = envpool.make(
        TASK, num_envs=num_envs, batch_size=max(1, num_envs // 2), num_threads=1, seed=0
    )
    policy = NumpyPolicy(init_weights(4, 2), seed=0)
    batch = max(1, num_envs // 2)
    random_actions = actions[:, :batch]
    pool.async_reset()
    for what in ("random actions", "numpy policy", "numpy policy + trajectory cutting"):
        cutter = TrajectoryCutter(128)
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for j in range(64):
                received = pool.recv()
                obs, info = received[0], received[4]
                if what == "random actions":
                    action = random_actions[j]
                else:
                    action, logp = policy.act(obs)
                pool.send(action, info["env_id"])
                steps += len(obs)
                if what.endswith("cutting"):
                    cutter.observe_recv(received, action, logp, 0)
        rate = steps / (time.perf_counter() - start)
        rows.append(
            {
                "loop": f"async pool {num_envs} envs / batch {batch}, 1 thread, {what}",
                "steps_per_s": rate,
            }
        )
    pool.close()
    return rows


# ---------------------------------------------------------------- 2. actor throughput


def bench_actors(
    counts: list[int],
    num_envs: int,
    warmup: float,
    seconds: float,
    refresh: list[int],
    num_shards: int,
) -> list[dict[str, Any]]:
    nodes = worker_nodes()
    rows = []
    for refresh_every, n in [(r, n) for r in refresh for n in counts]:
        board = WeightBoard.remote()
        publisher = WeightPublisher(board)
        publisher.publish(init_weights(4, 2))
        shards = make_shards(num_shards, capacity=8, mode="fifo")
        actors = [
            RolloutActor.options(scheduling_strategy=on_node(nodes[i % len(nodes)])).remote(
                i, TASK, num_envs, board, shards, 128, 1, refresh_every
            )
            for i in range(n)
        ]
        # Wait until every actor has built its pool (imports, envpool.make).
        ray.get([a.stats.remote() for a in actors])
        runs = [a.run.remote() for a in actors]
        reader = StoreReader(shards, per_request=4)
        taken = 0
        start = time.perf_counter()
        t0 = s0 = taken0 = None
        while True:
            taken += len(reader.next_batch(4, timeout=0.2))
            now = time.perf_counter()
            if t0 is None and now - start >= warmup:
                s0 = [ray.get(a.stats.remote()) for a in actors]
                t0, taken0 = time.perf_counter(), taken
            if t0 is not None and now - t0 >= seconds:
                break
        s1 = [ray.get(a.stats.remote()) for a in actors]
        t1 = time.perf_counter()
        stop_actors(actors, runs, shards)
        shard_stats = [ray.get(s.stats.remote()) for s in shards]
        board_reads = ray.get(board.stats.remote())["reads"]
        assert s0 is not None and taken0 is not None
        per_actor = [
            (b["env_steps"] - a["env_steps"]) / (t1 - t0) for a, b in zip(s0, s1, strict=True)
        ]
        rows.append(
            {
                "actors": n,
                "envs_per_actor": num_envs,
                "refresh_every": refresh_every,
                "nodes": len({nodes[i % len(nodes)] for i in range(n)}),
                "seconds": t1 - t0,
                "steps_per_s": sum(per_actor),
                "per_actor": per_actor,
                "trajectories_per_s": (taken - taken0) / (t1 - t0),
                "board_reads": board_reads,
                "put_waits": sum(s["waits"] for s in shard_stats),
            }
        )
        for a in actors:
            ray.kill(a)
        for s in [*shards, board]:
            ray.kill(s)
    return rows


# ---------------------------------------------------------------- 3. weight serving


@ray.remote(num_cpus=0)
class FetchProbe:
    """A stand-in rollout actor that only fetches weights, by either design."""

    def __init__(self) -> None:
        self.weights: Any = None

    def attach(self, board: Any, server: Any) -> None:
        self.fetcher = WeightFetcher(board)
        self.server = server
        self.naive_version = -1
        self.naive_fetches = 0
        self.weights = None  # keeps the last version mapped, as an actor's policy would

    def poll_cache(self) -> int:
        _, weights = self.fetcher.latest()
        if weights is not None:
            self.weights = weights
        return self.fetcher.version

    def poll_naive(self) -> int:
        version, weights = ray.get(self.server.get.remote(self.naive_version))
        if weights is not None:
            self.weights = weights
            self.naive_version = version
            self.naive_fetches += 1
        return self.naive_version

    def hammer(self, seconds: float, inflight: int = 8) -> int:
        """Board reads for `seconds`, `inflight` at a time: how many were answered."""
        board = self.fetcher.board
        pending = [board.current.remote() for _ in range(inflight)]
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            ready, pending = ray.wait(pending, num_returns=1)
            done += len(ready)
            pending.append(board.current.remote())
        ray.get(pending)
        return done

    def counts(self) -> dict[str, int]:
        return {"cache_fetches": self.fetcher.fetches, "naive_fetches": self.naive_fetches}


def weights_of_size(nbytes: int) -> dict[str, np.ndarray]:
    if nbytes <= 0:
        return init_weights(4, 2)  # the CartPole policy: 4-64-64-2
    hidden = int(np.sqrt(nbytes / 4))
    return init_weights(4, 2, hidden=hidden)


def nbytes_of(weights: dict[str, np.ndarray]) -> int:
    return sum(w.nbytes for w in weights.values())


def bench_weights(
    num_fetchers: int,
    num_nodes: int,
    versions: int,
    polls: int,
    sizes: list[int],
    hammer_seconds: float = 2.0,
) -> list[dict[str, Any]]:
    nodes = worker_nodes()[:num_nodes]
    head = ray.get_runtime_context().get_node_id()
    rows = []
    # Started once (a worker process each), then attached to each size's board/server.
    probes = [
        FetchProbe.options(scheduling_strategy=on_node(nodes[i % len(nodes)])).remote()
        for i in range(num_fetchers)
    ]
    for size in sizes:
        weights = [weights_of_size(size)]
        nbytes = nbytes_of(weights[0])
        board = WeightBoard.options(scheduling_strategy=on_node(head)).remote()
        server = NaiveWeightServer.options(scheduling_strategy=on_node(head)).remote()
        ray.get([p.attach.remote(board, server) for p in probes])
        publisher = WeightPublisher(board)

        cache_seconds, copies = [], []
        for v in range(versions):
            w = {k: a + np.float32(v) for k, a in weights[0].items()}  # a new version
            start = time.perf_counter()
            publisher.publish(w)
            for _ in range(polls):
                got = ray.get([p.poll_cache.remote() for p in probes])
            cache_seconds.append(time.perf_counter() - start)
            assert got == [v] * num_fetchers, got
            # Where the version's object lives now: the learner's node plus one
            # copy per node that fetched it.
            locations = ray.experimental.get_object_locations(publisher._refs[-1:])
            copies.append(len(next(iter(locations.values()))["node_ids"]))

        naive_seconds = []
        for v in range(versions):
            w = {k: a + np.float32(v) for k, a in weights[0].items()}
            start = time.perf_counter()
            ray.get(server.set.remote(v, w))
            for _ in range(polls):
                got = ray.get([p.poll_naive.remote() for p in probes])
            naive_seconds.append(time.perf_counter() - start)
            assert got == [v] * num_fetchers, got

        counts = ray.get([p.counts.remote() for p in probes])
        board_stats = ray.get(board.stats.remote())
        # The board's capacity: every fetcher reading as fast as it can (8 in flight).
        start = time.perf_counter()
        hammered = sum(ray.get([p.hammer.remote(hammer_seconds) for p in probes]))
        board_reads_per_s = hammered / (time.perf_counter() - start)
        served = ray.get(server.stats.remote())["served"]
        rows.append(
            {
                "weight_bytes": nbytes,
                "fetchers": num_fetchers,
                "nodes": len({nodes[i % len(nodes)] for i in range(num_fetchers)}),
                "versions": versions,
                "polls_per_version": polls,
                "cache_puts": publisher.puts,
                "cache_puts_per_version": publisher.puts / versions,
                "cache_board_reads": board_stats["reads"],
                "board_max_reads_per_s": board_reads_per_s,
                "cache_fetches": sum(c["cache_fetches"] for c in counts),
                "cache_copies_per_version": float(np.mean(copies)),
                "cache_learner_bytes_per_version": publisher.puts * nbytes / versions,
                "cache_ms_per_version": 1e3 * float(np.median(cache_seconds)),
                "naive_served": served,
                "naive_served_per_version": served / versions,
                "naive_fetches": sum(c["naive_fetches"] for c in counts),
                "naive_learner_bytes_per_version": served * nbytes / versions,
                "naive_ms_per_version": 1e3 * float(np.median(naive_seconds)),
            }
        )
        ray.get([p.attach.remote(None, None) for p in probes])  # drop the last version
        ray.kill(board)
        ray.kill(server)
    for p in probes:
        ray.kill(p)
    return rows


# ---------------------------------------------------------------- 4. time to solve


def bench_solve(seeds: list[int], address: str | None) -> list[dict[str, Any]]:
    rows = []
    for seed in seeds:
        connect(address=address)
        try:
            report = train(RunConfig(seed=seed))
        finally:
            ray.shutdown()
        rows.append(
            {
                "seed": seed,
                "solved": report["solved"],
                "seconds_to_solve": report["seconds_to_solve"],
                "seconds": report["seconds"],
                "startup_seconds": report["startup_seconds"],
                "updates": report["updates"],
                "mean_return": report["mean_return"],
                "episodes": report["episodes"],
                "learner_env_steps": report["learner_env_steps"],
                "actor_env_steps": report["actor_env_steps"],
                "dropped_stale": report["dropped_stale"],
                "weight_puts": report["weight_puts"],
                "board_reads": report["board"]["reads"],
                "weight_fetches": sum(a["weight_fetches"] for a in report["actors"]),
                "shard_failures": len(report["shard_failures"]),
                "put_waits": sum(s["waits"] for s in report["shards"]),
                "trajectories_put": sum(s["put"] for s in report["shards"]),
            }
        )
        print(
            f"  seed {seed}: solved={report['solved']} in {report['seconds']:.1f} s, "
            f"{report['updates']} updates",
            flush=True,
        )
    return rows


# ---------------------------------------------------------------- report


def fmt(x: float) -> str:
    return f"{x:,.0f}"


def format_report(results: dict[str, Any]) -> str:
    out = []
    if "local" in results:
        out += ["### One process, no Ray", "", "| loop | env steps/s |", "|---|---:|"]
        out += [f"| {r['loop']} | {fmt(r['steps_per_s'])} |" for r in results["local"]]
        out.append("")
    if "actors" in results:
        out += [
            "### Rollout actors on simulated nodes",
            "",
            "| actors | envs/actor | nodes | refresh every | total env steps/s | per actor | "
            "trajectories/s | board reads | put waits |",
            "|---:|---:|---:|---:|---:|---|---:|---:|---:|",
        ]
        for r in results["actors"]:
            out.append(
                f"| {r['actors']} | {r['envs_per_actor']} | {r['nodes']} | "
                f"{r['refresh_every']} | {fmt(r['steps_per_s'])} | "
                f"{', '.join(fmt(x) for x in r['per_actor'])} | "
                f"{r['trajectories_per_s']:.1f} | {r['board_reads']:,} | {r['put_waits']} |"
            )
        out.append("")
    if "weights" in results:
        out += [
            "### Weight serving, learner-side work",
            "",
            "| weights | fetchers / nodes | versions x polls | design | learner serves "
            "per version | learner bytes per version | board reads | fetches | "
            "copies per version | ms per version |",
            "|---:|---|---|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in results["weights"]:
            head = (
                f"| {r['weight_bytes']:,} B | {r['fetchers']} / {r['nodes']} | "
                f"{r['versions']} x {r['polls_per_version']} "
            )
            out.append(
                f"{head}| cache (board + object store) | {r['cache_puts_per_version']:g} put | "
                f"{fmt(r['cache_learner_bytes_per_version'])} | {r['cache_board_reads']:,} | "
                f"{r['cache_fetches']:,} | {r['cache_copies_per_version']:g} | "
                f"{r['cache_ms_per_version']:.1f} |"
            )
            out.append(
                f"{head}| naive (ask the learner) | {r['naive_served_per_version']:g} replies | "
                f"{fmt(r['naive_learner_bytes_per_version'])} | - | {r['naive_fetches']:,} | "
                f"- | {r['naive_ms_per_version']:.1f} |"
            )
        rates = ", ".join(fmt(r["board_max_reads_per_s"]) for r in results["weights"])
        out += [
            "",
            f"Board capacity, every fetcher reading as fast as it can: {rates} reads/s.",
            "",
        ]
    if "solve" in results:
        out += [
            "### Time to solve CartPole-v1 (launcher.train defaults: 2 actors x 8 envs)",
            "",
            "| seed | solved | seconds | actor start-up s | PPO updates | "
            "env steps (learner / actors) | "
            "learner env steps/s | stale dropped | put waits / puts | weight puts | "
            "board reads | fetches |",
            "|---:|---|---:|---:|---:|---|---:|---:|---|---:|---:|---:|",
        ]
        for r in results["solve"]:
            out.append(
                f"| {r['seed']} | {'yes' if r['solved'] else 'no'} | {r['seconds']:.1f} | "
                f"{r['startup_seconds']:.1f} | {r['updates']} | "
                f"{r['learner_env_steps']:,} / {r['actor_env_steps']:,} | "
                f"{fmt(r['learner_env_steps'] / r['seconds'])} | {r['dropped_stale']} | "
                f"{r['put_waits']} / {r['trajectories_put']} | {r['weight_puts']} | "
                f"{r['board_reads']:,} | "
                f"{r['weight_fetches']} |"
            )
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--address", help="join this Ray cluster instead of simulating nodes")
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--envs", type=int, default=8, help="envs per rollout actor")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=6.0, help="per actor count")
    parser.add_argument(
        "--refresh-every",
        type=int,
        nargs="+",
        default=[RunConfig.refresh_every, 64],
        help="recv batches between board reads (RunConfig's default is 4)",
    )
    parser.add_argument("--shards", type=int, default=RunConfig.num_shards)
    parser.add_argument("--fetchers", type=int, default=16)
    parser.add_argument("--weight-nodes", type=int, default=4)
    parser.add_argument("--versions", type=int, default=20)
    parser.add_argument("--polls", type=int, default=2, help="board polls per version")
    parser.add_argument(
        "--weight-bytes",
        type=int,
        nargs="+",
        default=[0, 4 << 20],
        help="weight sizes to serve; 0 is the CartPole policy",
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--json", help="write the results to this file")
    args = parser.parse_args()
    if set(args.parts) - {"local"}:
        check_network(args.address)

    results: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d"),
        "argv": sys.argv[1:],
        "ray": ray.__version__,
        "cpus": os.cpu_count(),
        "part_seconds": {},
    }
    t_start = time.perf_counter()

    def part(name: str, fn: Any, *fn_args: Any) -> None:
        print(f"{name} ...", flush=True)
        t = time.perf_counter()
        results[name] = fn(*fn_args)
        results["part_seconds"][name] = time.perf_counter() - t
        print(f"{name} done in {results['part_seconds'][name]:.0f} s", flush=True)

    if "local" in args.parts:
        part("local", bench_local, 3.0, args.envs)
    if "actors" in args.parts or "weights" in args.parts:
        nodes = max(
            max(args.actors) if "actors" in args.parts else 0,
            args.weight_nodes if "weights" in args.parts else 0,
        )
        cluster = None
        if args.address is None:
            # One CPU per simulated node, so each rollout actor has a node of its own.
            cluster = connect(simulated_nodes=nodes, cpus_per_node=1)
        else:
            connect(address=args.address)
        try:
            if "actors" in args.parts:
                part(
                    "actors",
                    bench_actors,
                    args.actors,
                    args.envs,
                    args.warmup,
                    args.seconds,
                    args.refresh_every,
                    args.shards,
                )
            if "weights" in args.parts:
                part(
                    "weights",
                    bench_weights,
                    args.fetchers,
                    args.weight_nodes,
                    args.versions,
                    args.polls,
                    args.weight_bytes,
                )
        finally:
            ray.shutdown()
            if cluster is not None:
                cluster.shutdown()
    if "solve" in args.parts:
        part("solve", bench_solve, args.seeds, args.address)
    results["wall_seconds"] = time.perf_counter() - t_start
    print()
    print(format_report(results))
    print(f"total wall time {results['wall_seconds']:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
