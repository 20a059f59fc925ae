"""Stable-Baselines3: an envpool pool seen as an SB3 VecEnv.

``VecEnv(pool)`` wraps a sync gymnasium pool from ``envpool.make``;
``make_vec_env(task_id, num_envs, ...)`` makes the pool and wraps it. SB3 wants
an ended env reset within the same step, its last observation in
``infos[i]["terminal_observation"]``. A pool made with ``autoreset_mode="same_step"``
already works that way, so stepping costs one pool call (``make_vec_env`` makes
pools in that mode). With "next_step" or "disabled" pools, the envs that ended
are reset by a second pool call in the steps where any env ends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv as SB3VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

import envpool
from envpool.gymnasium_env import GymnasiumEnvPool

# Every step's info holds these besides the task's own info arrays.
_COMMON_INFO_KEYS = ("env_id", "elapsed_step")


# The observation spaces SB3's policies take (alone or as the values of a Dict).
_SB3_SPACES = (spaces.Box, spaces.Discrete, spaces.MultiDiscrete, spaces.MultiBinary)


def _check_pool(pool: Any) -> None:
    if not isinstance(pool, GymnasiumEnvPool):
        raise ValueError(
            f"VecEnv needs a gymnasium pool from envpool.make(task_id, ...), got "
            f"{type(pool).__name__}; make it with env_type='gymnasium' (the default)"
        )
    if pool.is_async:
        raise ValueError(
            f"VecEnv needs a sync pool; this one has batch_size={pool.batch_size} < "
            f"num_envs={pool.num_envs}: make it without batch_size"
        )
    if pool.closed:
        raise ValueError("the pool is closed; make a new one with envpool.make")
    space = pool.single_observation_space
    if isinstance(space, spaces.Tuple):
        raise ValueError(
            f"SB3 takes no Tuple observation spaces, and {pool.spec.id}'s is one; make the "
            "pool with flat_observation=True (one array of the same values)"
        )
    parts = space.items() if isinstance(space, spaces.Dict) else [("", space)]
    for key, part in parts:
        if not isinstance(part, _SB3_SPACES):
            where = f"key {key!r} of " if key else ""
            fix = "an observation space of Box, Discrete, MultiDiscrete or MultiBinary"
            if "obs_mode" in pool.spec.config:
                fix = (
                    "obs_mode='image' (the agent's 7x7x3 view, minigrid's ImgObsWrapper) or, "
                    "where the level's missions fit in 96 characters, obs_mode='flat' "
                    "(minigrid's FlatObsWrapper: image and mission in one vector)"
                )
            raise ValueError(
                f"SB3 takes no {type(part).__name__} observation space, and {where}"
                f"{pool.spec.id}'s observation is one; make the pool with {fix}"
            )


class VecEnv(SB3VecEnv):
    """A sync envpool gymnasium pool behind SB3's VecEnv API.

    info_keys: names of the pool's info arrays (e.g. "lives" on Atari) to copy
    into each env's info dict; by default the dicts hold only what SB3 reads:
    "TimeLimit.truncated", and "terminal_observation" for envs that ended.
    channels_last: image observations (Atari's (channels, height, width)) become
    (height, width, channels), the layout SB3's image wrappers start from, so the
    usual VecFrameStack + VecTransposeImage pipeline composes (one copy per step).
    Closing the VecEnv closes the pool.
    """

    def __init__(
        self, pool: Any, info_keys: Sequence[str] = (), channels_last: bool = False
    ) -> None:
        _check_pool(pool)
        single_obs_space = pool.single_observation_space
        if channels_last:
            single_obs_space = _channels_last_space(single_obs_space)
        self._channels_last = channels_last
        known = (*_COMMON_INFO_KEYS, *pool.spec.info)
        unknown = [k for k in info_keys if k not in known]
        if unknown:
            raise ValueError(f"unknown info_keys {unknown}; this task's info keys: {known}")
        self.pool = pool
        self.info_keys = tuple(info_keys)
        self._same_step = pool.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        self._actions: np.ndarray | None = None
        # envpool's EnvSpec; like gymnasium's it has .id (VecMonitor reads it) and
        # .max_episode_steps.
        self.spec = pool.spec
        self._env_attrs: dict[str, Callable[[], Any]] = {
            "render_mode": lambda: self.pool.render_mode,
            "spec": lambda: self.spec,
            "metadata": lambda: {
                k: v for k, v in self.pool.metadata.items() if k != "autoreset_mode"
            },
            "observation_space": lambda: self.observation_space,
            "action_space": lambda: self.pool.single_action_space,
        }
        super().__init__(pool.num_envs, single_obs_space, pool.single_action_space)
        if "render_fps" in pool.metadata:  # VecVideoRecorder reads it
            self.metadata["render_fps"] = pool.metadata["render_fps"]

    def reset(self) -> np.ndarray:
        """Resets every env with the seeds from ``seed()`` (used once) and returns the obs."""
        if any(self._options):
            raise ValueError(
                "envpool envs take no reset options: pass task options to envpool.make(...) "
                "instead, and clear these with set_options(None)"
            )
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        self._actions = None  # a step_async without its step_wait is dropped
        obs, info = self.pool.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        self.reset_infos = self._info_rows(info, range(self.num_envs))
        return self._layout(obs)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        if self._actions is None:
            raise RuntimeError("call step_async(actions) before step_wait()")
        actions, self._actions = self._actions, None
        obs, reward, terminated, truncated, info = self.pool.step(actions)
        # Python lists: `True in list` is much cheaper than numpy's any() on a few envs.
        term, trunc = terminated.tolist(), truncated.tolist()
        infos: list[dict[str, Any]]
        if True in trunc:
            infos = [
                {"TimeLimit.truncated": tr and not te} for te, tr in zip(term, trunc, strict=True)
            ]
        else:
            infos = [{"TimeLimit.truncated": False} for _ in term]
        if self.info_keys:
            for i, row in enumerate(self._info_rows(info, range(self.num_envs))):
                infos[i].update(row)
        dones = terminated | truncated
        if True in term or True in trunc:
            obs = self._end_episodes(obs, info, dones, infos)
        return self._layout(obs), reward.astype(np.float32), dones, infos

    def _layout(self, obs: np.ndarray) -> np.ndarray:
        """``obs`` (a batch or one env's) in this VecEnv's observation layout."""
        if not self._channels_last:
            return obs
        return np.ascontiguousarray(np.moveaxis(obs, -3, -1))

    def _end_episodes(
        self, obs: np.ndarray, info: dict[str, Any], dones: np.ndarray, infos: list[dict]
    ) -> np.ndarray:
        """Puts each ended env's last obs in its info and makes ``obs`` hold its first obs."""
        ended = np.flatnonzero(dones).tolist()
        if self._same_step:
            last_obs = info["final_obs"]
            final_rows = self._info_rows(info["final_info"], ended)
            for i, final_row in zip(ended, final_rows, strict=True):
                infos[i]["terminal_observation"] = self._layout(_obs_row(last_obs, i))
                infos[i].update(final_row)
                self.reset_infos[i] = self._info_row(info, i)
            return obs
        ids = np.asarray(ended, dtype=np.int32)
        obs = _writeable(obs)
        first_obs, reset_info = self.pool.reset(env_id=ids)
        for row, i in enumerate(ended):
            infos[i]["terminal_observation"] = self._layout(_obs_row(obs, i))
            self.reset_infos[i] = self._info_row(reset_info, row)
        if isinstance(obs, dict):  # a dict observation (goal-conditioned tasks): per key
            for key, value in obs.items():
                value[ids] = first_obs[key]
        else:
            obs[ids] = first_obs
        return obs

    def _info_rows(self, info: dict[str, Any], envs: Sequence[int]) -> list[dict[str, Any]]:
        if not self.info_keys:
            return [{} for _ in envs]
        return [self._info_row(info, i) for i in envs]

    def _info_row(self, info: dict[str, Any], i: int) -> dict[str, Any]:
        return {k: info[k][i] for k in self.info_keys if k in info}

    def close(self) -> None:
        self.pool.close()

    def get_images(self) -> Sequence[np.ndarray | None]:
        """Every env's current frame; the pool must be made with render_mode="rgb_array"."""
        if self.pool.render_mode != "rgb_array":
            raise ValueError("make the pool with render_mode='rgb_array' to render it")
        return list(self.pool.render())

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """One value per env of render_mode, spec, metadata, observation_space or action_space."""
        getter = self._env_attrs.get(attr_name)
        if getter is None:
            raise AttributeError(
                f"envpool envs are C++ objects: get_attr supports {sorted(self._env_attrs)}, "
                f"not {attr_name!r}; the pool itself is VecEnv.pool"
            )
        return [getter() for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(
            f"cannot set {attr_name!r}: envpool envs are C++ objects whose options are fixed "
            f"when the pool is made; pass them to envpool.make(...)"
        )

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        """ "render" (no arguments): the frames of the envs in ``indices``; a
        goal-conditioned task's "compute_reward", "compute_terminated" and
        "compute_truncated" (what SB3's HerReplayBuffer calls): their value, once per env
        of ``indices`` (the envs of a pool share them)."""
        if method_name in _GOAL_METHODS:
            method = getattr(self.pool, method_name)
            return [method(*method_args, **method_kwargs) for _ in self._get_indices(indices)]
        if method_name != "render" or method_args or method_kwargs:
            raise AttributeError(
                f"envpool envs are C++ objects: env_method supports 'render' with no "
                f"arguments and {', '.join(_GOAL_METHODS)}, not {method_name!r}"
            )
        if self.pool.render_mode != "rgb_array":
            raise ValueError("make the pool with render_mode='rgb_array' to render it")
        ids = np.asarray(list(self._get_indices(indices)), dtype=np.int32)
        return list(self.pool.render(ids))

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        """Always False: envpool envs run without gymnasium wrappers (use VecMonitor)."""
        return [False for _ in self._get_indices(indices)]

    def __repr__(self) -> str:
        return f"envpool.integrations.sb3.VecEnv({self.pool!r})"


_GOAL_METHODS = ("compute_reward", "compute_terminated", "compute_truncated")


def _obs_row(obs: Any, i: int) -> Any:
    """A copy of env i's observation: an array, or a dict of arrays."""
    if isinstance(obs, dict):
        return {key: value[i].copy() for key, value in obs.items()}
    return obs[i].copy()


def _writeable(obs: Any) -> Any:
    """``obs`` (an array or a dict of arrays) with every array writeable."""
    if isinstance(obs, dict):
        return {key: value if value.flags.writeable else value.copy() for key, value in obs.items()}
    return obs if obs.flags.writeable else obs.copy()


def _channels_last_space(space: Any) -> spaces.Box:
    if not isinstance(space, spaces.Box) or len(space.shape) != 3:
        raise ValueError(
            f"channels_last needs image observations (a 3-D Box), got {space}; leave it False"
        )
    return spaces.Box(
        np.moveaxis(space.low, 0, -1), np.moveaxis(space.high, 0, -1), dtype=space.dtype
    )


def make_vec_env(
    task_id: str,
    num_envs: int,
    info_keys: Sequence[str] = (),
    channels_last: bool = False,
    **make_kwargs: Any,
) -> VecEnv:
    """``VecEnv(envpool.make(task_id, num_envs=num_envs, autoreset_mode="same_step", ...))``.

    make_kwargs go to envpool.make (seed, max_episode_steps, render_mode, task
    options such as episodic_life=True); batch_size and env_type are refused.
    original_api defaults to False: the pool gets envpool's own option defaults.
    """
    for name in ("batch_size", "env_type"):
        if name in make_kwargs:
            raise ValueError(f"make_vec_env makes a sync gymnasium pool; drop {name}=")
    make_kwargs.setdefault("autoreset_mode", "same_step")
    make_kwargs.setdefault("original_api", False)  # whatever ENVPOOL_ORIGINAL_API says
    pool = envpool.make(task_id, num_envs=num_envs, **make_kwargs)
    try:
        return VecEnv(pool, info_keys=info_keys, channels_last=channels_last)
    except BaseException:
        pool.close()
        raise
