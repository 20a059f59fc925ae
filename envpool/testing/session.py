"""The env under test: reset and step calls whose every return value is validated."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from envpool.testing.report import ConformanceError
from envpool.testing.values import (
    call_env,
    flag_mismatch,
    info_mismatch,
    rows,
    snapshot,
    space_mismatch,
)


class Step(NamedTuple):
    obs: Any
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    info: dict[str, Any]

    @property
    def ended(self) -> np.ndarray:
        return self.terminated | self.truncated


@dataclass
class Session:
    """The env under test plus what the checks share: the seed, the autoreset mode, a
    seeded action sampler, the latest obs and the info keys seen so far."""

    env: Any
    num_envs: int
    seed: int
    check_info: bool = True
    mode: AutoresetMode | None = None
    info_keys: set[str] = field(default_factory=set)
    calls: int = 0
    last_obs: Any = None
    _actions: spaces.Space | None = None

    def sample_actions(self) -> Any:
        if self._actions is None:
            # a private copy, so the env's own action_space RNG is left alone
            self._actions = copy.deepcopy(self.env.action_space)
            self._actions.seed(self.seed)
        return self._actions.sample()

    def obs_rows(self, obs: Any) -> list[Any]:
        return rows(self.env.observation_space, obs)

    def reset(
        self, check: str, seed: Any = None, reset_mask: np.ndarray | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """``env.reset`` with the returned obs and info validated (and copied)."""
        options = None if reset_mask is None else {"reset_mask": reset_mask.copy()}
        shown = f"reset(seed={seed!r}" + (
            f", options={{'reset_mask': {reset_mask.tolist()}}})" if reset_mask is not None else ")"
        )
        result = call_env(check, shown, lambda: self.env.reset(seed=seed, options=options))
        if not isinstance(result, tuple) or len(result) != 2:
            raise ConformanceError(
                check, f"{shown} returned {type(result).__name__}; reset returns (obs, info)"
            )
        obs, info = snapshot(result)
        self._check_obs(check, obs, shown)
        self._check_info(check, info, shown)
        self.last_obs = obs
        return obs, info

    def step(self, check: str, actions: Any) -> Step:
        """``env.step`` with all five returns validated (and copied)."""
        result = call_env(check, "step(actions)", lambda: self.env.step(actions))
        if not isinstance(result, tuple) or len(result) != 5:
            got = type(result).__name__
            if isinstance(result, (tuple, list)):
                got += f" of length {len(result)}"
            rule = "step returns (obs, reward, terminated, truncated, info)"
            raise ConformanceError(check, f"step returned a {got}; {rule}")
        step = Step(*snapshot(result))
        self._check_obs(check, step.obs, "step")
        for value, name, kind in (
            (step.reward, "reward", "f"),
            (step.terminated, "terminated", "b"),
            (step.truncated, "truncated", "b"),
        ):
            problem = flag_mismatch(value, f"step's {name}", self.num_envs, kind)
            if problem:
                raise ConformanceError(check, problem)
        self._check_info(check, step.info, "step")
        self.last_obs = step.obs
        return step

    def _check_obs(self, check: str, obs: Any, call: str) -> None:
        problem = space_mismatch(self.env.observation_space, obs, f"{call}'s obs")
        if problem:
            raise ConformanceError(
                check, f"{problem}; obs must be a member of env.observation_space"
            )

    def _check_info(self, check: str, info: Any, call: str) -> None:
        problem = info_mismatch(info, self.num_envs, f"{call}'s info")
        if problem and self.check_info:
            raise ConformanceError(check, problem)
        self.info_keys.update(info)
        self.calls += 1
