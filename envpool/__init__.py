"""envpool: many C++ environments stepped on a thread pool, seen from Python as one batch."""

from __future__ import annotations

from envpool import compat as _compat  # noqa: F401  (the original EnvPool's module paths)
from envpool import families as _families  # noqa: F401  (registers every family's tasks)
from envpool.api import (
    EnvSpec,
    make,
    make_dm,
    make_gym,
    make_gymnasium,
    make_pettingzoo,
    make_spec,
)
from envpool.errors import CallOrderError, EnvError
from envpool.registry import list_all_envs, register
from envpool.thread_pool import (
    ThreadPool,
    get_default_thread_pool,
    make_thread_pool,
    set_default_thread_pool,
)
from envpool.version import __version__

__all__ = [
    "CallOrderError",
    "EnvError",
    "EnvSpec",
    "ThreadPool",
    "__version__",
    "get_default_thread_pool",
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_pettingzoo",
    "make_spec",
    "make_thread_pool",
    "register",
    "set_default_thread_pool",
]
