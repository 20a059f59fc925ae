"""Exceptions raised by envpool pools, shared by every env package."""

from __future__ import annotations


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
    result; that batch is dropped. The failed env is reset on its next step
    (or must be reset by hand with ``autoreset_mode="disabled"``); the other
    envs and the pool are unaffected.
    """

    def __init__(self, message: str, env_id: int = -1, env_message: str = "") -> None:
        super().__init__(message)
        self.env_id = env_id
        self.env_message = env_message

    def __reduce__(self) -> tuple[type, tuple[str, int, str]]:
        return (type(self), (str(self), self.env_id, self.env_message))
