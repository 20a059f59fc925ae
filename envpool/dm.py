"""The dm_env front end: a batched dm_env.Environment over a pool."""

from __future__ import annotations

from typing import Any

import dm_env
import numpy as np
from dm_env import specs

from envpool._frontend import PoolHandle
from envpool.spec import Config, EnvSpec


class Observation(Config):
    """A TimeStep's observation: a dict ("obs", or a dict observation's own keys,
    then "env_id", "elapsed_step" and the env's info arrays) whose keys also read as
    attributes, e.g. ``ts.observation.obs`` or ``ts.observation.position``."""


class DmEnvPool(PoolHandle, dm_env.Environment):
    """A batch of C++ envs behind the dm_env API.

    Every field of a TimeStep is an array over the batch. ``observation`` is a
    dict: "obs" holds the observations (an env with a dict observation puts its
    own keys there instead, in the env's order), "env_id" and "elapsed_step" say
    which env and how far into its episode each row is, and the env's info arrays
    follow. step_type is FIRST for a reset, LAST when the episode terminated
    or was truncated, MID otherwise. discount is 0 on termination and 1 on
    truncation (or lower where the env reports its own info["discount"], as
    Atari does on a life loss with zero_discount_on_life_loss). An env that
    returned LAST is reset by its next step, whose action is ignored (dm_env's
    convention).
    """

    def __init__(self, pool: Any, spec: EnvSpec) -> None:
        self._hold(pool, spec)
        self._action_spec = spec.action_spec
        observed = spec.observation_spec
        if isinstance(observed, dict):
            clash = set(observed) & {"env_id", "elapsed_step", *spec.info}
            if clash:
                raise ValueError(
                    f"{spec.id}: observation keys {sorted(clash)} clash with the env_id, "
                    "elapsed_step and info arrays the dm_env observation also holds"
                )
        else:
            observed = {"obs": observed}
        self._observation_spec = Config(
            {
                **observed,
                "env_id": specs.BoundedArray((), np.int32, 0, self.num_envs - 1, name="env_id"),
                "elapsed_step": specs.Array((), np.int32, name="elapsed_step"),
                **{
                    name: specs.Array(shape, dtype, name=name)
                    for name, (dtype, shape) in spec.info.items()
                },
            }
        )

    @property
    def config(self) -> dict[str, Any]:
        """The pool's arguments and the task's options (also readable as attributes)."""
        return self.spec.config

    def __len__(self) -> int:
        return self.num_envs

    def observation_spec(self) -> dict[str, specs.Array]:
        return self._observation_spec

    def action_spec(self) -> specs.Array:
        return self._action_spec

    def reward_spec(self) -> specs.Array:
        return specs.Array((), np.float64, name="reward")

    def discount_spec(self) -> specs.BoundedArray:
        return specs.BoundedArray((), np.float64, 0.0, 1.0, name="discount")

    def reset(
        self, env_id: Any = None, seed: int | list[int | None] | None = None
    ) -> dm_env.TimeStep:
        """Resets every env, or those in ``env_id`` (only their rows are returned);
        ``seed=s`` gives env i the seed s + i."""
        ids = self._ids(env_id)
        obs, info = self._pool.reset(ids, self._take_seeds(seed, ids))
        n = len(info["env_id"])
        return self._time_step(obs, np.zeros(n), np.zeros(n, bool), None, info)

    def step(self, action: Any, env_id: Any = None) -> dm_env.TimeStep:
        return self._time_step(*self._pool.step(action, env_id))

    def send(self, action: Any, env_id: Any = None) -> None:
        self._pool.send(action, env_id)

    def recv(self) -> dm_env.TimeStep:
        return self._time_step(*self._pool.recv())

    def close(self) -> None:
        self._close_pool()

    @staticmethod
    def _time_step(
        obs: np.ndarray | dict[str, np.ndarray],
        reward: np.ndarray,
        terminated: np.ndarray,
        truncated: np.ndarray | None,
        info: dict[str, Any],
    ) -> dm_env.TimeStep:
        elapsed = info["elapsed_step"]
        first = elapsed == 0
        last = terminated if truncated is None else terminated | truncated
        # MID (1) + 1 where last (LAST, 2), FIRST (0) where a reset: arithmetic on
        # int8 costs a fifth of np.where over the StepType enum values
        step_type = last.astype(np.int8)
        step_type += dm_env.StepType.MID
        step_type[first] = dm_env.StepType.FIRST
        discount = np.where(terminated, 0.0, 1.0)
        if "discount" in info:  # an env's own discount, e.g. 0 on an Atari life loss
            discount = np.minimum(discount, info["discount"])
        arrays = obs if isinstance(obs, dict) else {"obs": obs}
        observation = Observation(**arrays, **info)
        return dm_env.TimeStep(step_type, reward, discount, observation)
