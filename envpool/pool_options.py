"""The pool's options, each declared once: name, default, annotation, check and doc.

``envpool.make`` and ``envpool.make_spec`` take these beside the task's own
options; ``check`` validates them all in one pass (keeping each error's type and
wording), ``native`` hands them to the C++ pool (``cpp/envpool/core/pool_options.h``
resolves the defaults that depend on the machine or on other options, such as
batch_size and num_threads, and holds the seed rule), and ``config`` builds the
pool's part of ``EnvSpec.config`` from the values the C++ side resolved. Adding a
pool option means a row here and its field in ``PoolOptions`` (C++; its reader
``PoolOptionsFrom`` sits beside the binding), plus its test and doc line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from gymnasium.vector import AutoresetMode

from envpool import bindings, numa
from envpool.config import Config
from envpool.thread_pool import ThreadPool, get_default_thread_pool

_AUTORESET_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}


def check_int(name: str, value: Any, minimum: int, allow_none: bool = False) -> int | None:
    """``value`` as an int >= minimum (or None where allowed); TypeError/ValueError naming it."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        expected = "an int or None" if allow_none else "an int"
        raise TypeError(f"{name} must be {expected}, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def parse_autoreset_mode(mode: str | AutoresetMode) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        return mode
    if isinstance(mode, str):
        key = mode.lower().replace("-", "_")
        key = {"nextstep": "next_step", "samestep": "same_step"}.get(key, key)
        if key in _AUTORESET_MODES:
            return _AUTORESET_MODES[key]
    raise ValueError(
        f"autoreset_mode must be 'next_step', 'same_step', 'disabled' or a "
        f"gymnasium.vector.AutoresetMode, got {mode!r}"
    )


def mode_name(mode: AutoresetMode) -> str:
    return {v: k for k, v in _AUTORESET_MODES.items()}[mode]


def _ints(minimum: int, allow_none: bool = False) -> Callable[[str, Any], Any]:
    return lambda name, value: check_int(name, value, minimum, allow_none)


def _seed(name: str, value: Any) -> int:
    if value is None:  # a fresh seed from the OS, as numpy draws one
        value = int(cast(int, np.random.SeedSequence().entropy) % (1 << 63))
    return cast(int, check_int(name, value, 0))


def _nanoseconds(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of nanoseconds, got {type(value).__name__}")
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{name} must be finite and >= 0, got {value}")
    return float(value)


def _render_mode(name: str, value: Any) -> str | None:
    # Which modes a task has is checked where its class is known (api.make).
    if value is not None and not isinstance(value, str):
        raise ValueError(f"render_mode must be None or a mode's name, got {value!r}")
    return value


def _max_num_players(name: str, value: Any) -> int:
    if value != 1:
        raise ValueError(
            f"max_num_players must be 1, got {value!r}: envpool's tasks are single-player"
        )
    return 1


def _bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def _thread_pool(name: str, value: Any) -> ThreadPool | bool | None:
    if value is None or value is False or isinstance(value, ThreadPool):
        return cast("ThreadPool | bool | None", value)
    raise TypeError(
        "thread_pool must be a ThreadPool from envpool.make_thread_pool(), False (threads "
        f"of the pool's own) or None (the process-wide default), got {value!r}"
    )


@dataclass(frozen=True)
class PoolOption:
    name: str
    default: Any
    annotation: str
    check: Callable[[str, Any], Any]
    doc: str
    in_config: bool = True
    """Kept in ``EnvSpec.config`` (the original EnvPool's config keys, and ours)."""
    positional: bool = False
    """Also taken by position, after make()'s task_id and env_type (make()'s order
    before the schema; the rows that are come first, in that order)."""


OPTIONS: tuple[PoolOption, ...] = (
    PoolOption("num_envs", 1, "int", _ints(1), "how many envs the pool holds", positional=True),
    PoolOption(
        "batch_size",
        None,
        "int | None",
        _ints(1, allow_none=True),
        "envs per recv(); below num_envs gives async mode (send/recv); None: num_envs",
        positional=True,
    ),
    PoolOption(
        "num_threads",
        None,
        "int | None",
        _ints(0, allow_none=True),
        "worker threads; None or 0: one per CPU this process may use (of numa_node's), "
        "at most num_envs",
        positional=True,
    ),
    PoolOption(
        "seed",
        0,
        "int | None",
        _seed,
        "env i gets seed + i; None draws a random seed",
        positional=True,
    ),
    PoolOption(
        "max_episode_steps",
        None,
        "int | None",
        _ints(1, allow_none=True),
        "the time limit; None: the task's (gymnasium's TimeLimit)",
        positional=True,
    ),
    PoolOption(
        "autoreset_mode",
        "next_step",
        "str | AutoresetMode",
        lambda name, value: parse_autoreset_mode(value),
        "'next_step', 'same_step' or 'disabled' (gymnasium's AutoresetMode)",
        in_config=False,
        positional=True,
    ),
    PoolOption(
        "thread_affinity_offset",
        -1,
        "int",
        _ints(-1),
        "pin worker thread i to the (offset + i)-th usable CPU; -1: no pinning",
        positional=True,
    ),
    PoolOption(
        "render_mode",
        None,
        "str | None",
        _render_mode,
        "'rgb_array': render() returns every env's frame; 'ansi': its text (toy text)",
        in_config=False,
        positional=True,
    ),
    PoolOption(
        "thread_pool",
        None,
        "ThreadPool | bool | None",
        _thread_pool,
        "a ThreadPool from make_thread_pool() to share threads with other pools; False: "
        "threads of the pool's own; None: the process-wide default if set and neither "
        "num_threads nor numa_node is given",
        in_config=False,
    ),
    PoolOption(
        "numa_node",
        None,
        "int | None",
        _ints(0, allow_none=True),
        "keep the pool's threads, envs and batch memory on this NUMA node",
    ),
    PoolOption(
        "solo_round_ns",
        5000.0,
        "float",
        _nanoseconds,
        "a sync round expected to take less than this runs on the calling thread alone "
        "(handing work to another core costs about a microsecond); 0: always share rounds "
        "with the worker threads",
    ),
    PoolOption(
        "max_num_players",
        1,
        "int",
        _max_num_players,
        "the original EnvPool's; 1 (envpool's tasks are single-player)",
    ),
    PoolOption(
        "gym_reset_return_info",
        True,
        "bool",
        _bool,
        "the original EnvPool's; accepted, reset() always returns (obs, info)",
    ),
)
NAMES = tuple(option.name for option in OPTIONS)
POSITIONAL = tuple(option.name for option in OPTIONS if option.positional)
CONFIG_KEYS = tuple(option.name for option in OPTIONS if option.in_config)
"""The keys of ``EnvSpec.config`` that describe the pool rather than the task."""


def split(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the pool's options, the task's options) of make()'s keyword arguments."""
    pool = {k: v for k, v in kwargs.items() if k in NAMES}
    task = {k: v for k, v in kwargs.items() if k not in NAMES}
    return pool, task


def with_positional(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """make()'s keyword arguments with its positional pool options (``POSITIONAL``)
    named; TypeError, as Python gives, for too many or a value given twice."""
    if len(args) > len(POSITIONAL):
        raise TypeError(
            f"make() takes at most {2 + len(POSITIONAL)} positional arguments (task_id, "
            f"env_type, {', '.join(POSITIONAL)}) but {2 + len(args)} were given; pass the "
            "others by keyword"
        )
    named = dict(zip(POSITIONAL, args, strict=False))
    for name in named:
        if name in kwargs:
            raise TypeError(f"make() got multiple values for argument {name!r}")
    return {**named, **kwargs}


def check(user: dict[str, Any]) -> Config:
    """Every pool option checked, with its default where not given; the options that
    depend on each other (batch_size, thread_pool, numa_node) checked together."""
    values = Config()
    for option in OPTIONS:
        values[option.name] = option.check(option.name, user.get(option.name, option.default))
    num_envs, batch_size = values.num_envs, values.batch_size
    if batch_size is not None and batch_size > num_envs:
        raise ValueError(f"batch_size must be <= num_envs={num_envs}, got {batch_size}")
    shared = values.thread_pool
    if shared is None and values.num_threads is None and values.numa_node is None:
        shared = get_default_thread_pool()
    values["thread_pool"] = shared if isinstance(shared, ThreadPool) else None
    if values.thread_pool is not None:
        if values.num_threads:
            raise ValueError(
                f"num_threads={values.num_threads} with a thread_pool: the pool runs on the "
                f"thread pool's {values.thread_pool.num_threads} threads; leave num_threads out"
            )
        if values.thread_affinity_offset >= 0:
            raise ValueError(
                "thread_affinity_offset with a thread_pool: the thread pool's threads are "
                "pinned where it was made; pass thread_affinity_offset to "
                "envpool.make_thread_pool()"
            )
    values["cpus"] = list(numa.node_cpus(values.numa_node)) if values.numa_node is not None else []
    return values


def native(values: Config, task_max_episode_steps: int | None) -> dict[str, Any]:
    """What the C++ pool takes (``PoolOptionsFrom``): 0 where it resolves the default."""
    shared = values.thread_pool
    memory_node = values.numa_node
    if memory_node is None and shared is not None and shared.numa_node is not None:
        memory_node = shared.numa_node
    max_steps = values.max_episode_steps
    if max_steps is None:
        max_steps = task_max_episode_steps
    return {
        "num_envs": values.num_envs,
        "batch_size": values.batch_size or 0,
        "num_threads": values.num_threads or 0,
        "seed": values.seed,
        "max_episode_steps": max_steps or 0,
        "autoreset_mode": mode_name(values.autoreset_mode),
        "thread_affinity_offset": values.thread_affinity_offset,
        "worker_group": shared._handle if shared is not None else None,
        "cpus": values.cpus,
        "memory_node": -1 if memory_node is None else memory_node,
        "solo_round_ns": values.solo_round_ns,
    }


def resolve(native_values: dict[str, Any]) -> dict[str, Any]:
    """The values a pool made with ``native_values`` takes (for make_spec, which makes none)."""
    return cast(dict[str, Any], bindings.extension("_core")._resolve_pool_options(native_values))


def config(values: Config, native_values: dict[str, Any], resolved: dict[str, Any]) -> Config:
    """The pool's part of ``EnvSpec.config``: the options as given, the resolved ones
    (batch_size, num_threads, seed) as the pool took them."""
    out = Config({name: values[name] for name in CONFIG_KEYS})
    out.update(resolved)
    max_steps = native_values["max_episode_steps"]
    out["max_episode_steps"] = max_steps or None
    return out


def signature_parameters(positional: bool) -> list[inspect.Parameter]:
    """make()'s parameters for the pool options taken (or not) by position, for its
    ``__signature__``."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if positional else inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter(option.name, kind, default=option.default, annotation=option.annotation)
        for option in OPTIONS
        if option.positional == positional
    ]


def docs() -> str:
    """One line per pool option, for make()'s docstring."""
    return "\n".join(f"    {option.name}: {option.doc}." for option in OPTIONS)
