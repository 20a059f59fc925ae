"""envpool.make and friends: from a task id and options to a running pool."""

from __future__ import annotations

import difflib
import os
from typing import Any, Literal, cast, overload

import numpy as np
from gymnasium.vector import AutoresetMode

from envpool import numa
from envpool import spaces as envpool_spaces
from envpool.dm import DmEnvPool
from envpool.gymnasium_env import GymnasiumEnvPool
from envpool.original_api import OriginalDmEnvPool, OriginalGymEnvPool, with_original_defaults
from envpool.registry import TaskSpec, get_task
from envpool.spec import POOL_KEYS, Config, EnvSpec
from envpool.thread_pool import ThreadPool, get_default_thread_pool

ENV_TYPES = ("gymnasium", "gym", "dm")
ORIGINAL_API_VARIABLE = "ENVPOOL_ORIGINAL_API"
"""Set to "1": original_api=True is every pool's default."""
_AUTORESET_MODES = {
    "next_step": AutoresetMode.NEXT_STEP,
    "same_step": AutoresetMode.SAME_STEP,
    "disabled": AutoresetMode.DISABLED,
}


@overload
def _check_int(name: str, value: Any, minimum: int, allow_none: Literal[False] = False) -> int: ...
@overload
def _check_int(name: str, value: Any, minimum: int, allow_none: bool) -> int | None: ...
def _check_int(name: str, value: Any, minimum: int, allow_none: bool = False) -> int | None:
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


def _mode_name(mode: AutoresetMode) -> str:
    return {v: k for k, v in _AUTORESET_MODES.items()}[mode]


def _resolve_options(env_cls: Any, task_options: dict[str, Any], user: dict[str, Any]) -> dict:
    defaults = env_cls.default_config()
    unknown = [k for k in user if k not in defaults]
    if unknown:
        name = unknown[0]
        close = difflib.get_close_matches(name, defaults, n=3, cutoff=0.6)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        valid = ", ".join(sorted(defaults)) or "none"
        raise TypeError(f"unknown option {name!r}.{hint} Options of this task: {valid}.")
    return {**task_options, **user}


def _first_env_value(value: Any, default: Any) -> Any:
    """Env 0's value of an option: a list or tuple gives one value per env, except
    that a tuple-valued option (a range) is per-env only as a sequence of sequences."""
    if not isinstance(value, (list, tuple)):
        return value
    if isinstance(default, tuple) and not (value and isinstance(value[0], (list, tuple))):
        return value
    return value[0]


def _pool_config(
    task: TaskSpec,
    num_envs: Any = 1,
    batch_size: Any = None,
    num_threads: Any = None,
    seed: Any = 0,
    max_episode_steps: Any = None,
    thread_affinity_offset: Any = -1,
    numa_node: Any = None,
    max_num_players: Any = 1,
    gym_reset_return_info: Any = True,
    thread_pool: Any = None,
) -> Config:
    """The pool's arguments, checked and with their defaults filled in.

    thread_pool is make()'s argument, already resolved (a ThreadPool or None).
    """
    num_envs = _check_int("num_envs", num_envs, 1)
    batch_size = _check_int("batch_size", batch_size, 1, allow_none=True) or num_envs
    if batch_size > num_envs:
        raise ValueError(f"batch_size must be <= num_envs={num_envs}, got {batch_size}")
    threads = _check_int("num_threads", num_threads, 0, allow_none=True)
    node = _check_int("numa_node", numa_node, 0, allow_none=True)
    if thread_pool is not None:
        if threads:
            raise ValueError(
                f"num_threads={threads} with a thread_pool: the pool runs on the thread "
                f"pool's {thread_pool.num_threads} threads; leave num_threads out"
            )
        # the thread pool's threads, and the caller's in sync mode (as the C++ pool counts)
        threads = thread_pool.num_threads + (1 if batch_size == num_envs else 0)
    elif threads is None or threads == 0:
        cpus = numa.node_cpus(node) if node is not None else numa.allowed_cpus()
        threads = min(num_envs, len(cpus) or 1)
    elif node is not None:
        numa.node_cpus(node)  # a clear error for a node that is not there
    if seed is None:
        seed = int(cast(int, np.random.SeedSequence().entropy) % (1 << 63))
    seed = _check_int("seed", seed, 0)
    max_steps = _check_int("max_episode_steps", max_episode_steps, 1, allow_none=True)
    if max_steps is None:
        max_steps = task.max_episode_steps
    offset = _check_int("thread_affinity_offset", thread_affinity_offset, -1)
    if thread_pool is not None and offset >= 0:
        raise ValueError(
            "thread_affinity_offset with a thread_pool: the thread pool's threads are pinned "
            "where it was made; pass thread_affinity_offset to envpool.make_thread_pool()"
        )
    if max_num_players != 1:
        raise ValueError(
            f"max_num_players must be 1, got {max_num_players!r}: envpool's tasks are single-player"
        )
    if not isinstance(gym_reset_return_info, (bool, np.bool_)):
        raise TypeError(f"gym_reset_return_info must be a bool, got {gym_reset_return_info!r}")
    return Config(
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=threads,
        seed=seed,
        max_episode_steps=max_steps,
        thread_affinity_offset=offset,
        numa_node=node,
        max_num_players=1,
        gym_reset_return_info=bool(gym_reset_return_info),
    )


def _split_pool_args(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    pool = {k: kwargs.pop(k) for k in POOL_KEYS if k in kwargs}
    return pool, kwargs


def _build_spec(task: TaskSpec, env_cls: Any, pool: Config, resolved: dict[str, Any]) -> EnvSpec:
    """The spec of ``task`` with its options already resolved (``_resolve_options``)."""
    defaults = env_cls.default_config()
    scalar = {k: _first_env_value(v, defaults[k]) for k, v in resolved.items()}
    desc = env_cls.spec(scalar)
    fps = task.render_fps({**defaults, **scalar})
    return EnvSpec(
        task_id=task.task_id,
        config=Config({**pool, **defaults, **resolved}),
        observation_space=envpool_spaces.to_space(desc["obs"]),
        action_space=envpool_spaces.to_space(desc["action"]),
        observation_spec=envpool_spaces.to_dm_spec(desc["obs"]),
        action_spec=envpool_spaces.to_dm_spec(desc["action"]),
        info={d["name"]: (np.dtype(d["dtype"]), tuple(d["shape"])) for d in desc["info"]},
        render_fps=fps,
    )


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """The config, single-env spaces and dm specs of ``task_id``, without starting a pool.

    Takes make()'s pool arguments (num_envs, batch_size, num_threads, seed,
    max_episode_steps, ...) and the task's options; ``spec.config`` holds them all,
    as a dict that also reads as attributes (``spec.config.num_envs``).
    """
    task = get_task(task_id)
    pool_args, options = _split_pool_args(dict(kwargs))
    options = task.convert_options(options)
    env_cls = task.load(options)
    resolved = _resolve_options(env_cls, task.default_options(), options)
    return _build_spec(task, env_cls, _pool_config(task, **pool_args), resolved)


def make(
    task_id: str,
    env_type: str = "gymnasium",
    num_envs: int = 1,
    batch_size: int | None = None,
    num_threads: int | None = None,
    seed: int | None = 0,
    max_episode_steps: int | None = None,
    autoreset_mode: str | AutoresetMode = "next_step",
    thread_affinity_offset: int = -1,
    render_mode: str | None = None,
    original_api: bool | None = None,
    thread_pool: ThreadPool | bool | None = None,
    numa_node: int | None = None,
    **task_options: Any,
) -> Any:
    """Creates a pool of ``num_envs`` copies of ``task_id``.

    env_type: "gymnasium" or "gym" for a gymnasium.vector.VectorEnv,
    "dm" for a dm_env.Environment. batch_size < num_envs gives async mode
    (send/recv). num_threads defaults to min(num_envs, CPU cores). Env i is
    seeded with seed + i (seed=None draws a random seed). max_episode_steps
    defaults to the task's gymnasium TimeLimit. render_mode="rgb_array" lets
    render() return every env's frame (a tuple, as gymnasium's VectorEnv does);
    render_mode="ansi" (toy-text tasks) returns every env's text.
    original_api=True behaves as the original EnvPool where its interface and
    gymnasium's conflict (observation_space and action_space describe one env,
    float32 rewards, ...; see envpool.original_api and docs/migration.md); it is
    the default for env_type="gym", the original's name for its gym flavour, and
    for every pool when the environment variable ENVPOOL_ORIGINAL_API=1 is set (for
    code written for the original that cannot be edited).
    task_options are the env's own options (see make_spec(task_id).config); a list
    or tuple gives one value per env, except for a tuple-valued option such as a
    (low, high) range, where a list of tuples does. The original EnvPool's
    max_num_players=1 and gym_reset_return_info are accepted.

    thread_pool: a ThreadPool from envpool.make_thread_pool() runs the envs on threads
    shared with the other pools given it (then leave num_threads out); False gives the
    pool threads of its own even where a process-wide default is set
    (envpool.set_default_thread_pool); None uses that default if set and neither
    num_threads nor numa_node is given. numa_node=k keeps the pool's threads, its envs'
    memory and its batch memory on NUMA node k (envpool.numa.nodes(); docs/scaling.md).
    """
    if env_type not in ENV_TYPES:
        close = difflib.get_close_matches(str(env_type), ENV_TYPES, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown env_type {env_type!r}: use one of {ENV_TYPES}.{hint}")
    task = get_task(task_id)
    extra_pool_args, task_options = _split_pool_args(task_options)
    task_options = task.convert_options(task_options)
    shared = _resolve_thread_pool(thread_pool, num_threads, numa_node)
    pool_args = _pool_config(
        task,
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=num_threads,
        seed=seed,
        max_episode_steps=max_episode_steps,
        thread_affinity_offset=thread_affinity_offset,
        numa_node=numa_node,
        thread_pool=shared,
        **extra_pool_args,
    )
    mode = parse_autoreset_mode(autoreset_mode)
    if env_type == "dm" and mode is not AutoresetMode.NEXT_STEP:
        raise ValueError(
            "env_type='dm' always resets on the step after a LAST time step; "
            "leave autoreset_mode at 'next_step'"
        )
    if original_api is None:
        original_api = env_type == "gym" or os.environ.get(ORIGINAL_API_VARIABLE) == "1"
    if not isinstance(original_api, (bool, np.bool_)):
        raise TypeError(f"original_api must be a bool or None, got {original_api!r}")
    env_cls = task.load(task_options)
    if original_api:
        task_options = with_original_defaults(env_cls, task_options)
    if render_mode not in (None, "rgb_array", "ansi"):
        raise ValueError(f"render_mode must be None, 'rgb_array' or 'ansi', got {render_mode!r}")
    if render_mode == "rgb_array" and not env_cls.can_render:
        raise ValueError(f"{task_id} cannot render frames; leave render_mode=None")
    if render_mode == "ansi" and not env_cls.can_render_ansi:
        hint = " (it renders frames: use render_mode='rgb_array')" if env_cls.can_render else ""
        raise ValueError(f"{task_id} has no text rendering{hint}; leave render_mode=None")
    options = _resolve_options(env_cls, task.default_options(), task_options)
    if "render_particles" in env_cls.default_config() and "render_particles" not in options:
        # decorations simulated only for frames (LunarLander's exhaust particles)
        options["render_particles"] = render_mode == "rgb_array"
    spec = _build_spec(task, env_cls, pool_args, options)
    pool = env_cls(
        options,
        pool_args.num_envs,
        pool_args.batch_size,
        pool_args.num_threads,
        pool_args.seed,
        pool_args.max_episode_steps or 0,
        _mode_name(mode),
        pool_args.thread_affinity_offset,
        shared._handle if shared is not None else None,
        list(numa.node_cpus(pool_args.numa_node)) if pool_args.numa_node is not None else [],
        _memory_node(pool_args.numa_node, shared),
    )
    if original_api:
        if env_type == "dm":
            return OriginalDmEnvPool(pool, spec)
        return OriginalGymEnvPool(pool, spec, mode, render_mode, env_type=env_type)
    if env_type == "dm":
        return DmEnvPool(pool, spec)
    return GymnasiumEnvPool(pool, spec, mode, render_mode)


def _resolve_thread_pool(thread_pool: Any, num_threads: Any, numa_node: Any) -> ThreadPool | None:
    if thread_pool is None:
        if num_threads is None and numa_node is None:
            return get_default_thread_pool()
        return None
    if thread_pool is False:
        return None
    if not isinstance(thread_pool, ThreadPool):
        raise TypeError(
            "thread_pool must be a ThreadPool from envpool.make_thread_pool(), False (threads "
            f"of the pool's own) or None (the process-wide default), got {thread_pool!r}"
        )
    return thread_pool


def _memory_node(numa_node: int | None, shared: ThreadPool | None) -> int:
    """The NUMA node of the batch memory: the pool's, else its thread pool's, else none."""
    if numa_node is not None:
        return numa_node
    if shared is not None and shared.numa_node is not None:
        return shared.numa_node
    return -1


def make_gymnasium(task_id: str, **kwargs: Any) -> Any:
    """``make(task_id, env_type="gymnasium", ...)``."""
    return make(task_id, env_type="gymnasium", **kwargs)


def make_gym(task_id: str, **kwargs: Any) -> Any:
    """``make(task_id, env_type="gym", ...)``: the gymnasium API (5-tuples) with the
    original EnvPool's conventions (original_api=True) unless told otherwise."""
    return make(task_id, env_type="gym", **kwargs)


def make_dm(task_id: str, **kwargs: Any) -> Any:
    """``make(task_id, env_type="dm", ...)``: a batched dm_env.Environment."""
    return make(task_id, env_type="dm", **kwargs)
