"""The original EnvPool's module of entry points (``envpool.registration``), for code written
against it.

``from envpool.registration import make_gym, make_dm, make_spec`` gives pools with the
original's conventions (``original_api=True``: one env's spaces, float32 rewards, ...);
``envpool.make`` keeps gymnasium's. See docs/migration.md.
"""

from __future__ import annotations

from typing import Any

from envpool import api
from envpool.original_api import OriginalSpec, with_original_defaults
from envpool.registry import get_task, list_all_envs, register
from envpool.thread_pool import make_thread_pool

__all__ = [
    "list_all_envs",
    "make",
    "make_dm",
    "make_gym",
    "make_gymnasium",
    "make_spec",
    "make_thread_pool",
    "register",
]


def make(task_id: str, env_type: str, **kwargs: Any) -> Any:
    """``envpool.make`` with ``original_api=True``; env_type is required, as in the original."""
    kwargs.setdefault("original_api", True)
    return api.make(task_id, env_type=env_type, **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> Any:
    return make(task_id, "gym", **kwargs)


def make_gymnasium(task_id: str, **kwargs: Any) -> Any:
    return make(task_id, "gymnasium", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> Any:
    return make(task_id, "dm", **kwargs)


def make_spec(task_id: str, **kwargs: Any) -> OriginalSpec:
    """``envpool.make_spec`` shaped as the original's spec (``observation_spec()`` a method)."""
    options = with_original_defaults(get_task(task_id).load(kwargs), kwargs)
    return OriginalSpec(api.make_spec(task_id, **options))
