"""Real vector envs (gymnasium's SyncVectorEnv, envpool pools), each wrapped so that it
breaks one rule of gymnasium's VectorEnv contract; check_vector_env must catch every one.

BROKEN maps a name to (a maker of the broken env, a phrase the checker's message must hold).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv, VectorWrapper

import envpool

NUM_ENVS = 2
EPISODE_STEPS = 5


def gym_cartpole(mode: AutoresetMode = AutoresetMode.NEXT_STEP) -> VectorEnv:
    make = lambda: gym.make("CartPole-v1", max_episode_steps=EPISODE_STEPS)  # noqa: E731
    return SyncVectorEnv([make] * NUM_ENVS, autoreset_mode=mode)


def pool_cartpole(mode: str = "next_step") -> VectorEnv:
    return envpool.make(
        "CartPole-v1", num_envs=NUM_ENVS, max_episode_steps=EPISODE_STEPS, autoreset_mode=mode
    )


class ObsAsFloat64(VectorWrapper):
    """Returns float64 observations from a float32 observation space."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict]:
        obs, info = self.env.reset(**kwargs)
        return obs.astype(np.float64), info

    def step(self, actions: Any) -> tuple:
        obs, *rest = self.env.step(actions)
        return (obs.astype(np.float64), *rest)


class RewardAsColumn(VectorWrapper):
    """Returns rewards of shape (num_envs, 1)."""

    def step(self, actions: Any) -> tuple:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        return obs, reward[:, None], terminated, truncated, info


class TerminatedAsInt(VectorWrapper):
    """Returns terminated as int64 0/1."""

    def step(self, actions: Any) -> tuple:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        return obs, reward, terminated.astype(np.int64), truncated, info


class InfoOneRowTooMany(VectorWrapper):
    """Adds an info array with num_envs + 1 rows."""

    def step(self, actions: Any) -> tuple:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        info = {**info, "cost": np.zeros(self.num_envs + 1)}
        return obs, reward, terminated, truncated, info


class StaleFinalObs(VectorWrapper):
    """SAME_STEP env whose final_obs rows are the new episode's first obs."""

    def step(self, actions: Any) -> tuple:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        if "final_obs" in info:
            final = info["final_obs"].copy()
            for i in np.flatnonzero(info["_final_obs"]):
                final[i] = obs[i].copy()
            info = {**info, "final_obs": final}
        return obs, reward, terminated, truncated, info


class FinalObsMaskAllTrue(VectorWrapper):
    """SAME_STEP envpool pool whose _final_obs mask marks every env on every step."""

    def step(self, actions: Any) -> tuple:
        obs, reward, terminated, truncated, info = self.env.step(actions)
        info = {**info, "_final_obs": np.ones(self.num_envs, dtype=bool)}
        return obs, reward, terminated, truncated, info


class FixedSeed(VectorWrapper):
    """Resets with its own seed, whatever seed the caller passes."""

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict]:
        return self.env.reset(seed=123 if seed is not None else None, options=options)


class SeedDropped(VectorWrapper):
    """Never passes the seed on, so seeded resets are not reproducible."""

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict]:
        return self.env.reset(seed=None, options=options)


class ResetMaskResetsAll(VectorWrapper):
    """Drops options["reset_mask"] and resets every env."""

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict]:
        options = {k: v for k, v in (options or {}).items() if k != "reset_mask"}
        return self.env.reset(seed=seed, options=options or None)


class CloseRaisesTwice(VectorWrapper):
    """close() raises when the env is already closed."""

    def close(self, **kwargs: Any) -> None:
        if self.env.closed:
            raise RuntimeError("already closed")
        self.env.close(**kwargs)


class UnbatchedActionSpace(VectorWrapper):
    """action_space is one env's space, not the batch's."""

    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)
        self.action_space = env.single_action_space


class Metadata(VectorWrapper):
    """Reports the given metadata instead of the env's."""

    def __init__(self, env: VectorEnv, metadata: dict[str, Any]) -> None:
        super().__init__(env)
        self.metadata = metadata


class NextStepOverDisabled(VectorWrapper):
    """NEXT_STEP autoreset built on a 'disabled' envpool pool, correct unless told otherwise.

    late=True restarts an ended env one step late: the step after the end repeats the last
    obs (reward 0, flags False) and only the step after that returns the new first obs.
    keep_pending=True leaves an ended env's pending autoreset in place across a masked
    reset, so the step after reset(options={"reset_mask": ...}) resets it a second time.
    """

    LIVE, PENDING, IDLE = 0, 1, 2

    def __init__(self, env: VectorEnv, late: bool = False, keep_pending: bool = False) -> None:
        super().__init__(env)
        self.metadata = {**env.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP}
        self.late, self.keep_pending = late, keep_pending
        self.phase = np.zeros(env.num_envs, dtype=np.int8)
        self.last_obs: np.ndarray | None = None

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict]:
        obs, info = self.env.reset(seed=seed, options=options)
        mask = (options or {}).get("reset_mask")
        if mask is None:
            self.phase[:] = self.LIVE
        elif not self.keep_pending:
            self.phase[mask] = self.LIVE
        self.last_obs = obs.copy()
        return obs, info

    def step(self, actions: Any) -> tuple:
        n = self.num_envs
        obs = self.last_obs.copy()
        reward, terminated, truncated = np.zeros(n), np.zeros(n, bool), np.zeros(n, bool)
        live = np.flatnonzero(self.phase == self.LIVE)
        if self.late:
            restart = self.phase == self.IDLE
            self.phase[self.phase == self.PENDING] = self.IDLE
        else:
            restart = self.phase == self.PENDING
        if restart.any():
            fresh, _ = self.env.reset(options={"reset_mask": restart})
            obs[restart] = fresh[restart]
            self.phase[restart] = self.LIVE
        if len(live):
            rows = self.env.step(np.asarray(actions)[live], env_id=live)
            obs[live], reward[live], terminated[live], truncated[live] = rows[:4]
            self.phase[live[terminated[live] | truncated[live]]] = self.PENDING
        self.last_obs = obs.copy()
        return obs, reward, terminated, truncated, {}


def _next_step_claimed(inner: VectorEnv) -> VectorEnv:
    return Metadata(inner, {**inner.metadata, "autoreset_mode": AutoresetMode.NEXT_STEP})


def _disabled_claimed(inner: VectorEnv) -> VectorEnv:
    return Metadata(inner, {**inner.metadata, "autoreset_mode": AutoresetMode.DISABLED})


BROKEN: dict[str, tuple[Callable[[], VectorEnv], str]] = {
    "obs dtype": (
        lambda: ObsAsFloat64(gym_cartpole()),
        "obs has dtype float64, but the space's dtype is float32",
    ),
    "reward shape": (
        lambda: RewardAsColumn(pool_cartpole()),
        "reward has shape (2, 1); a VectorEnv returns a float numpy array of shape (num_envs,)",
    ),
    "terminated int": (
        lambda: TerminatedAsInt(gym_cartpole()),
        "terminated has dtype int64; a VectorEnv returns a bool numpy array",
    ),
    "info length": (
        lambda: InfoOneRowTooMany(pool_cartpole()),
        "info['cost'] has shape (3,); info arrays have num_envs=2 rows",
    ),
    "stale final_obs (gymnasium)": (
        lambda: StaleFinalObs(gym_cartpole(AutoresetMode.SAME_STEP)),
        "final_obs is stale",
    ),
    "stale final_obs (envpool)": (
        lambda: StaleFinalObs(pool_cartpole("same_step")),
        "final_obs is stale",
    ),
    "final_obs mask marks every env": (
        lambda: FinalObsMaskAllTrue(pool_cartpole("same_step")),
        "on step 1 info['_final_obs'] is [True, True], but terminated | truncated is [False,",
    ),
    "seed ignored": (lambda: FixedSeed(gym_cartpole()), "the seed passed to reset is ignored"),
    "seed dropped": (lambda: SeedDropped(pool_cartpole()), "twice returned different obs"),
    "autoreset one step late": (
        lambda: NextStepOverDisabled(pool_cartpole("disabled"), late=True),
        "the autoreset comes a step late",
    ),
    "masked reset keeps a pending autoreset": (
        lambda: NextStepOverDisabled(pool_cartpole("disabled"), keep_pending=True),
        "a masked env must go on exactly like a freshly reset one. Env 0 had just ended",
    ),
    "same_step claiming next_step": (
        lambda: _next_step_claimed(gym_cartpole(AutoresetMode.SAME_STEP)),
        "is the env resetting in SAME_STEP fashion",
    ),
    "same_step claiming disabled": (
        lambda: _disabled_claimed(pool_cartpole("same_step")),
        "the VectorEnv reset it by itself",
    ),
    "reset_mask resets all": (
        lambda: ResetMaskResetsAll(gym_cartpole()),
        "which the mask leaves out: reset_mask must restart only the masked envs",
    ),
    "close twice raises": (
        lambda: CloseRaisesTwice(gym_cartpole()),
        "the second env.close() raised RuntimeError",
    ),
    "action_space not batched": (
        lambda: UnbatchedActionSpace(pool_cartpole()),
        "env.action_space is Discrete(2), but batch_space(single_action_space, num_envs=2)",
    ),
    "no autoreset_mode": (
        lambda: Metadata(gym_cartpole(), {"render_modes": []}),
        "env.metadata has no 'autoreset_mode'",
    ),
    "autoreset_mode as str": (
        lambda: Metadata(pool_cartpole(), {"autoreset_mode": "next_step"}),
        "must be a gymnasium.vector.AutoresetMode member",
    ),
}
