"""The rollout actor: one async envpool, a local policy, and trajectories cut per env."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import ray
from ray.exceptions import RayActorError

import envpool
from envpool.distributed.policy import NumpyPolicy
from envpool.distributed.trajectory import TrajectoryCutter
from envpool.distributed.weights import WeightFetcher


@ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1, max_concurrency=2)
class RolloutActor:
    """Steps ``num_envs`` envs of ``task_id`` with the newest policy it has.

    A restarted actor (after a crash or ``ray.kill``) builds a fresh pool and starts
    new episodes; unfinished trajectories die with the old process, so only whole
    trajectories ever reach the store.
    """

    def __init__(
        self,
        actor_id: int,
        task_id: str,
        num_envs: int,
        board: Any,
        shards: list[Any],
        trajectory_length: int = 128,
        seed: int = 0,
        refresh_every: int = 1,
    ) -> None:
        self.actor_id = actor_id
        self.restarted = ray.get_runtime_context().was_current_actor_reconstructed
        # A restarted actor reseeds, so that it does not replay its first life.
        seed = seed + 10_000 * actor_id + (int(time.time()) % 10_000 if self.restarted else 0)
        self.pool = envpool.make(
            task_id,
            num_envs=num_envs,
            batch_size=max(1, num_envs // 2),
            num_threads=1,
            seed=seed,
        )
        self.shards = shards
        self.fetcher = WeightFetcher(board)
        self.cutter = TrajectoryCutter(trajectory_length)
        self.refresh_every = refresh_every
        self.policy: NumpyPolicy | None = None
        self.seed = seed
        self.returns = np.zeros(num_envs)
        self.finished: dict[int, list[float]] = {}
        self.stop_event = threading.Event()
        self.counts = {
            "env_steps": 0,
            "trajectories": 0,
            "put_failures": 0,
            "dropped": 0,
            "weight_fetches": 0,
        }
        self._inflight_put: tuple[Any, dict] | None = None
        self.next_shard = actor_id % len(shards)

    def _refresh(self, wait: bool) -> None:
        while True:
            # Waiting only for the first weights; later the board read is in flight
            # while the actor steps, so it costs the loop nothing.
            _, weights = self.fetcher.latest() if wait else self.fetcher.poll()
            if weights is not None:
                if self.policy is None:
                    self.policy = NumpyPolicy(weights, seed=self.seed)
                else:
                    self.policy.set_weights(weights)
                self.counts["weight_fetches"] = self.fetcher.fetches
            if self.policy is not None or not wait or self.stop_event.is_set():
                return
            time.sleep(0.05)

    def _put(self, trajectory: dict) -> None:
        """Hands a whole trajectory to a shard. One put stays in flight while the actor
        steps on; the next put first waits for it, so a full store (back-pressure) still
        stops the actor with at most one trajectory outstanding."""
        self._finish_put()
        shard = self.shards[self.next_shard]
        self.next_shard = (self.next_shard + 1) % len(self.shards)
        self._inflight_put = (shard.put.remote(trajectory), trajectory)

    def _finish_put(self) -> None:
        if self._inflight_put is None:
            return
        ref, trajectory = self._inflight_put
        self._inflight_put = None
        for _ in range(len(self.shards) * 3):
            try:
                ray.get(ref)
                self.counts["trajectories"] += 1
                return
            except RayActorError:
                self.counts["put_failures"] += 1  # a shard is restarting: try the next
                time.sleep(0.1)
                shard = self.shards[self.next_shard]
                self.next_shard = (self.next_shard + 1) % len(self.shards)
                ref = shard.put.remote(trajectory)
        self.counts["dropped"] += 1

    def run(self, env_steps: int | None = None) -> dict[str, int]:
        """Steps until `env_steps` more env steps (None: until stop()); returns the counts."""
        self._refresh(wait=True)
        target = None if env_steps is None else self.counts["env_steps"] + env_steps
        self.pool.async_reset()
        batches = 0
        while not self.stop_event.is_set():
            if target is not None and self.counts["env_steps"] >= target:
                break
            batch = self.pool.recv()
            obs, reward, terminated, truncated, info = batch
            env_id = info["env_id"]
            assert self.policy is not None
            action, logp = self.policy.act(obs)
            self.pool.send(action, env_id)
            self.counts["env_steps"] += len(env_id)
            self._track_returns(env_id, reward, terminated | truncated, info["elapsed_step"])
            for traj in self.cutter.observe_recv(batch, action, logp, self.fetcher.version):
                traj["finished_returns"] = np.asarray(
                    self.finished.pop(int(traj["env_id"]), []), dtype=np.float64
                )
                traj["actor_id"] = np.int32(self.actor_id)
                self._put(traj)
            batches += 1
            if batches % self.refresh_every == 0:
                self._refresh(wait=False)
        self._finish_put()
        return dict(self.counts)

    def _track_returns(
        self, env_id: np.ndarray, reward: np.ndarray, done: np.ndarray, elapsed: np.ndarray
    ) -> None:
        for e, r, d, k in zip(env_id.tolist(), reward, done, elapsed, strict=True):
            if k == 0:  # a reset row
                self.returns[e] = 0.0
                continue
            self.returns[e] += r
            if d:
                self.finished.setdefault(e, []).append(float(self.returns[e]))

    def stop(self) -> None:
        self.stop_event.set()

    def stats(self) -> dict[str, Any]:
        return {**self.counts, "restarted": self.restarted, "version": self.fetcher.version}
