"""What a task looks like with a given set of options: EnvSpec and its Config.

The spec layer: the front ends (gymnasium, dm_env, the original API, xla) and
``envpool.api`` build on it; it imports no front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from dm_env import specs as dm_specs
from gymnasium import spaces


class Config(dict):
    """A dict whose keys also read as attributes: ``config["num_envs"]`` or ``config.num_envs``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"config has no key {name!r}; its keys: {sorted(self)}") from None


POOL_KEYS = (
    "num_envs",
    "batch_size",
    "num_threads",
    "seed",
    "max_episode_steps",
    "thread_affinity_offset",
    "numa_node",
    "max_num_players",
    "gym_reset_return_info",
)
"""The keys of ``EnvSpec.config`` that describe the pool rather than the task."""


@dataclass(frozen=True)
class EnvSpec:
    """What a task looks like with a given set of options, without running it."""

    task_id: str
    config: Config
    """The pool's arguments (POOL_KEYS) and every env option with the value it takes."""
    observation_space: spaces.Space
    action_space: spaces.Space
    observation_spec: dm_specs.Array
    action_spec: dm_specs.Array
    info: dict[str, tuple[np.dtype, tuple[int, ...]]]
    """Extra info arrays: name -> (dtype, per-env shape)."""
    render_fps: int | None = None

    @property
    def id(self) -> str:
        """The task id, as gymnasium's ``EnvSpec.id`` names it."""
        return self.task_id

    @property
    def max_episode_steps(self) -> int | None:
        return self.config["max_episode_steps"]

    @property
    def reward_threshold(self) -> float | None:
        """gymnasium's reward threshold for this task id, None if gymnasium has none."""
        import gymnasium

        try:
            return gymnasium.spec(self.task_id).reward_threshold
        except gymnasium.error.Error:
            return None

    @property
    def options(self) -> dict[str, Any]:
        """The env's own options, without the pool's arguments."""
        return {k: v for k, v in self.config.items() if k not in POOL_KEYS}
