"""envpool.make and friends: from a task id and options to a running pool."""

from __future__ import annotations

import difflib
import functools
import inspect
import os
from collections import OrderedDict
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from envpool import pool_options
from envpool import spaces as envpool_spaces
from envpool.dm import DmEnvPool
from envpool.gymnasium_env import GymnasiumEnvPool
from envpool.multi_agent import MultiAgentEnvPool
from envpool.original_api import OriginalDmEnvPool, OriginalGymEnvPool, with_original_defaults
from envpool.registry import TaskSpec, get_task
from envpool.spec import Config, EnvSpec

ENV_TYPES = ("gymnasium", "gym", "dm")
ORIGINAL_API_VARIABLE = "ENVPOOL_ORIGINAL_API"
"""Set to "1": original_api=True is every pool's default."""


def _resolve_options(
    task: TaskSpec, env_cls: Any, task_options: dict[str, Any], user: dict[str, Any]
) -> dict:
    defaults = env_cls.default_config()
    unknown = [k for k in user if k not in defaults]
    if unknown:
        name = unknown[0]
        known = [*defaults, *task.extra_options]
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        valid = ", ".join(sorted(known)) or "none"
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


def _build_spec(task: TaskSpec, env_cls: Any, pool: Config, resolved: dict[str, Any]) -> EnvSpec:
    """The spec of ``task`` with its options already resolved (``_resolve_options``)."""
    defaults = env_cls.default_config()
    scalar = {k: _first_env_value(v, defaults[k]) for k, v in resolved.items()}
    desc = env_cls.spec(scalar)
    fps = task.render_fps({**defaults, **scalar})
    agent_actions = {
        agent["name"]: envpool_spaces.to_space(agent["action"]) for agent in desc["agents"]
    }
    # a multi-agent task's actions are one space per agent (the env's packed float32 row
    # is the engine's business, envpool/multi_agent.py packs it)
    action_space = (
        spaces.Dict(OrderedDict(agent_actions))
        if agent_actions
        else envpool_spaces.to_space(desc["action"])
    )
    return EnvSpec(
        task_id=task.task_id,
        config=Config({**pool, **defaults, **resolved}),
        observation_space=envpool_spaces.to_space(desc["obs"]),
        action_space=action_space,
        observation_spec=envpool_spaces.to_dm_spec(desc["obs"]),
        action_spec=envpool_spaces.to_dm_spec(desc["action"]),
        info={d["name"]: (np.dtype(d["dtype"]), tuple(d["shape"])) for d in desc["info"]},
        render_fps=fps,
        agent_observation_spaces={
            agent["name"]: envpool_spaces.to_space(agent["obs"]) for agent in desc["agents"]
        },
        agent_action_spaces=agent_actions,
    )


def make_spec(task_id: str, **kwargs: Any) -> EnvSpec:
    """The config, single-env spaces and dm specs of ``task_id``, without starting a pool.

    Takes make()'s pool arguments (num_envs, batch_size, num_threads, seed,
    max_episode_steps, ...) and the task's options; ``spec.config`` holds them all,
    as a dict that also reads as attributes (``spec.config.num_envs``).
    """
    task = get_task(task_id)
    pool_args, options = pool_options.split(kwargs)
    options = task.convert_options(options)
    values = pool_options.check(pool_args)
    env_cls = task.load(options)
    resolved = _resolve_options(task, env_cls, task.default_options(), options)
    native = pool_options.native(values, task.max_episode_steps)
    pool_config = pool_options.config(values, native, pool_options.resolve(native))
    return _build_spec(task, env_cls, pool_config, resolved)


def make(
    task_id: str,
    env_type: str = "gymnasium",
    *args: Any,
    original_api: bool | None = None,
    **kwargs: Any,
) -> Any:
    """Creates a pool of ``num_envs`` copies of ``task_id``.

        env_type: "gymnasium" or "gym" for a gymnasium.vector.VectorEnv,
        "dm" for a dm_env.Environment.
        original_api=True behaves as the original EnvPool where its interface and
        gymnasium's conflict (observation_space and action_space describe one env,
        float32 rewards, ...; see envpool.original_api and docs/migration.md); it is
        the default for env_type="gym", the original's name for its gym flavour, and
        for every pool when the environment variable ENVPOOL_ORIGINAL_API=1 is set (for
        code written for the original that cannot be edited).

        The pool's options (envpool/pool_options.py; num_envs to render_mode may also be
        given by position, in this order, after env_type):
    {pool_options}

        Every other keyword is the env's own option (see make_spec(task_id).config); a
        list or tuple gives one value per env, except for a tuple-valued option such as a
        (low, high) range, where a list of tuples does.
    """
    kwargs = pool_options.with_positional(args, kwargs)
    if env_type not in ENV_TYPES:
        close = difflib.get_close_matches(str(env_type), ENV_TYPES, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(f"unknown env_type {env_type!r}: use one of {ENV_TYPES}.{hint}")
    task = get_task(task_id)
    pool_args, task_options = pool_options.split(kwargs)
    task_options = task.convert_options(task_options)
    values = pool_options.check(pool_args)
    mode = values.autoreset_mode
    render_mode = values.render_mode
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
    if render_mode is not None and render_mode not in ("rgb_array", "ansi"):
        capable = {"rgb_array": env_cls.can_render, "ansi": env_cls.can_render_ansi}
        modes = [mode for mode, able in capable.items() if able]
        offered = "".join(f" or {m!r}" for m in modes)
        window = (
            " (envpool opens no window: show render_mode='rgb_array' frames)"
            if render_mode == "human" and modes
            else ""
        )
        raise ValueError(
            f"{task_id}: render_mode must be None{offered}, got {render_mode!r}{window}"
        )
    if render_mode == "rgb_array" and not env_cls.can_render:
        raise ValueError(f"{task_id} cannot render frames; leave render_mode=None")
    if render_mode == "ansi" and not env_cls.can_render_ansi:
        hint = " (it renders frames: use render_mode='rgb_array')" if env_cls.can_render else ""
        raise ValueError(f"{task_id} has no text rendering{hint}; leave render_mode=None")
    defaults = {**task.default_options(), **task.render_defaults(render_mode)}
    options = _resolve_options(task, env_cls, defaults, task_options)
    native = pool_options.native(values, task.max_episode_steps)
    pool = env_cls(options, native)
    try:
        pool_config = pool_options.config(values, native, pool.resolved_options)
        spec = _build_spec(task, env_cls, pool_config, options)
    except BaseException:
        pool.close()
        raise
    if spec.is_multi_agent:
        if env_type == "dm":
            pool.close()
            raise ValueError(
                f"{task_id} is a multi-agent task, which has no dm_env front end: leave "
                "env_type at 'gymnasium' for the multi-agent pool (envpool.multi_agent)"
            )
        return MultiAgentEnvPool(pool, spec, mode, render_mode, task.frame_drawer)
    if original_api:
        if env_type == "dm":
            return OriginalDmEnvPool(pool, spec)
        return OriginalGymEnvPool(
            pool, spec, mode, render_mode, env_type=env_type, frame_drawer=task.frame_drawer
        )
    if env_type == "dm":
        return DmEnvPool(pool, spec)
    return GymnasiumEnvPool(pool, spec, mode, render_mode, frame_drawer=task.frame_drawer)


make.__doc__ = (make.__doc__ or "").replace("{pool_options}", pool_options.docs())
_MAKE_PARAMETERS = inspect.signature(make).parameters
_MAKE_SIGNATURE = inspect.signature(make).replace(
    parameters=[
        _MAKE_PARAMETERS["task_id"],
        _MAKE_PARAMETERS["env_type"],
        *pool_options.signature_parameters(positional=True),
        _MAKE_PARAMETERS["original_api"],
        *pool_options.signature_parameters(positional=False),
        inspect.Parameter("task_options", inspect.Parameter.VAR_KEYWORD),
    ]
)
make.__signature__ = _MAKE_SIGNATURE  # type: ignore[attr-defined]  # read by inspect.signature


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


def make_pettingzoo(task_id: str, **kwargs: Any) -> Any:
    """One env of the multi-agent task ``task_id`` as a ``pettingzoo.ParallelEnv``
    (envpool/pettingzoo_env.py). Takes make()'s seed (the first reset's, unless reset is
    given one) and the task's options; needs pettingzoo."""
    for name in ("num_envs", "batch_size", "autoreset_mode"):
        if name in kwargs:
            raise TypeError(f"make_pettingzoo() runs one env and takes no {name}")
    from envpool.pettingzoo_env import PettingZooEnv  # imports pettingzoo

    pool = make(task_id, num_envs=1, autoreset_mode="disabled", **kwargs)
    if not isinstance(pool, MultiAgentEnvPool):
        pool.close()
        raise ValueError(f"{task_id} is not a multi-agent task; use envpool.make")
    return PettingZooEnv(pool, remake=functools.partial(make_pettingzoo, task_id, **kwargs))
