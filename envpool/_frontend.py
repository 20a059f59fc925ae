"""What the gymnasium and dm_env front ends share."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
from gymnasium import spaces

from envpool.registry import get_task


class PoolHandle:
    """Context management, pickling refusal and seed spreading over a C++ pool."""

    num_envs: int
    batch_size: int
    is_async: bool
    spec: Any
    _pool: Any

    def _hold(self, pool: Any, spec: Any) -> None:
        """Keeps the C++ pool and its spec, with the pool's sizes (every front end's
        first step)."""
        self._pool = pool
        self.spec = spec
        self.num_envs = spec.config.num_envs
        self.batch_size = spec.config.batch_size
        self.is_async = self.batch_size < self.num_envs

    def _close_pool(self) -> None:
        """Closes the C++ pool; after xla(), first lets the jax calls already
        dispatched to it run (on a GPU they run after Python returns)."""
        if getattr(self, "_xla_calls", False) and not self._pool.closed:
            from envpool.xla import settle_calls

            settle_calls()
        self._pool.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()  # type: ignore[attr-defined]  # each front end has its own close

    def __reduce__(self) -> Any:
        raise TypeError(
            "an envpool pool cannot be pickled: it owns C++ threads and live "
            "environments. Pickle its task id and options and call envpool.make again."
        )

    @property
    def np_random_seed(self) -> tuple[int, ...]:
        """Each env's seed: make's seed + i, or what the last seeded reset gave it."""
        return tuple(self._pool.seeds)

    def xla(self) -> tuple[Any, Any, Any, Any]:
        """``(handle, recv, send, step)``: JAX functions that step this pool inside
        ``jax.jit`` (docs/jax.md); needs ``pip install 'envpool[jax]'``."""
        spec = self.spec
        if _has_text_observation(spec.observation_space):
            raise TypeError(
                f"{spec.id}: env.xla() cannot carry text observations (a Text space, one "
                "Python str per env): jax arrays hold numbers only"
            )
        from envpool.xla import make_xla  # imports jax; a clear ImportError without it

        return make_xla(self)

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """A goal-conditioned task's reward for achieved and desired goals (one pair or a
        batch), as gymnasium-robotics' ``GoalEnv.compute_reward``: what HER relabels with."""
        return self._goals().compute_reward(achieved_goal, desired_goal, info)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """A goal-conditioned task's termination for the goals, as its GoalEnv's."""
        return self._goals().compute_terminated(achieved_goal, desired_goal, info)

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """A goal-conditioned task's truncation for the goals, as its GoalEnv's."""
        return self._goals().compute_truncated(achieved_goal, desired_goal, info)

    def _goals(self) -> Any:
        goals = getattr(self, "_goal_functions", None)
        if goals is None:
            entry = get_task(self.spec.id).goal_api
            if entry is None:
                raise NotImplementedError(
                    f"{self.spec.id} is not goal-conditioned: it has no compute_reward "
                    "(the gymnasium-robotics tasks have, docs/robotics.md)"
                )
            module, _, name = entry.partition(":")
            goals = getattr(importlib.import_module(module), name)(self.spec.config)
            self._goal_functions = goals
        return goals

    def get_state(self, env_id: Any = None) -> list[bytes]:
        """The saved state of each env (those of ``env_id``, all when None), as bytes
        that ``set_state`` restores, in this pool or another of the same task and
        options. Procgen's envs have it (procgen's own get_state); other tasks raise
        NotImplementedError."""
        self._require_saved_state("get_state")
        return list(self._pool.get_state(self._ids(env_id)))

    def set_state(self, states: Any, env_id: Any = None) -> np.ndarray:
        """Restores the envs of ``env_id`` (all when None) to ``states``, one per env,
        from ``get_state``; returns their observations at the restored points. A
        restored env steps on from there without a reset."""
        self._require_saved_state("set_state")
        if isinstance(states, (bytes, bytearray)):
            raise TypeError("set_state() takes a list of states, one per env, not one bytes")
        return self._pool.set_state(list(states), self._ids(env_id))

    def _require_saved_state(self, call: str) -> None:
        if not self._pool.can_save_state:
            raise NotImplementedError(
                f"{self.spec.id} cannot save or restore its envs' state ({call}); "
                "the Procgen tasks can (docs/procgen.md)"
            )

    def async_reset(self, seed: int | list[int | None] | None = None, env_id: Any = None) -> None:
        """Starts resetting envs (all when ``env_id`` is None); ``recv()`` collects them.

        seed=s gives env i the seed s + i.
        """
        ids = self._ids(env_id)
        self._pool.async_reset(ids, self._take_seeds(seed, ids))

    def _ids(self, env_id: Any) -> np.ndarray:
        """``env_id`` checked, or every env when None."""
        if env_id is None:
            return np.arange(self.num_envs, dtype=np.int32)
        return check_env_ids(env_id, self.num_envs)

    def _take_seeds(self, seed: Any, ids: np.ndarray) -> int | list[int | None] | None:
        """``seed`` checked, for the pool's reset: None keeps each env's stream; an int s
        gives env i the seed s + i (the pool applies the rule, cpp/envpool/core/pool_options.h);
        a list gives one seed (or None) per env of ``ids``. ``np_random_seed`` reads the
        seeds back from the pool."""
        if seed is None:
            return None
        if _is_int(seed):
            if seed < 0:
                raise ValueError(f"seeds must be non-negative, got {seed}")
            return int(seed)
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds: list[int | None] = list(seed)
            if len(seeds) != len(ids):
                raise ValueError(
                    f"If seeds are passed as a list the length must match the {len(ids)} envs "
                    f"reset, but got length={len(seeds)}."
                )
        else:
            raise TypeError(f"seed must be an int, a list of ints or None, got {seed!r}")
        for s in seeds:
            if s is not None and not _is_int(s):
                raise TypeError(f"a seed must be an int or None, got {s!r}")
            if s is not None and s < 0:
                raise ValueError(f"seeds must be non-negative, got {s}")
        return [None if s is None else int(s) for s in seeds]


def _has_text_observation(space: spaces.Space) -> bool:
    if isinstance(space, spaces.Dict):
        return any(isinstance(sub, spaces.Text) for sub in space.values())
    if isinstance(space, spaces.Tuple):
        return any(isinstance(sub, spaces.Text) for sub in space)
    return isinstance(space, spaces.Text)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_env_ids(env_id: Any, num_envs: int) -> np.ndarray:
    """``env_id`` (an int, a list or an array of ints) as a 1-D int32 array of valid ids."""
    ids = np.asarray(env_id)
    if ids.dtype.kind not in "iu" or ids.dtype == np.bool_:
        raise TypeError(f"env_id must be an int or a list or array of ints, got {ids.dtype}")
    if ids.ndim > 1:
        raise ValueError(f"env_id must be one-dimensional, got shape {ids.shape}")
    ids = ids.reshape(-1)
    if ids.size and (ids.min() < 0 or ids.max() >= num_envs):
        bad = ids[(ids < 0) | (ids >= num_envs)][0]
        raise IndexError(f"env_id {bad} is out of range [0, {num_envs - 1}]")
    return ids.astype(np.int32, copy=False)


def with_tuple_observations(result: tuple[Any, ...]) -> tuple[Any, ...]:
    """A step or reset result of a pool whose observation is a tuple (MakeTuple): the
    pool hands each tuple out as a dict of views by element name; gymnasium's Tuple
    space holds the same views as a tuple, in order. ``info["final_obs"]`` becomes what
    gymnasium's vector envs give for a Tuple space: an object array with env i's final
    tuple at row i (None where no episode ended)."""
    obs, *rest = result
    info = rest[-1]
    if "final_obs" in info:
        elements = tuple(info["final_obs"].values())
        final = np.full(len(info["_final_obs"]), None, dtype=object)
        for i in np.flatnonzero(info["_final_obs"]):
            final[i] = tuple(element[i] for element in elements)
        info["final_obs"] = final
    return (tuple(obs.values()), *rest)


def with_tuple_observations_jax(result: tuple[Any, ...]) -> tuple[Any, ...]:
    """``with_tuple_observations`` for env.xla()'s jax values: ``info["final_obs"]``
    stays batched, a tuple of (num_envs, ...) arrays (jax holds no Python objects)."""
    obs, *rest = result
    info = rest[-1]
    if "final_obs" in info:
        info["final_obs"] = tuple(info["final_obs"].values())
    return (tuple(obs.values()), *rest)


class TupleObservationPool:
    """A C++ pool seen with tuple observations (``with_tuple_observations``); every other
    member is the pool's own."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    def __getattr__(self, name: str) -> Any:
        return getattr(self._pool, name)

    def reset(self, *args: Any) -> tuple[Any, ...]:
        return with_tuple_observations(self._pool.reset(*args))

    def step(self, *args: Any) -> tuple[Any, ...]:
        return with_tuple_observations(self._pool.step(*args))

    def recv(self) -> tuple[Any, ...]:
        return with_tuple_observations(self._pool.recv())

    def latest_obs(self) -> tuple[Any, ...]:
        return tuple(self._pool.latest_obs().values())
