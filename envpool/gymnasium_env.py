"""The gymnasium front end: a real gymnasium.vector.VectorEnv over a pool."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envpool._frontend import PoolHandle
from envpool.api import EnvSpec
from envpool.errors import CallOrderError


class GymnasiumEnvPool(PoolHandle, VectorEnv):
    """A batch of C++ envs behind the gymnasium vector API.

    Sync mode (batch_size == num_envs): ``step(actions)`` steps every env and
    returns rows in env order; ``step(actions, env_id=ids)`` steps just those.
    Async mode (batch_size < num_envs): ``send(actions, env_id)`` then
    ``recv()``, which returns the first batch_size envs to finish;
    ``info["env_id"]`` says which. ``step`` is ``send`` followed by ``recv``.
    """

    def __init__(
        self,
        pool: Any,
        spec: EnvSpec,
        num_envs: int,
        batch_size: int,
        autoreset_mode: AutoresetMode,
        render_mode: str | None = None,
    ) -> None:
        self._pool = pool
        self.spec_info = spec
        self.num_envs = num_envs
        self.batch_size = batch_size
        self.is_async = batch_size < num_envs
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        self.observation_space = batch_space(spec.observation_space, num_envs)
        self.action_space = batch_space(spec.action_space, num_envs)
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": ["rgb_array"]}
        self.render_mode = render_mode
        self.closed = False
        self._last_obs: np.ndarray | None = None
        self._last_obs_owned = False

    @property
    def config(self) -> dict[str, Any]:
        return self.spec_info.config

    @property
    def num_threads(self) -> int:
        return self._pool.num_threads

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every env (or those in ``options["reset_mask"]``).

        seed=s gives env i the seed s + i; a list gives one seed (or None) per env;
        None keeps each env's random stream going.
        """
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if options:
            raise TypeError(f"unknown reset options {sorted(options)}; only 'reset_mask'")
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds: Any = [int(seed) + i for i in range(self.num_envs)]
        elif seed is None:
            seeds = None
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"got {len(seeds)} seeds for num_envs={self.num_envs}")
        if reset_mask is None:
            obs, info = self._pool.reset(None, seeds)
            self._remember(obs)
            return obs, info
        return self._masked_reset(reset_mask, seeds)

    def _masked_reset(self, mask: Any, seeds: list | None) -> tuple[np.ndarray, dict[str, Any]]:
        if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_:
            raise TypeError("options['reset_mask'] must be a numpy bool array")
        if mask.shape != (self.num_envs,):
            raise ValueError(
                f"options['reset_mask'] must have shape ({self.num_envs},), got {mask.shape}"
            )
        if not mask.any():
            raise ValueError("options['reset_mask'] must select at least one env")
        if self.is_async and not mask.all():
            raise CallOrderError(
                "reset_mask needs sync mode (batch_size == num_envs); in async mode use "
                "async_reset(env_id=ids) and recv()"
            )
        if self._last_obs is None and not mask.all():
            raise CallOrderError("reset() every env once before a masked reset")
        ids = np.flatnonzero(mask).astype(np.int32)
        sub_seeds = None if seeds is None else [seeds[i] for i in ids]
        sub_obs, sub_info = self._pool.reset(ids, sub_seeds)
        obs = sub_obs if mask.all() else self._last_obs.copy()
        obs[ids] = sub_obs
        self._remember(obs)
        info: dict[str, Any] = {}
        for key, value in sub_info.items():
            full = np.zeros((self.num_envs, *value.shape[1:]), dtype=value.dtype)
            full[ids] = value
            info[key] = full
            info[f"_{key}"] = mask.copy()
        return obs, info

    def step(
        self, actions: Any, env_id: Any = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps every env (or those in ``env_id``) and returns the batch."""
        result = self._pool.step(actions, env_id)
        if env_id is None and not self.is_async:
            self._last_obs = result[0]
            self._last_obs_owned = False
        else:
            self._remember_rows(result[0], result[4]["env_id"])
        return result

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Starts stepping the envs in ``env_id`` (all envs when None)."""
        self._pool.send(actions, env_id)

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for the next batch of results."""
        result = self._pool.recv()
        self._remember_rows(result[0], result[4]["env_id"])
        return result

    def render(self, env_id: Any = None) -> np.ndarray:
        """Every env's current frame (or those in ``env_id``), as (n, height, width, 3) uint8."""
        if self.render_mode != "rgb_array":
            raise ValueError("make the pool with render_mode='rgb_array' to render it")
        return self._pool.render(env_id)

    def close_extras(self, **kwargs: Any) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        mode = "async" if self.is_async else "sync"
        return (
            f"GymnasiumEnvPool({self.spec_info.task_id!r}, num_envs={self.num_envs}, "
            f"batch_size={self.batch_size}, {mode})"
        )

    def _remember(self, obs: np.ndarray) -> None:
        self._last_obs = obs
        self._last_obs_owned = False

    def _remember_rows(self, obs: np.ndarray, env_ids: np.ndarray) -> None:
        # Only sync pools keep the latest observation of every env, for
        # reset_mask; in async mode masked resets are refused instead.
        if self.is_async or self._last_obs is None:
            return
        if not self._last_obs_owned:
            self._last_obs = self._last_obs.copy()
            self._last_obs_owned = True
        self._last_obs[env_ids] = obs
