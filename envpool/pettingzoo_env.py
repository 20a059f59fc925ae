"""The PettingZoo front end: one env of a multi-agent task as a ``pettingzoo.ParallelEnv``
(``envpool.make_pettingzoo``), for code written against PettingZoo's parallel API. It
steps a one-env multi-agent pool (envpool/multi_agent.py); needs pettingzoo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from envpool.errors import CallOrderError
from envpool.multi_agent import MultiAgentEnvPool


class PettingZooEnv(ParallelEnv):
    """One env of a multi-agent task behind PettingZoo's parallel API: ``reset`` gives
    ``(observations, infos)`` and ``step(actions)`` five dicts keyed by the agents alive
    before the step; an agent whose episode ended leaves ``agents``."""

    def __init__(
        self, pool: MultiAgentEnvPool, remake: Callable[[], PettingZooEnv] | None = None
    ) -> None:
        if pool.num_envs != 1:
            raise ValueError(f"a PettingZoo env runs one env, got a pool of {pool.num_envs}")
        self._pool = pool
        self._remake = remake
        self.possible_agents: list[str] = pool.possible_agents[:]
        self.agents: list[str] = []
        self.observation_spaces: dict[str, spaces.Space] = pool.observation_spaces
        self.action_spaces: dict[str, spaces.Space] = pool.action_spaces
        self.metadata: dict[str, Any] = {
            "name": pool.spec.id,
            "render_modes": pool.metadata["render_modes"],
            "is_parallelizable": True,
        }
        if pool.spec.render_fps is not None:
            self.metadata["render_fps"] = pool.spec.render_fps
        self.render_mode = pool.render_mode
        if pool.state_space is not None:
            self.state_space = pool.state_space
        self._idle_action = {
            agent: np.zeros((1, *(space.shape or ())), dtype=space.dtype)
            for agent, space in self.action_spaces.items()
        }

    def __reduce__(self) -> Any:
        """Pickles as its task id and options (``make_pettingzoo``'s call), as mpe2's envs
        pickle as their constructor's arguments (EzPickle): the copy is a new env, not yet
        reset. SuperSuit's vector envs copy an env this way."""
        if self._remake is None:
            raise TypeError(
                "this PettingZoo env was not made by envpool.make_pettingzoo, so it cannot be "
                "pickled; make it with envpool.make_pettingzoo(task_id, **options)"
            )
        return (self._remake, ())

    def state(self) -> np.ndarray:
        """The env's global state (``state_space``): for mpe2's scenarios every agent's
        observation in agent order, as mpe2's ``state()``. A copy, as PettingZoo's is."""
        return np.array(self._pool.state()[0])

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def unwrapped(self) -> PettingZooEnv:
        return self

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        """Starts an episode; seed=s replays the episode of mpe2's env reset with s."""
        obs, _ = self._pool.reset(seed=seed)
        self.agents = self.possible_agents[:]
        return {a: obs[a][0] for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Steps the env with one action per live agent (agents that have left need none)."""
        if not self.agents:
            raise CallOrderError("every agent's episode has ended: call reset() first")
        self._check(actions)
        batch = {
            a: np.asarray(actions[a])[None] if a in self.agents else self._idle_action[a]
            for a in self.possible_agents
        }
        obs, rewards, terminations, truncations, infos = self._pool.step(batch)
        live = self.agents
        result: tuple[dict[str, Any], ...] = (
            {a: obs[a][0] for a in live},
            {a: float(rewards[a][0]) for a in live},
            {a: bool(terminations[a][0]) for a in live},
            {a: bool(truncations[a][0]) for a in live},
            {a: {} for a in live},
        )
        self.agents = [
            a
            for a in live
            if not (terminations[a][0] or truncations[a][0]) and infos[a]["active"][0]
        ]
        return result

    def _check(self, actions: Any) -> None:
        """Raises for actions that are not one of the right shape for each live agent."""
        if not isinstance(actions, dict):
            raise TypeError(
                f"actions must be a dict keyed by agent name, got {type(actions).__name__}"
            )
        unknown = set(actions) - set(self.possible_agents)
        if unknown:
            raise ValueError(f"unknown agents {sorted(unknown)}; the agents are {self.agents}")
        gone = [a for a in self.possible_agents if a in actions and a not in self.agents]
        if gone:
            raise ValueError(
                f"agents {gone} have left the env (their episodes ended); give actions "
                f"only for the live agents {self.agents}"
            )
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"actions lack agents {missing}; give one for each live agent")
        for agent in self.agents:
            shape = np.shape(actions[agent])
            expected = self.action_spaces[agent].shape or ()
            if shape != expected:
                raise ValueError(
                    f"the action of agent {agent!r} must have shape {expected}, got {shape}"
                )

    def render(self) -> np.ndarray:
        """The env's current frame, (height, width, 3) uint8, with render_mode="rgb_array"
        (mpe2's: docs/multi_agent.md)."""
        return self._pool.render()[0]

    def close(self) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        return f"PettingZooEnv({self._pool.spec.id!r}, agents={self.possible_agents})"
