"""Runs N actors x M envs against one learner, on a local Ray, simulated nodes, or a cluster."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import ray
from gymnasium import spaces
from ray.exceptions import GetTimeoutError

import envpool
from envpool.distributed.actor import RolloutActor
from envpool.distributed.learner import PPOConfig, PPOLearner
from envpool.distributed.store import StoreReader, make_shards
from envpool.distributed.weights import WeightBoard, WeightPublisher


@dataclass
class RunConfig:
    task_id: str = "CartPole-v1"
    num_actors: int = 2
    envs_per_actor: int = 8
    trajectory_length: int = 128
    num_shards: int = 2
    shard_capacity: int = 8
    batch_trajectories: int = 8
    target_return: float = 475.0
    max_seconds: float = 300.0
    max_updates: int | None = None
    seed: int = 1
    refresh_every: int = 4  # recv batches between an actor's looks at the weight board
    startup_timeout: float = 120.0  # seconds for every actor to start stepping
    log_every: float = 0.0  # seconds between progress lines; 0: quiet
    ppo: PPOConfig = field(default_factory=PPOConfig)


def connect(address: str | None = None, simulated_nodes: int = 0, cpus_per_node: int = 2) -> Any:
    """Starts or joins Ray: a cluster at `address`, `simulated_nodes` local nodes, or one node.

    Returns the ray.cluster_utils.Cluster when nodes are simulated (shut it down after
    ray.shutdown()), else None.
    """
    if address is not None:
        ray.init(address=address, log_to_driver=False)
        return None
    if simulated_nodes > 0:
        from ray.cluster_utils import Cluster

        # The head holds the learner's helpers (board, shards: 0 CPUs); actors go to nodes.
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        for _ in range(simulated_nodes):
            cluster.add_node(num_cpus=cpus_per_node)
        ray.init(address=cluster.address, log_to_driver=False)
        cluster.wait_for_nodes()
        return cluster
    # address="local": a new Ray, never one that another process on this machine started
    # (ray.init() with no address joins the last cluster recorded in /tmp/ray).
    ray.init(address="local", num_cpus=cpus_per_node, include_dashboard=False, log_to_driver=False)
    return None


def stop_actors(actors: list[Any], runs: list[Any], shards: list[Any], timeout: float = 60) -> int:
    """Stops the actors and waits for their `run` calls to return; returns how many
    trajectories were drained from the shards.

    Actors blocked on a full shard (back-pressure) stop once the shards drain; drain
    until every run returns, as one drain frees fewer slots than there may be waiters.
    Raises GetTimeoutError if the runs have not returned after `timeout` s.
    """
    for a in actors:
        a.stop.remote()
    drained = 0
    pending, deadline = runs, time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        drained += sum(ray.get([shard.drain.remote() for shard in shards]))
        _, pending = ray.wait(pending, num_returns=len(pending), timeout=0.5)
    ray.get(runs, timeout=1)
    return drained


def wait_until_stepping(actors: list[Any], runs: list[Any], timeout: float) -> None:
    """Waits until every actor has stepped its pool, so that no actor misses the start.

    Starting an actor process (importing envpool, building the pool) takes seconds on a
    loaded node, while one running actor can fill the store for several updates alone.
    Raises RuntimeError naming the actors that did not start within `timeout` s.
    """
    waiting = dict(enumerate(actors))
    deadline = time.monotonic() + timeout
    while waiting and time.monotonic() < deadline:
        done, _ = ray.wait(runs, num_returns=len(runs), timeout=0)
        if done:  # nothing has stopped the actors yet, so a returned run has failed
            ray.get(done)  # raises its error
        for i, a in list(waiting.items()):
            left = max(0.1, deadline - time.monotonic())
            try:
                stepped = ray.get(a.stats.remote(), timeout=left)["env_steps"] > 0
            except GetTimeoutError:
                stepped = False
            if stepped:
                del waiting[i]
        if waiting:
            time.sleep(0.05)
    if waiting:
        raise RuntimeError(
            f"actors {sorted(waiting)} did not start stepping within {timeout:g} s: check that "
            "their nodes are alive (ray status) or raise RunConfig.startup_timeout"
        )


def train(config: RunConfig) -> dict[str, Any]:
    """Trains the task with PPO until the mean return of the last 100 episodes reaches
    `target_return` (or `max_seconds` pass); Ray must be initialised. Returns a report."""
    cpus = ray.cluster_resources().get("CPU", 0)
    if cpus < config.num_actors:
        raise ValueError(
            f"{config.num_actors} actors need {config.num_actors} CPUs but the Ray cluster has "
            f"{cpus:g}: use fewer actors or add nodes (each actor is one process stepping "
            "its own pool)"
        )
    spec = envpool.make_spec(config.task_id)
    obs_dim = cast(spaces.Box, spec.observation_space).shape[0]
    n_actions = int(cast(spaces.Discrete, spec.action_space).n)
    learner = PPOLearner(obs_dim, n_actions, config.ppo)
    board = WeightBoard.remote()  # type: ignore[attr-defined]  # added by @ray.remote
    publisher = WeightPublisher(board)
    publisher.publish(learner.weights())
    shards = make_shards(config.num_shards, config.shard_capacity)
    actors = [
        RolloutActor.options(scheduling_strategy="SPREAD").remote(  # type: ignore[attr-defined]  # added by @ray.remote
            i,
            config.task_id,
            config.envs_per_actor,
            board,
            shards,
            config.trajectory_length,
            config.seed,
            config.refresh_every,
        )
        for i in range(config.num_actors)
    ]
    try:  # however the run ends, its actors go
        runs = [a.run.remote() for a in actors]
        startup = time.perf_counter()
        wait_until_stepping(actors, runs, config.startup_timeout)
        startup_seconds = time.perf_counter() - startup
        reader = StoreReader(shards, per_request=max(1, config.batch_trajectories // len(shards)))
        start = time.perf_counter()
        solved_at: float | None = None
        updates = 0
        last_log = start
        while time.perf_counter() - start < config.max_seconds:
            if config.max_updates is not None and updates >= config.max_updates:
                break
            batch = reader.next_batch(config.batch_trajectories, timeout=30.0)
            if not batch:
                continue
            learner.update(batch)
            publisher.publish(learner.weights())
            updates += 1
            now = time.perf_counter()
            if config.log_every and now - last_log >= config.log_every:
                last_log = now
                print(
                    f"{now - start:6.1f}s  update {updates}  env steps {learner.env_steps}  "
                    f"mean return {learner.mean_return():.1f} ({len(learner.returns)} episodes)",
                    flush=True,
                )
            if len(learner.returns) >= 100 and learner.mean_return() >= config.target_return:
                solved_at = time.perf_counter() - start
                break
        stopping = time.perf_counter()
        elapsed = stopping - start
        stop_actors(actors, runs, shards)
        stop_seconds = time.perf_counter() - stopping
        actor_stats = [ray.get(a.stats.remote()) for a in actors]
        report = {
            "config": asdict(config),
            "solved": solved_at is not None,
            "seconds_to_solve": solved_at,
            "seconds": elapsed,
            "startup_seconds": startup_seconds,
            "stop_seconds": stop_seconds,
            "updates": updates,
            "mean_return": learner.mean_return(),
            "episodes": learner.episodes,
            "learner_env_steps": learner.env_steps,
            "actor_env_steps": sum(s["env_steps"] for s in actor_stats),
            "dropped_stale": learner.dropped_stale,
            "weight_puts": publisher.puts,
            "board": ray.get(board.stats.remote()),
            "shard_failures": reader.failures,
            "shards": [ray.get(s.stats.remote()) for s in shards],
            "actors": actor_stats,
        }
        return report
    finally:
        for a in actors:
            ray.kill(a)
