"""What a task looks like with a given set of options: EnvSpec and its Config.

The spec layer: the front ends (gymnasium, dm_env, the original API, xla) and
``envpool.api`` build on it; it imports no front end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from dm_env import specs as dm_specs
from gymnasium import spaces

from envpool.config import Config
from envpool.pool_options import CONFIG_KEYS


@dataclass(frozen=True)
class EnvSpec:
    """What a task looks like with a given set of options, without running it."""

    task_id: str
    config: Config
    """The pool's arguments (pool_options.CONFIG_KEYS) and every env option with the value
    it takes."""
    observation_space: spaces.Space
    action_space: spaces.Space
    observation_spec: dm_specs.Array
    action_spec: dm_specs.Array
    info: dict[str, tuple[np.dtype, tuple[int, ...]]]
    """Extra info arrays: name -> (dtype, per-env shape)."""
    render_fps: int | None = None
    agent_observation_spaces: dict[str, spaces.Space] = field(default_factory=dict)
    """A multi-agent task's agents (core/agents.h), in order: name -> one agent's
    observation space in one env; empty for a single-agent task."""
    agent_action_spaces: dict[str, spaces.Space] = field(default_factory=dict)
    """A multi-agent task's agents: name -> one agent's action space in one env."""

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
    def is_multi_agent(self) -> bool:
        """Whether the task has agents of its own (a multi-agent env, core/agents.h)."""
        return bool(self.agent_observation_spaces)

    @property
    def tuple_observation(self) -> bool:
        """Whether the observation is a Tuple space (the C++ env's MakeTuple)."""
        return isinstance(self.observation_space, spaces.Tuple)

    @property
    def options(self) -> dict[str, Any]:
        """The env's own options, without the pool's arguments."""
        return {k: v for k, v in self.config.items() if k not in CONFIG_KEYS}
