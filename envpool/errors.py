"""Exceptions raised by envpool pools, shared by every env package."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


class CallOrderError(RuntimeError):
    """A call made in a state that does not allow it.

    For example ``recv()`` with nothing in flight, ``send()`` to an env whose
    last result has not been received, stepping an ended env with
    ``autoreset_mode="disabled"``, or any call after ``close()``.
    The pool is unchanged and stays usable (except after ``close()``).
    """


class EnvError(RuntimeError):
    """An exception thrown inside one environment's C++ reset or step.

    Raised from the ``step``/``recv`` that would have returned that env's
    result; that batch is dropped. ``env_id`` is the env that failed,
    ``env_message`` the C++ exception's message, and ``dropped_env_ids`` every
    env of the dropped batch: in async mode, send to those again to go on.
    The failed env is reset on its next step (or must be reset by hand with
    ``autoreset_mode="disabled"``); the other envs and the pool are unaffected.
    """

    def __init__(
        self,
        message: str,
        env_id: int = -1,
        env_message: str = "",
        dropped_env_ids: Sequence[int] = (),
    ) -> None:
        super().__init__(message)
        self.env_id = env_id
        self.env_message = env_message
        self.dropped_env_ids = np.asarray(dropped_env_ids, dtype=np.int32)

    def __reduce__(self) -> tuple[type, tuple[str, int, str, list[int]]]:
        return (
            type(self),
            (str(self), self.env_id, self.env_message, self.dropped_env_ids.tolist()),
        )
