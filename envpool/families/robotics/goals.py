"""The goal functions of the maze tasks (gymnasium-robotics' ``MazeEnv`` v4 contract:
``compute_reward``, ``compute_terminated``, ``compute_truncated``), for HER's relabelling
and for any code that calls them on a pool: ``env.compute_reward(achieved, desired, info)``.
They take one goal pair or a batch (goals on the last axis), as gymnasium-robotics' do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

GOAL_RADIUS = 0.45  # gymnasium-robotics' maze success distance


def _goals(achieved_goal: Any, desired_goal: Any) -> tuple[np.ndarray, np.ndarray]:
    achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved.shape != desired.shape or achieved.ndim == 0 or achieved.shape[-1] != 2:
        raise ValueError(
            "achieved_goal and desired_goal must have the same shape, with the goal's 2 "
            f"coordinates (x, y) on the last axis; got {achieved.shape} and {desired.shape}"
        )
    return achieved, desired


class MazeGoals:
    """The goal functions of a maze task made with ``config``."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.dense = config["reward_type"] == "dense"
        self.continuing_task = bool(config["continuing_task"])

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        achieved, desired = _goals(achieved_goal, desired_goal)
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if self.dense:
            return np.exp(-distance)
        return (distance <= GOAL_RADIUS).astype(np.float64)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        """True where the goal is reached, unless the task goes on past its goals
        (``continuing_task``, the default), where it is always False."""
        achieved, desired = _goals(achieved_goal, desired_goal)
        if achieved.ndim == 1:
            if self.continuing_task:
                return False
            return bool(np.linalg.norm(achieved - desired) <= GOAL_RADIUS)
        reached = np.linalg.norm(achieved - desired, axis=-1) <= GOAL_RADIUS
        return np.zeros_like(reached) if self.continuing_task else reached

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        achieved, _ = _goals(achieved_goal, desired_goal)
        return False if achieved.ndim == 1 else np.zeros(achieved.shape[:-1], dtype=bool)


def maze_goals(config: Mapping[str, Any]) -> MazeGoals:
    return MazeGoals(config)


def _fetch_goals(achieved_goal: Any, desired_goal: Any) -> tuple[np.ndarray, np.ndarray]:
    achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved.shape != desired.shape or achieved.ndim == 0 or achieved.shape[-1] != 3:
        raise ValueError(
            "achieved_goal and desired_goal must have the same shape, with the goal's 3 "
            f"coordinates (x, y, z) on the last axis; got {achieved.shape} and {desired.shape}"
        )
    return achieved, desired


class FetchGoals:
    """The goal functions of a Fetch task (gymnasium-robotics' BaseFetchEnv): the reward
    is -1 (float32) beyond ``distance_threshold`` of the goal, else 0, or minus the
    distance (dense); episodes never terminate or truncate on their goals."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.dense = config["reward_type"] == "dense"
        self.distance_threshold = float(config["distance_threshold"])

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        achieved, desired = _fetch_goals(achieved_goal, desired_goal)
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if self.dense:
            return -distance
        return -(distance > self.distance_threshold).astype(np.float32)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        _fetch_goals(achieved_goal, desired_goal)
        return False

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        _fetch_goals(achieved_goal, desired_goal)
        return False


def fetch_goals(config: Mapping[str, Any]) -> FetchGoals:
    return FetchGoals(config)
