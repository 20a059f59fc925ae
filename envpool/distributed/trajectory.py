"""Cutting an async pool's stream of (obs, reward, done) rows into fixed-length trajectories.

A trajectory is one env's next ``length`` transitions, whole: it is handed over only
when complete, so nothing partial ever reaches the store. Episode ends may fall
inside it; ``next_obs[t]`` is the observation after step t (the final one at an
episode end), so a learner can bootstrap a truncated episode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

FIELDS = (
    "obs",
    "next_obs",
    "action",
    "reward",
    "terminated",
    "truncated",
    "logp",
    "policy_version",
    "elapsed_step",
)


@dataclass
class _EnvBuffer:
    rows: dict[str, list] = field(default_factory=lambda: {k: [] for k in FIELDS})
    # The step sent but not yet answered: (obs, action, logp, version, elapsed_step).
    pending: tuple | None = None
    pending_was_done: bool = False


class TrajectoryCutter:
    """Per-env buffers; ``observe`` takes a recv'd batch and the actions chosen for it."""

    def __init__(self, length: int) -> None:
        if length < 1:
            raise ValueError(f"trajectory length must be >= 1, got {length}")
        self.length = length
        self._envs: dict[int, _EnvBuffer] = {}

    def observe_recv(
        self, batch: tuple[Any, ...], action: np.ndarray, logp: np.ndarray, policy_version: int
    ) -> list[dict[str, np.ndarray]]:
        """``observe`` of what an async pool's ``recv()`` returned (``batch``: obs, reward,
        terminated, truncated, info with env_id and elapsed_step)."""
        obs, reward, terminated, truncated, info = batch
        return self.observe(
            info["env_id"],
            obs,
            reward,
            terminated,
            truncated,
            info["elapsed_step"],
            action,
            logp,
            policy_version,
        )

    def observe(
        self,
        env_id: np.ndarray,
        obs: np.ndarray,
        reward: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray,
        elapsed_step: np.ndarray,
        action: np.ndarray,
        logp: np.ndarray,
        policy_version: int,
    ) -> list[dict[str, np.ndarray]]:
        """Records a recv'd batch and the actions sent for it; returns finished trajectories."""
        done_batch = []
        for i, e in enumerate(env_id.tolist()):
            buf = self._envs.setdefault(e, _EnvBuffer())
            if buf.pending is not None and not buf.pending_was_done:
                p_obs, p_action, p_logp, p_version, p_elapsed = buf.pending
                rows = buf.rows
                rows["obs"].append(p_obs)
                rows["next_obs"].append(obs[i].copy())  # not a view: it would pin the batch
                rows["action"].append(p_action)
                rows["reward"].append(reward[i])
                rows["terminated"].append(terminated[i])
                rows["truncated"].append(truncated[i])
                rows["logp"].append(p_logp)
                rows["policy_version"].append(p_version)
                rows["elapsed_step"].append(p_elapsed)
                if len(rows["obs"]) == self.length:
                    done_batch.append(self._finish(e, buf))
            # After an episode end (next_step autoreset) the action sent for the
            # final observation is ignored and the next row is a reset row.
            buf.pending = (obs[i].copy(), action[i], logp[i], policy_version, elapsed_step[i])
            buf.pending_was_done = bool(terminated[i] or truncated[i])
        return done_batch

    def _finish(self, env_id: int, buf: _EnvBuffer) -> dict[str, np.ndarray]:
        # obs keep the pool's dtype: uint8 frames stay a quarter of float32's size
        traj = {k: np.asarray(v) for k, v in buf.rows.items()}
        traj["env_id"] = np.int32(env_id)
        buf.rows = {k: [] for k in FIELDS}
        return traj

    def discard(self) -> None:
        """Drops every unfinished trajectory (a policy or pool restart)."""
        self._envs.clear()
