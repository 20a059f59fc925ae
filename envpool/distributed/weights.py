"""The weight cache between the learner and its actors (Menger's caching layer, on Ray).

The learner ``ray.put``s each new weight version once and posts its reference on a
small version board. Actors read the board, and fetch a version they do not have
through their own node's object store. Ray copies an object to a node once, and every
actor on that node then maps the same copy, so the learner serves each version once,
whatever the number of actors. The board only answers "which version is current",
a few bytes per call.
"""

from __future__ import annotations

from typing import Any

import ray

from envpool.distributed.policy import Weights


@ray.remote(num_cpus=0, max_restarts=-1)
class WeightBoard:
    """Which weight version is current, and the object reference that holds it."""

    def __init__(self) -> None:
        self.version = -1
        self.ref: list[Any] = []  # wrapped in a list so Ray passes the reference, not the data
        self.reads = 0

    def post(self, version: int, ref: list[Any]) -> None:
        if version <= self.version:
            raise ValueError(f"version {version} is not newer than {self.version}")
        self.version, self.ref = version, ref

    def current(self) -> tuple[int, list[Any]]:
        self.reads += 1
        return self.version, self.ref

    def stats(self) -> dict[str, int]:
        return {"version": self.version, "reads": self.reads}


class WeightPublisher:
    """Learner side: one ``ray.put`` per version, however many actors there are."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.version = -1
        self.puts = 0
        self._refs: list[Any] = []

    def publish(self, weights: Weights) -> int:
        self.version += 1
        ref = ray.put(weights)
        self.puts += 1
        ray.get(self.board.post.remote(self.version, [ref]))
        # Keep the last few versions alive while slow actors may still fetch them.
        self._refs = [*self._refs[-3:], ref]
        return self.version


class WeightFetcher:
    """Actor side: reads the board and fetches a newer version from the local object store."""

    def __init__(self, board: Any) -> None:
        self.board = board
        self.version = -1
        self.fetches = 0
        self._read: Any = None  # a board read in flight (poll)

    def poll(self) -> tuple[int, Weights | None]:
        """latest() without waiting on the board: answers from the read started by the
        previous poll (if it has arrived) and starts the next one."""
        if self._read is not None:
            ready, _ = ray.wait([self._read], timeout=0)
            if not ready:
                return self.version, None
            version, ref = ray.get(self._read)
            self._read = self.board.current.remote()
            return self._take(version, ref)
        self._read = self.board.current.remote()
        return self.version, None

    def _take(self, version: int, ref: list[Any]) -> tuple[int, Weights | None]:
        if version <= self.version or not ref:
            return self.version, None
        weights = ray.get(ref[0])
        self.version = version
        self.fetches += 1
        return version, weights

    def latest(self) -> tuple[int, Weights | None]:
        """(version, weights) if the board has a newer version than ours, else (ours, None)."""
        version, ref = ray.get(self.board.current.remote())
        return self._take(version, ref)


@ray.remote(num_cpus=0)
class NaiveWeightServer:
    """The design the cache replaces: every actor asks the learner for the weights itself.

    Used only by the benchmark (benchmarks/bench_distributed.py) to count the calls
    the learner would serve.
    """

    def __init__(self) -> None:
        self.version = -1
        self.weights: Weights | None = None
        self.served = 0

    def set(self, version: int, weights: Weights) -> None:
        self.version, self.weights = version, weights

    def get(self, have: int) -> tuple[int, Weights | None]:
        if have >= self.version:
            return self.version, None
        self.served += 1
        return self.version, self.weights

    def stats(self) -> dict[str, int]:
        return {"version": self.version, "served": self.served}
