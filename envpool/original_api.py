"""The original EnvPool's interface, where it conflicts with gymnasium's.

``envpool.make(..., original_api=True)`` (the default for ``env_type="gym"``, the
original's name for its gym flavour, and for everything in ``envpool.registration``)
returns pools that behave as EnvPool 1.2 did: ``observation_space`` and
``action_space`` describe one env, rewards (and dm discounts) are float32, ``info``
has ``players``, a pool is also a ``gymnasium.Env``, ``spec.observation_spec()`` and
``spec.action_spec()`` are methods, ``seed()`` warns that seeds are set by ``make``,
and Atari tasks use the original's episodic-life rule and always report the RAM.
docs/migration.md lists what is not provided.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import dm_env
import gymnasium
import numpy as np

from envpool.dm import DmEnvPool
from envpool.gymnasium_env import GymnasiumEnvPool
from envpool.spec import Config, EnvSpec

ORIGINAL_OPTION_DEFAULTS = {
    # The original ends an episodic-life episode on a life loss only while lives remain.
    "zero_lives_ends_episode": False,
    # The original always reports the 128-byte Atari RAM as info["ram"].
    "include_ram": True,
}


# Info arrays envpool adds that the original's did not have (its users count the keys).
NOT_IN_ORIGINAL_INFO = ("discount", "game_return", "game_length", "state")


class ArraySpec(NamedTuple):
    """One array of the original's ``state_array_spec``/``action_array_spec``."""

    dtype: np.dtype
    shape: list[int]
    minimum: Any
    maximum: Any


def with_original_defaults(env_cls: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the original's defaults for the options this env class has."""
    task_defaults = env_cls.default_config()
    originals = {k: v for k, v in ORIGINAL_OPTION_DEFAULTS.items() if k in task_defaults}
    return {**originals, **options}


def to_legacy_gym_space(space: gymnasium.Space) -> Any:
    """``space`` as the legacy ``gym`` package's space, or unchanged if gym is not installed."""
    try:
        import gym
    except ImportError:
        return space
    if isinstance(space, gymnasium.spaces.Discrete):
        return gym.spaces.Discrete(int(space.n), start=int(space.start))
    if isinstance(space, gymnasium.spaces.Box):
        return gym.spaces.Box(space.low, space.high, space.shape, space.dtype)
    return space


class OriginalSpec:
    """An EnvSpec as the original EnvPool shaped it: ``observation_spec()`` and
    ``action_spec()`` are methods, ``config`` reads as attributes, spaces are one env's.

    With ``legacy_gym_spaces`` (env_type="gym"), ``observation_space`` and
    ``action_space`` are the legacy ``gym`` package's spaces when it is installed, as
    the original's were; TorchRL's MultiThreadedEnv converts them with gym's rules.
    """

    def __init__(self, spec: EnvSpec, legacy_gym_spaces: bool = False) -> None:
        self._spec = spec
        self._legacy = legacy_gym_spaces

    def __getattr__(self, name: str) -> Any:
        return getattr(self._spec, name)

    @property
    def observation_space(self) -> Any:
        space = self._spec.observation_space
        return to_legacy_gym_space(space) if self._legacy else space

    @property
    def action_space(self) -> Any:
        space = self._spec.action_space
        return to_legacy_gym_space(space) if self._legacy else space

    @property
    def state_array_spec(self) -> dict[str, ArraySpec]:
        """The original's per-env arrays: "obs" (or "obs:<key>" for each key of a dict
        observation), "info:env_id", "info:<name>", ..."""
        obs = self._spec.observation_spec
        # A dict observation's keys appear as "obs:<key>", as the original names them.
        named = {f"obs:{k}": v for k, v in obs.items()} if isinstance(obs, dict) else {"obs": obs}
        arrays = {
            **{
                name: ArraySpec(
                    spec.dtype,
                    list(spec.shape),
                    getattr(spec, "minimum", None),
                    getattr(spec, "maximum", None),
                )
                for name, spec in named.items()
            },
            "info:env_id": ArraySpec(np.dtype(np.int32), [], 0, self._spec.config.num_envs - 1),
            "info:players.env_id": ArraySpec(np.dtype(np.int32), [-1], 0, None),
            "elapsed_step": ArraySpec(np.dtype(np.int32), [], 0, None),
        }
        for name, (dtype, shape) in self._spec.info.items():
            if name not in NOT_IN_ORIGINAL_INFO:
                arrays[f"info:{name}"] = ArraySpec(np.dtype(dtype), list(shape), None, None)
        return arrays

    @property
    def action_array_spec(self) -> dict[str, ArraySpec]:
        """The original's action arrays: "env_id", "players.env_id" and "action"."""
        action = self._spec.action_spec
        low = getattr(action, "minimum", None)
        high = getattr(action, "maximum", None)
        return {
            "env_id": ArraySpec(np.dtype(np.int32), [], 0, self._spec.config.num_envs - 1),
            "players.env_id": ArraySpec(np.dtype(np.int32), [-1], 0, None),
            "action": ArraySpec(action.dtype, [-1, *action.shape], low, high),
        }

    def observation_spec(self) -> Config:
        """The dm_env specs of the observation and of each info array, by name."""
        specs = {
            name: dm_env.specs.Array(shape, dtype, name=name)
            for name, (dtype, shape) in self._spec.info.items()
        }
        obs = self._spec.observation_spec
        return Config(**(obs if isinstance(obs, dict) else {"obs": obs}), **specs)

    def action_spec(self) -> dm_env.specs.Array:
        return self._spec.action_spec

    def __repr__(self) -> str:
        return f"OriginalSpec({self._spec.task_id!r}, config={dict(self._spec.config)})"


def _warn_seed() -> None:
    warnings.warn(
        "seed() does nothing: an envpool pool is seeded by make(seed=...) (env i gets "
        "seed + i); reseed with reset(seed=...)",
        UserWarning,
        stacklevel=3,
    )


def as_original_info(info: dict[str, Any]) -> dict[str, Any]:
    """The original's info layout: ``players``, int32 ``terminated``, no envpool extras."""
    for name in NOT_IN_ORIGINAL_INFO:
        info.pop(name, None)
    if "terminated" in info:
        info["terminated"] = info["terminated"].astype(np.int32)
    info["players"] = Config(env_id=info["env_id"])
    return info


def split_dict_action(actions: Any, env_id: Any, discrete: bool) -> tuple[Any, Any]:
    """The original's dict action ``{"env_id", "players.env_id", "action"}`` as
    (action, env_id); like the original, its arrays must have the C++ dtypes (int32)."""
    if not isinstance(actions, dict):
        return actions, env_id
    unknown = set(actions) - {"env_id", "players.env_id", "action"}
    if unknown or "action" not in actions:
        raise ValueError(
            "a dict action has the keys 'action', 'env_id' and 'players.env_id', "
            f"got {sorted(actions)}"
        )
    expected = {"env_id": np.int32, "players.env_id": np.int32}
    if discrete:
        expected["action"] = np.int32
    for key, dtype in expected.items():
        if key in actions and np.asarray(actions[key]).dtype != dtype:
            raise RuntimeError(
                f"dict action {key!r} must be {np.dtype(dtype).name} (the original EnvPool's "
                f"C++ type), got {np.asarray(actions[key]).dtype}; or pass plain arrays: "
                "step(action, env_id)"
            )
    if env_id is not None and "env_id" in actions:
        raise ValueError("give env_id in the dict action or as an argument, not both")
    return actions["action"], actions.get("env_id", env_id)


def _original_actions(pool: Any, actions: Any, env_id: Any) -> tuple[Any, Any]:
    """Dict actions split, and float actions of a discrete task cast, as the original did."""
    actions, env_id = split_dict_action(actions, env_id, pool._discrete)
    if pool._discrete and isinstance(actions, np.ndarray) and actions.dtype.kind == "f":
        actions = actions.astype(np.int64)
    return actions, env_id


class OriginalGymEnvPool(GymnasiumEnvPool, gymnasium.Env):  # type: ignore[misc]  # its spec, render, seeds are a pool's
    """A gymnasium pool with the original EnvPool's conventions (see the module doc)."""

    def __init__(
        self, pool: Any, spec: EnvSpec, *args: Any, env_type: str = "gym", **kwargs: Any
    ) -> None:
        super().__init__(pool, spec, *args, original_api=True, **kwargs)  # type: ignore[misc]  # args: autoreset_mode, render_mode
        self.spec = OriginalSpec(spec, legacy_gym_spaces=env_type == "gym")  # type: ignore[assignment]
        self._discrete = isinstance(spec.action_space, gymnasium.spaces.Discrete)

    def seed(self, seed: Any = None) -> None:
        _warn_seed()

    def step(self, actions: Any, env_id: Any = None) -> Any:
        obs, rew, term, trunc, info = super().step(*_original_actions(self, actions, env_id))
        return obs, rew.astype(np.float32), term, trunc, as_original_info(info)

    def send(self, actions: Any, env_id: Any = None) -> None:
        super().send(*_original_actions(self, actions, env_id))

    def recv(self) -> Any:
        obs, rew, term, trunc, info = super().recv()
        return obs, rew.astype(np.float32), term, trunc, as_original_info(info)

    def reset(self, env_id: Any = None, **kwargs: Any) -> Any:
        obs, info = super().reset(env_id, **kwargs)
        return obs, as_original_info(info)

    def _partial_reset_info(self, info: dict[str, Any]) -> dict[str, Any]:
        return info  # the original's reset(env_id) info, MuJoCo's qpos0 and qvel0 included


class OriginalDmEnvPool(DmEnvPool):
    """A dm_env pool with the original EnvPool's conventions (see the module doc)."""

    def __init__(self, pool: Any, spec: EnvSpec) -> None:
        super().__init__(pool, spec)
        self.spec = OriginalSpec(spec)
        self._discrete = isinstance(spec.action_space, gymnasium.spaces.Discrete)

    def seed(self, seed: Any = None) -> None:
        _warn_seed()

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        return super().step(*_original_actions(self, action, env_id))

    def send(self, action: Any, env_id: Any = None) -> None:
        super().send(*_original_actions(self, action, env_id))

    def reward_spec(self) -> dm_env.specs.Array:
        return dm_env.specs.Array((), np.float32, name="reward")

    def discount_spec(self) -> dm_env.specs.BoundedArray:
        return dm_env.specs.BoundedArray((), np.float32, 0.0, 1.0, name="discount")

    def _time_step(self, *result: Any) -> dm_env.TimeStep:  # type: ignore[override]
        ts = super()._time_step(*result)
        observation = ts.observation
        observation["players"] = Config(env_id=observation["env_id"])
        return ts._replace(
            reward=np.asarray(ts.reward, np.float32),
            discount=np.asarray(ts.discount, np.float32),
        )
