"""The sharded trajectory store: bounded Ray actors between the actors and the learner.

Each shard holds at most ``capacity`` trajectories.
- ``fifo`` (on-policy): ``put`` waits while the shard is full (back-pressure, so a
  stalled learner stops the actors instead of growing memory); ``take`` removes.
- ``replay``: ``put`` never waits, the oldest trajectory is evicted; ``sample``
  draws uniformly with replacement and removes nothing.
The learner reads through ``StoreReader``, which keeps one request in flight per
shard (prefetching), so a batch is usually ready when the learner asks.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import Any

import ray
from ray.exceptions import RayActorError

MODES = ("fifo", "replay")


def _check(capacity: int, mode: str) -> None:
    if capacity < 1:
        raise ValueError(f"capacity must be >= 1, got {capacity}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")


@ray.remote(num_cpus=0, max_restarts=-1)
class TrajectoryShard:
    def __init__(self, capacity: int, mode: str = "fifo", seed: int = 0) -> None:
        _check(capacity, mode)
        self.capacity, self.mode = capacity, mode
        # A restarted shard (after a crash or ray.kill) starts empty: its buffer was lost.
        self.restarted = ray.get_runtime_context().was_current_actor_reconstructed
        self.items: deque[dict] = deque()
        self.changed = asyncio.Condition()
        self.rng = random.Random(seed)
        self.counts = {"put": 0, "taken": 0, "sampled": 0, "evicted": 0, "waits": 0}

    async def put(self, trajectory: dict) -> int:
        """Stores one whole trajectory; in fifo mode waits for room. Returns the shard's size."""
        async with self.changed:
            if self.mode == "fifo" and len(self.items) >= self.capacity:
                self.counts["waits"] += 1
                await self.changed.wait_for(lambda: len(self.items) < self.capacity)
            if len(self.items) >= self.capacity:
                self.items.popleft()
                self.counts["evicted"] += 1
            self.items.append(trajectory)
            self.counts["put"] += 1
            self.changed.notify_all()
            return len(self.items)

    async def take(self, n: int, timeout: float = 1.0) -> list[dict]:
        """Removes up to n trajectories, oldest first; waits up to `timeout` s for the first."""
        async with self.changed:
            if not self.items:
                try:
                    await asyncio.wait_for(self.changed.wait_for(lambda: bool(self.items)), timeout)
                except asyncio.TimeoutError:
                    return []
            out = [self.items.popleft() for _ in range(min(n, len(self.items)))]
            self.counts["taken"] += len(out)
            self.changed.notify_all()
            return out

    async def drain(self) -> int:
        """Empties the shard (releasing any waiting put); returns how many were dropped."""
        async with self.changed:
            dropped = len(self.items)
            self.items.clear()
            self.changed.notify_all()
            return dropped

    def sample(self, n: int) -> list[dict]:
        """n trajectories drawn uniformly with replacement (replay mode); [] while empty."""
        if not self.items:
            return []
        self.counts["sampled"] += n
        return [self.items[self.rng.randrange(len(self.items))] for _ in range(n)]

    def stats(self) -> dict[str, int]:
        return {
            "size": len(self.items),
            "capacity": self.capacity,
            "restarted": self.restarted,
            **self.counts,
        }


def make_shards(num_shards: int, capacity: int, mode: str = "fifo") -> list[Any]:
    """``num_shards`` shards of ``capacity`` trajectories each."""
    if num_shards < 1:
        raise ValueError(f"num_shards must be >= 1, got {num_shards}")
    _check(capacity, mode)  # here, not only in the actor, where it would surface as ActorDiedError
    return [
        TrajectoryShard.remote(capacity, mode, seed=i)  # type: ignore[attr-defined]  # added by @ray.remote
        for i in range(num_shards)
    ]


class StoreReader:
    """The learner's side: batches from every shard, with a request always in flight."""

    def __init__(self, shards: list[Any], per_request: int = 4, mode: str = "fifo") -> None:
        self.shards = list(shards)
        self.per_request = per_request
        self.mode = mode
        self.inflight: dict[Any, int] = {}
        self.failures: list[str] = []
        for i in range(len(self.shards)):
            self._request(i)

    def _request(self, i: int) -> None:
        shard = self.shards[i]
        if self.mode == "fifo":
            ref = shard.take.remote(self.per_request)
        else:
            ref = shard.sample.remote(self.per_request)
        self.inflight[ref] = i

    def next_batch(self, n: int, timeout: float = 60.0) -> list[dict]:
        """At least n trajectories (or fewer when `timeout` runs out)."""
        out: list[dict] = []
        end = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < end:
            left = max(0.0, end - time.monotonic())  # ray.wait rejects a negative timeout
            ready, _ = ray.wait(list(self.inflight), num_returns=1, timeout=left)
            if not ready:
                break
            i = self.inflight.pop(ready[0])
            try:
                out.extend(ray.get(ready[0]))
            except RayActorError as exc:
                # The shard died with its buffer: that data is lost (and reported);
                # Ray restarts the shard empty and the reader goes on asking it.
                self.failures.append(f"shard {i}: {type(exc).__name__}")
            self._request(i)
        return out
