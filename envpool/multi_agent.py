"""The batched multi-agent front end: many copies of a multi-agent env (core/agents.h) as
dicts keyed by agent name, the form MAPPO/IPPO code and JaxMARL use.

``reset()`` returns ``(obs, infos)`` and ``step(actions)`` returns ``(obs, rewards,
terminations, truncations, infos)``: each a dict keyed by agent name whose values have a
leading axis of one row per env (``num_envs``, or ``batch_size`` in async mode), and
``actions`` a dict of the same form. Observations, rewards and terminations are views into
the batch memory (no copy; each agent's rows are strided). ``observation_space(agent)`` and
``action_space(agent)`` describe one agent in one env, as PettingZoo's do. Autoreset, seeds
(env i gets seed + i) and async mode (rows are envs: ``send(actions, env_id)`` /
``recv()``) are the single-agent pool's. With ``render_mode="rgb_array"``, ``render()``
gives every env's frame (or those in ``env_id``), as the single-agent pool's does.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from envpool import spaces as envpool_spaces
from envpool._frontend import PoolHandle
from envpool.errors import CallOrderError
from envpool.frame_drawer import FrameDrawer
from envpool.spec import EnvSpec

# The per-agent info arrays every multi-agent env has (core/agents.h), one column per agent.
_AGENT_ARRAYS = ("rewards", "terminations", "active")
# The info array holding an env's global state, for envs that have one (core/agents.h).
_STATE = "state"


class MultiAgentEnvPool(PoolHandle):
    """A batch of multi-agent C++ envs behind a PettingZoo-like parallel API."""

    def __init__(
        self,
        pool: Any,
        spec: EnvSpec,
        mode: AutoresetMode,
        render: str | None,
        frame_drawer: str | None = None,
    ) -> None:
        """``mode``: the autoreset mode; ``render``: the render mode; ``frame_drawer``:
        the task's ``"module:function"`` that draws a frame from what the C++ env's
        render writes (registry.TaskSpec.frame_drawer), None when that is the frame."""
        self._hold(pool, spec)
        self._frames = FrameDrawer(frame_drawer, spec)
        self.observation_spaces: dict[str, spaces.Space] = dict(spec.agent_observation_spaces)
        self.action_spaces: dict[str, spaces.Space] = dict(spec.agent_action_spaces)
        self.single_observation_space = spaces.Dict(OrderedDict(self.observation_spaces))
        """Every agent's observation space in one env, keyed by agent (in agent order)."""
        self.single_action_space = spaces.Dict(OrderedDict(self.action_spaces))
        self.batched_observation_space = envpool_spaces.batch(
            self.single_observation_space, self.num_envs
        )
        """The form of ``obs`` from a sync step: each agent's space with a num_envs axis."""
        self.batched_action_space = envpool_spaces.batch(self.single_action_space, self.num_envs)
        """The form ``step(actions)`` takes in sync mode (its ``sample()`` is a valid
        ``actions``)."""
        self.possible_agents: list[str] = list(self.observation_spaces)
        self.agents: list[str] = self.possible_agents[:]
        """Every agent of the task; in a batch an agent that has left an env reads False in
        ``infos[agent]["active"]``."""
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        self._state: np.ndarray | None = None
        self.state_space: spaces.Box | None = None
        """One env's global state (PettingZoo's ``state_space``), for a task whose C++ env
        has one (MakeMultiAgentSpec's ``state``); None otherwise."""
        if _STATE in spec.info:
            dtype, shape = spec.info[_STATE]
            self.state_space = spaces.Box(-np.inf, np.inf, shape=shape, dtype=dtype)
        # each agent's first column in the packed action row, and its action's shape
        self._slots: dict[str, tuple[int, spaces.Space, tuple[int, ...]]] = {}
        offset = 0
        for name, space in self.action_spaces.items():
            shape = tuple(space.shape or ())
            self._slots[name] = (offset, space, shape)
            offset += int(np.prod(shape, dtype=np.int64))
        self._action_width = offset
        render_modes = ["rgb_array"] if getattr(pool, "can_render", False) else []
        self.metadata: dict[str, Any] = {"autoreset_mode": mode, "render_modes": render_modes}
        if spec.render_fps is not None:
            self.metadata["render_fps"] = spec.render_fps
        self.render_mode = render
        self.autoreset_mode = mode
        self.closed = False

    @property
    def num_agents(self) -> int:
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        return len(self.possible_agents)

    @property
    def config(self) -> dict[str, Any]:
        """The pool's arguments and the task's options (also readable as attributes)."""
        return self.spec.config

    def observation_space(self, agent: str) -> spaces.Space:
        """One env's observation space of ``agent``."""
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent: str) -> spaces.Space:
        """One env's action space of ``agent``."""
        return self.action_spaces[self._known(agent)]

    def _known(self, agent: Any) -> str:
        if agent not in self._index:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        return str(agent)

    def __len__(self) -> int:
        return self.num_envs

    def reset(
        self, env_id: Any = None, *, seed: int | list[int | None] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, dict[str, Any]]]:
        """Resets every env (or those in ``env_id``); seed=s gives env i the seed s + i."""
        ids = self._ids(env_id)
        obs, info = self._pool.reset(None if env_id is None else ids, self._take_seeds(seed, ids))
        return obs, self._agent_infos(info)

    def step(self, actions: dict[str, Any], env_id: Any = None) -> tuple[Any, ...]:
        """Steps every env (or those in ``env_id``) with one action per agent per env."""
        ids = self._ids(env_id)
        return self._split(self._pool.step(self._pack(actions, ids), env_id))

    def send(self, actions: dict[str, Any], env_id: Any = None) -> None:
        """Starts stepping the envs in ``env_id`` (all envs when None)."""
        ids = self._ids(env_id)
        self._pool.send(self._pack(actions, ids), env_id)

    def recv(self) -> tuple[Any, ...]:
        """Waits for the next batch of results (``infos[agent]["env_id"]`` says whose)."""
        return self._split(self._pool.recv())

    def _pack(self, actions: Any, ids: np.ndarray) -> np.ndarray:
        """The per-agent actions for the envs ``ids``, checked (a non-finite value names
        its agent and env), as the env's one float32 row per env."""
        n = len(ids)
        if not isinstance(actions, dict):
            raise TypeError(
                f"actions must be a dict keyed by agent name, got {type(actions).__name__}"
            )
        for agent in actions:
            self._known(agent)
        packed = np.empty((n, self._action_width), dtype=np.float32)
        for agent, (offset, space, shape) in self._slots.items():
            if agent not in actions:
                raise ValueError(f"actions lack agent {agent!r}; give one for each agent")
            value = np.asarray(actions[agent])
            if isinstance(space, spaces.Discrete):
                if value.dtype.kind not in "iu":
                    raise TypeError(
                        f"the discrete actions of agent {agent!r} need an integer dtype, got "
                        f"{value.dtype}"
                    )
                if value.shape != (n,):
                    raise ValueError(
                        f"the actions of agent {agent!r} must have shape ({n},) (one per env), "
                        f"got {value.shape}"
                    )
                if n and (value.min() < 0 or value.max() >= space.n):
                    bad = value[(value < 0) | (value >= space.n)][0]
                    raise ValueError(
                        f"action {bad} of agent {agent!r} is out of range [0, {space.n - 1}]"
                    )
                packed[:, offset] = value
            else:
                width = int(np.prod(shape, dtype=np.int64))
                if value.dtype.kind != "f":
                    raise TypeError(
                        f"the continuous actions of agent {agent!r} need a float dtype, got "
                        f"{value.dtype}"
                    )
                if value.shape != (n, *shape):
                    raise ValueError(
                        f"the actions of agent {agent!r} must have shape {(n, *shape)} "
                        f"(one row per env), got {value.shape}"
                    )
                finite = np.isfinite(value.reshape(n, width)).all(axis=1)
                if not finite.all():
                    env = int(ids[int(np.argmin(finite))])
                    raise ValueError(
                        f"the action of agent {agent!r} for env {env} is not finite (NaN or inf)"
                    )
                packed[:, offset : offset + width] = value.reshape(n, width)
        return packed

    def _split(self, result: tuple[Any, ...]) -> tuple[Any, ...]:
        obs, _reward, _terminated, truncated, info = result
        rewards = info["rewards"]
        terminations = info["terminations"]
        if "final_info" in info:
            # same_step: an ended env's row already holds its reset; the step's own
            # per-agent results are in final_info (zeros in rows that did not end)
            ended = info["_final_obs"][:, None]
            rewards = np.where(ended, info["final_info"]["rewards"], rewards)
            terminations = np.where(ended, info["final_info"]["terminations"], terminations)
        agent_rewards = {a: rewards[:, i] for a, i in self._index.items()}
        agent_terms = {a: terminations[:, i] for a, i in self._index.items()}
        agent_truncs = dict.fromkeys(self._index, truncated)
        return obs, agent_rewards, agent_terms, agent_truncs, self._agent_infos(info)

    def _agent_infos(self, info: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """The pool's info split by agent: each agent's column of the per-agent arrays
        ("active"), and the env's own arrays (env_id, elapsed_step, ...) shared."""
        if _STATE in info:
            self._state = info[_STATE]
        shared = {k: v for k, v in info.items() if k not in _AGENT_ARRAYS and k != _STATE}
        final_obs = shared.pop("final_obs", None)
        shared.pop("final_info", None)
        shared.pop("_final_info", None)
        infos: dict[str, dict[str, Any]] = {}
        for agent, i in self._index.items():
            entry = dict(shared)
            if "active" in info:
                entry["active"] = info["active"][:, i]
            if final_obs is not None:
                entry["final_obs"] = final_obs[agent]
            infos[agent] = entry
        return infos

    def state(self) -> np.ndarray:
        """The global state of each env in the last batch returned (reset, step or recv),
        one row per env in that batch's order (a view into the batch memory, no copy):
        PettingZoo's ``state()``, what a centralised critic (MAPPO) sees. For mpe2's
        scenarios, every agent's observation in agent order, as mpe2's ``state()``."""
        if self.state_space is None:
            raise NotImplementedError(f"{self.spec.id} has no global state (state_space is None)")
        if self._state is None:
            raise CallOrderError("state() before the first reset(); call reset() first")
        return self._state

    def render(self, env_id: Any = None) -> tuple[np.ndarray, ...]:
        """Every env's current frame (or those in ``env_id``) as (height, width, 3)
        uint8 arrays, with render_mode="rgb_array" (``np.stack`` makes one array)."""
        if self.render_mode != "rgb_array":
            raise ValueError("make the pool with render_mode='rgb_array' to render it")
        return self._frames.frames(self._pool.render(env_id))

    def close(self) -> None:
        if not self.closed:
            self._pool.close()
            self.closed = True

    def __repr__(self) -> str:
        mode = "async" if self.is_async else "sync"
        return (
            f"MultiAgentEnvPool({self.spec.id!r}, num_envs={self.num_envs}, "
            f"batch_size={self.batch_size}, agents={self.possible_agents}, {mode})"
        )
