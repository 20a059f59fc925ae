"""envpool: many C++ environments stepped on a thread pool, seen from Python as one batch."""

from __future__ import annotations

from envpool import atari_tasks as _atari_tasks  # noqa: F401  (registers the Atari tasks)
from envpool import box2d_tasks as _box2d_tasks  # noqa: F401  (registers the Box2D tasks)
from envpool import classic_control_tasks as _classic_control_tasks  # noqa: F401  (registers them)
from envpool import dmc_tasks as _dmc_tasks  # noqa: F401  (registers the DMC tasks)
from envpool import mujoco_tasks as _mujoco_tasks  # noqa: F401  (registers the MuJoCo tasks)
from envpool import toy_text_tasks as _toy_text_tasks  # noqa: F401  (registers the toy-text tasks)
from envpool.api import EnvSpec, make, make_dm, make_gym, make_gymnasium, make_spec
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
    "make_spec",
    "make_thread_pool",
    "register",
    "set_default_thread_pool",
]
