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
