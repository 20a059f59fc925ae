"""Distributed rollouts on Ray, after Google's Menger.

Many ``RolloutActor``s (one async envpool each, local inference with a numpy policy)
feed a sharded ``TrajectoryShard`` store that a learner reads with prefetching; the
learner publishes weights once per version through a ``WeightBoard`` and Ray's
per-node object store. See docs/distributed.md. Needs ``pip install "envpool[ray]"``.
"""

from __future__ import annotations

try:
    import ray  # noqa: F401
except ImportError as exc:  # pragma: no cover
    raise ImportError('envpool.distributed needs Ray: pip install "envpool[ray]"') from exc

from envpool.distributed.actor import RolloutActor
from envpool.distributed.launcher import RunConfig, connect, train
from envpool.distributed.learner import PPOConfig, PPOLearner
from envpool.distributed.policy import NumpyPolicy
from envpool.distributed.store import StoreReader, TrajectoryShard, make_shards
from envpool.distributed.trajectory import TrajectoryCutter
from envpool.distributed.weights import (
    NaiveWeightServer,
    WeightBoard,
    WeightFetcher,
    WeightPublisher,
)

__all__ = [
    "NaiveWeightServer",
    "NumpyPolicy",
    "PPOConfig",
    "PPOLearner",
    "RolloutActor",
    "RunConfig",
    "StoreReader",
    "TrajectoryCutter",
    "TrajectoryShard",
    "WeightBoard",
    "WeightFetcher",
    "WeightPublisher",
    "connect",
    "make_shards",
    "train",
]
