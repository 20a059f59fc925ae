"""The goal functions of the maze, Fetch and Shadow Hand tasks (gymnasium-robotics'
GoalEnv contract: ``compute_reward``, ``compute_terminated``, ``compute_truncated``), for
HER's relabelling and for any code that calls them on a pool:
``env.compute_reward(achieved, desired, info)``. They take one goal pair or a batch
(goals on the last axis), as gymnasium-robotics' do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

GOAL_RADIUS = 0.45  # gymnasium-robotics' maze success distance


def _sized_goals(
    achieved_goal: Any, desired_goal: Any, size: int, what: str
) -> tuple[np.ndarray, np.ndarray]:
    achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved.shape != desired.shape or achieved.ndim == 0 or achieved.shape[-1] != size:
        raise ValueError(
            f"achieved_goal and desired_goal must have the same shape, with the goal's {size} "
            f"{what} on the last axis; got {achieved.shape} and {desired.shape}"
        )
    return achieved, desired


def _goals(achieved_goal: Any, desired_goal: Any) -> tuple[np.ndarray, np.ndarray]:
    return _sized_goals(achieved_goal, desired_goal, 2, "coordinates (x, y)")


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


class FetchGoals:
    """The goal functions of a Fetch task (gymnasium-robotics' BaseFetchEnv) and of
    HandReach (its 5 finger tips' positions, 15 coordinates): the reward is -1 (float32)
    beyond ``distance_threshold`` of the goal, else 0, or minus the distance (dense);
    episodes never terminate or truncate on their goals."""

    def __init__(
        self, config: Mapping[str, Any], size: int = 3, what: str = "coordinates (x, y, z)"
    ) -> None:
        self.dense = config["reward_type"] == "dense"
        self.distance_threshold = float(config["distance_threshold"])
        self.size, self.what = size, what

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        achieved, desired = _sized_goals(achieved_goal, desired_goal, self.size, self.what)
        distance = np.linalg.norm(achieved - desired, axis=-1)
        if self.dense:
            return -distance
        return -(distance > self.distance_threshold).astype(np.float32)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        _sized_goals(achieved_goal, desired_goal, self.size, self.what)
        return False

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        _sized_goals(achieved_goal, desired_goal, self.size, self.what)
        return False


def fetch_goals(config: Mapping[str, Any]) -> FetchGoals:
    return FetchGoals(config)


def reach_goals(config: Mapping[str, Any]) -> FetchGoals:
    return FetchGoals(config, 15, "coordinates (5 finger tips' x, y, z)")


def _quat_mul(q0: np.ndarray, q1: np.ndarray) -> np.ndarray:
    w0, x0, y0, z0 = np.moveaxis(q0, -1, 0)
    w1, x1, y1, z1 = np.moveaxis(q1, -1, 0)
    return np.stack(
        [
            w0 * w1 - x0 * x1 - y0 * y1 - z0 * z1,
            w0 * x1 + x0 * w1 + y0 * z1 - z0 * y1,
            w0 * y1 + y0 * w1 + z0 * x1 - x0 * z1,
            w0 * z1 + z0 * w1 + x0 * y1 - y0 * x1,
        ],
        axis=-1,
    )


def _quat_to_euler(q: np.ndarray) -> np.ndarray:
    """Euler angles (x, y, z) of quaternions (w, x, y, z), through the rotation matrix."""
    w, x, y, z = np.moveaxis(q, -1, 0)
    norm2 = np.sum(q * q, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = 2.0 / norm2
    big_x, big_y, big_z = x * s, y * s, z * s
    m00, m01, m02 = 1.0 - (y * big_y + z * big_z), x * big_y - w * big_z, x * big_z + w * big_y
    m12, m22 = y * big_z - w * big_x, 1.0 - (x * big_x + y * big_y)
    m10, m11 = x * big_y + w * big_z, 1.0 - (x * big_x + z * big_z)
    degenerate = ~(norm2 > np.finfo(np.float64).eps)
    m00, m11, m22 = (np.where(degenerate, 1.0, v) for v in (m00, m11, m22))
    m01, m02, m12, m10 = (np.where(degenerate, 0.0, v) for v in (m01, m02, m12, m10))
    cy = np.sqrt(m22 * m22 + m12 * m12)
    upright = cy > np.finfo(np.float64).eps * 4.0
    return np.stack(
        [
            np.where(upright, -np.arctan2(m12, m22), 0.0),
            -np.arctan2(-m02, cy),
            np.where(upright, -np.arctan2(m01, m00), -np.arctan2(-m10, m11)),
        ],
        axis=-1,
    )


def _euler_to_quat(e: np.ndarray) -> np.ndarray:
    ai, aj, ak = e[..., 2] / 2, -e[..., 1] / 2, e[..., 0] / 2
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs, sc, ss = ci * ck, ci * sk, si * ck, si * sk
    return np.stack(
        [cj * cc + sj * ss, cj * cs - sj * sc, -(cj * ss + sj * cc), cj * sc - sj * cs], axis=-1
    )


class HandGoals:
    """The goal functions of a HandManipulate task (gymnasium-robotics'
    ManipulateEnv): goals are poses, a position and a quaternion (w, x, y, z). The
    distance is the positions' (0 where the task ignores position) and the angle between
    the rotations (about x and y only where the task ignores the z rotation: the pen);
    success is both under their thresholds (float32), the sparse reward success - 1, the
    dense one -(10 * position distance + angle). Episodes never end on their goals."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.dense = config["reward_type"] == "dense"
        self.ignore_position = config["target_position"] == "ignore"
        self.ignore_z = bool(config["ignore_z_target_rotation"])
        self.distance_threshold = float(config["distance_threshold"])
        self.rotation_threshold = float(config["rotation_threshold"])

    def _distances(self, achieved_goal: Any, desired_goal: Any) -> tuple[Any, Any]:
        a, b = _sized_goals(achieved_goal, desired_goal, 7, "values (x, y, z, quaternion)")
        d_pos = np.zeros_like(a[..., 0])
        if not self.ignore_position:
            d_pos = np.linalg.norm(a[..., :3] - b[..., :3], axis=-1)
        quat_a, quat_b = a[..., 3:], b[..., 3:]
        if self.ignore_z:
            euler_a, euler_b = _quat_to_euler(quat_a), _quat_to_euler(quat_b)
            euler_a[..., 2] = euler_b[..., 2]
            quat_a = _euler_to_quat(euler_a)
        conjugate = quat_b * np.array([1.0, -1.0, -1.0, -1.0])
        diff = _quat_mul(quat_a, conjugate)
        d_rot = 2 * np.arccos(np.clip(diff[..., 0], -1.0, 1.0))
        return d_pos, d_rot

    def is_success(self, achieved_goal: Any, desired_goal: Any) -> Any:
        d_pos, d_rot = self._distances(achieved_goal, desired_goal)
        return (d_pos < self.distance_threshold).astype(np.float32) * (
            d_rot < self.rotation_threshold
        ).astype(np.float32)

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        if self.dense:
            d_pos, d_rot = self._distances(achieved_goal, desired_goal)
            return -(10.0 * d_pos + d_rot)
        return self.is_success(achieved_goal, desired_goal) - 1.0

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        self._distances(achieved_goal, desired_goal)
        return False

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        self._distances(achieved_goal, desired_goal)
        return False


def hand_goals(config: Mapping[str, Any]) -> HandGoals:
    return HandGoals(config)


class KitchenGoals:
    """The goal functions of FrankaKitchen: goals are dicts of task name to joint
    positions; the reward counts the tasks within 0.3 of their goal (the norm over the
    task's joints). gymnasium-robotics counts the tasks still to complete; given a pool's
    ``info`` (its ``tasks_to_complete`` booleans, one per task in the fixed order), so
    does this, otherwise every task of the goal counts. Batches (arrays with a leading
    batch axis under each task) give one count per row."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        from envpool.families.robotics.kitchen_tasks import KITCHEN_TASKS

        self.tasks = [t for t in str(config["tasks_to_complete"]).split(",") if t]
        self.order = KITCHEN_TASKS

    def _task_goals(self, achieved_goal: Any, desired_goal: Any) -> list[tuple[Any, Any]]:
        if not isinstance(achieved_goal, Mapping) or not isinstance(desired_goal, Mapping):
            raise ValueError(
                "achieved_goal and desired_goal must be dicts of task name to joint "
                f"positions (FrankaKitchen's nested goals), with the tasks {self.tasks}"
            )
        pairs = []
        for task in self.tasks:
            if task not in achieved_goal or task not in desired_goal:
                raise ValueError(f"achieved_goal and desired_goal need the task {task!r}")
            a, d = np.asarray(achieved_goal[task]), np.asarray(desired_goal[task])
            if a.shape != d.shape or a.ndim == 0:
                raise ValueError(
                    f"achieved_goal[{task!r}] and desired_goal[{task!r}] must have the same "
                    f"shape; got {a.shape} and {d.shape}"
                )
            pairs.append((a, d))
        return pairs

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any) -> Any:
        pairs = self._task_goals(achieved_goal, desired_goal)
        remaining = info.get("tasks_to_complete") if isinstance(info, Mapping) else None
        total: Any = 0.0
        for task, (a, d) in zip(self.tasks, pairs, strict=True):
            # one pair: np.linalg.norm of the difference, as gymnasium-robotics takes it
            distance = np.linalg.norm(a - d) if a.ndim == 1 else np.linalg.norm(a - d, axis=-1)
            complete = distance < 0.3
            if remaining is not None:
                complete = complete & np.asarray(remaining)[..., self.order.index(task)]
            total = total + complete
        return float(total) if np.ndim(total) == 0 else np.asarray(total, dtype=np.float64)

    def compute_terminated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        self._task_goals(achieved_goal, desired_goal)
        return False

    def compute_truncated(self, achieved_goal: Any, desired_goal: Any, info: Any) -> bool:
        self._task_goals(achieved_goal, desired_goal)
        return False


def kitchen_goals(config: Mapping[str, Any]) -> KitchenGoals:
    return KitchenGoals(config)
