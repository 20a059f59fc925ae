"""What the gymnasium and dm_env front ends share."""

from __future__ import annotations

from typing import Any

import numpy as np


class PoolHandle:
    """Context management, pickling refusal and seed spreading over a C++ pool."""

    num_envs: int
    _pool: Any

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()  # type: ignore[attr-defined]  (each front end has its own close)

    def __reduce__(self) -> Any:
        raise TypeError(
            "an envpool pool cannot be pickled: it owns C++ threads and live "
            "environments. Pickle its task id and options and call envpool.make again."
        )

    def async_reset(self, seed: int | list[int | None] | None = None, env_id: Any = None) -> None:
        """Starts resetting envs (all when ``env_id`` is None); ``recv()`` collects them.

        seed=s gives env i the seed s + i.
        """
        ids = range(self.num_envs) if env_id is None else np.asarray(env_id).tolist()
        seeds = [seed + i for i in ids] if isinstance(seed, int) else seed
        self._pool.async_reset(env_id, seeds)


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
