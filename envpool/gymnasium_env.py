"""The gymnasium front end: a real gymnasium.vector.VectorEnv over a pool."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from envpool import spaces as envpool_spaces
from envpool._frontend import PoolHandle, TupleObservationPool
from envpool.errors import CallOrderError
from envpool.frame_drawer import FrameDrawer
from envpool.spec import EnvSpec

# gymnasium's render mode -> the pool class's flag saying the env supports it
_RENDER_MODES = {"rgb_array": "can_render", "ansi": "can_render_ansi"}


class GymnasiumEnvPool(PoolHandle, VectorEnv):  # type: ignore[misc]  # np_random_seed: one per env
    """A batch of C++ envs behind the gymnasium vector API.

    Sync mode (batch_size == num_envs): ``step(actions)`` steps every env and
    returns rows in env order; ``step(actions, env_id=ids)`` steps just those.
    Async mode (batch_size < num_envs): ``send(actions, env_id)`` then
    ``recv()``, which returns the first batch_size envs to finish;
    ``info["env_id"]`` says which. ``step`` is ``send`` followed by ``recv``.
    """

    is_vector_env = True
    """The original EnvPool's marker, read by some training libraries."""

    spec: EnvSpec  # type: ignore[assignment]  # envpool's EnvSpec (.id, .config, spaces)

    def __init__(
        self,
        pool: Any,
        spec: EnvSpec,
        autoreset_mode: AutoresetMode,
        render_mode: str | None = None,
        original_api: bool = False,
        frame_drawer: str | None = None,
    ) -> None:
        # gymnasium's Tuple observations: the same zero-copy views, as a tuple
        self._hold(TupleObservationPool(pool) if spec.tuple_observation else pool, spec)
        self.original_api = original_api
        self.single_observation_space = spec.observation_space
        self.single_action_space = spec.action_space
        if original_api:
            self.observation_space = spec.observation_space
            self.action_space = spec.action_space
        else:
            self.observation_space = envpool_spaces.batch(spec.observation_space, self.num_envs)
            self.action_space = envpool_spaces.batch(spec.action_space, self.num_envs)
        render_modes = [mode for mode, ok in _RENDER_MODES.items() if getattr(pool, ok, False)]
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": render_modes}
        if spec.render_fps is not None:
            self.metadata["render_fps"] = spec.render_fps
        self.render_mode = render_mode
        self._frames = FrameDrawer(frame_drawer, spec)
        self.closed = False
        self._every_env_reset = False  # a masked reset needs every env's observation

    @property
    def config(self) -> dict[str, Any]:
        """The pool's arguments and the task's options (also readable as attributes)."""
        return self.spec.config

    @property
    def num_threads(self) -> int:
        return self._pool.num_threads

    def __len__(self) -> int:
        return self.num_envs

    def reset(
        self,
        env_id: Any = None,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Resets every env, or those in ``env_id``, or those in ``options["reset_mask"]``.

        seed=s gives env i the seed s + i; a list gives one seed (or None) per env
        (per env of ``env_id`` when given); None keeps each env's random stream going.
        With ``env_id``, only those envs' rows are returned, in the order of ``env_id``,
        and ``info`` holds only the arrays with one value per env (as in the original
        EnvPool); array-valued info such as ``state`` comes with the next step.
        """
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if options:
            raise TypeError(f"unknown reset options {sorted(options)}; only 'reset_mask'")
        if env_id is not None:
            if reset_mask is not None:
                raise ValueError("give env_id or options['reset_mask'], not both")
            ids = self._ids(env_id)
            obs, info = self._pool.reset(ids, self._take_seeds(seed, ids))
            return obs, self._partial_reset_info(info)
        if reset_mask is None:
            obs, info = self._pool.reset(None, self._take_seeds(seed, self._ids(None)))
            self._every_env_reset = True
            return obs, info
        return self._masked_reset(reset_mask, seed)

    def _partial_reset_info(self, info: dict[str, Any]) -> dict[str, Any]:
        # One value per env: Tianshou's collector copies this dict into each reset
        # env's slot and breaks on wider arrays (e.g. CartPole's state, which comes
        # with the next step's info).
        return {k: v for k, v in info.items() if v.ndim == 1}

    def _masked_reset(self, mask: Any, seed: Any) -> tuple[np.ndarray, dict[str, Any]]:
        key = "`options['reset_mask']`"
        if hasattr(mask, "__array__") and hasattr(mask, "dtype"):  # jax, torch (cpu), ...
            mask = np.asarray(mask)
        if not isinstance(mask, np.ndarray):
            raise TypeError(f"{key} must be a numpy array, got {type(mask)}")
        if mask.shape != (self.num_envs,):
            raise ValueError(f"{key} must have shape `({self.num_envs},)`, got {mask.shape}")
        if mask.dtype != np.bool_:
            raise TypeError(f"{key} must have `dtype=np.bool_`, got {mask.dtype}")
        if not mask.any():
            raise ValueError(
                f"{key} must contain a boolean array with at least one True value, "
                f"got reset_mask={mask}"
            )
        if self.is_async and not mask.all():
            raise CallOrderError(
                "reset_mask needs sync mode (batch_size == num_envs); in async mode use "
                "async_reset(env_id=ids) and recv()"
            )
        if not self._every_env_reset and not mask.all():
            raise CallOrderError("reset() every env once before a masked reset")
        ids = np.flatnonzero(mask).astype(np.int32)
        if isinstance(seed, (list, tuple, np.ndarray)):  # one seed per env, masked or not
            if len(seed) != self.num_envs:
                raise ValueError(
                    "If seeds are passed as a list the length must match "
                    f"num_envs={self.num_envs} but got length={len(seed)}."
                )
            seed = [seed[i] for i in ids]
        sub_seeds = self._take_seeds(seed, ids)
        sub_obs, sub_info = self._pool.reset(ids, sub_seeds)
        # The pool keeps its own copy of each env's last observation: the arrays it
        # handed out may have been written to since (gymnasium's wrappers do).
        obs = sub_obs if mask.all() else self._pool.latest_obs()
        self._every_env_reset = True
        info: dict[str, Any] = {}
        for key_name, value in sub_info.items():
            full = np.zeros((self.num_envs, *value.shape[1:]), dtype=value.dtype)
            full[ids] = value
            info[key_name] = full
            info[f"_{key_name}"] = mask.copy()
        return obs, info

    def step(
        self, actions: Any, env_id: Any = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Steps every env (or those in ``env_id``) and returns the batch."""
        return self._pool.step(actions, env_id)

    def send(self, actions: Any, env_id: Any = None) -> None:
        """Starts stepping the envs in ``env_id`` (all envs when None)."""
        self._pool.send(actions, env_id)

    def recv(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Waits for the next batch of results."""
        return self._pool.recv()

    def render(self, env_id: Any = None) -> tuple[np.ndarray, ...] | tuple[str, ...]:
        """Every env's current frame (or those in ``env_id``): with render_mode="rgb_array"
        a tuple of (height, width, 3) uint8 arrays, as gymnasium's VectorEnv returns
        (``np.stack`` makes one array); with render_mode="ansi" a tuple of strings."""
        if self.render_mode == "ansi":
            return tuple(self._pool.render_ansi(env_id))
        if self.render_mode != "rgb_array":
            raise ValueError(
                "make the pool with render_mode='rgb_array' (or 'ansi' where the task has a "
                "text rendering) to render it"
            )
        return self._frames.frames(self._pool.render(env_id))

    def close_extras(self, **kwargs: Any) -> None:
        self._close_pool()

    def __repr__(self) -> str:
        mode = "async" if self.is_async else "sync"
        return (
            f"GymnasiumEnvPool({self.spec.id!r}, num_envs={self.num_envs}, "
            f"batch_size={self.batch_size}, {mode})"
        )
