"""gymnasium's classic-control tasks, served by ``envpool._classic_control``; their
rgb_array frames are drawn by ``frames.py``."""

from __future__ import annotations

from envpool.registry import register_family, task

_MODULE = "envpool._classic_control"

# (task id, C++ class, time limit, gymnasium's render_fps, frames.py's drawer)
_TASKS = [
    ("CartPole-v0", "CartPole", 200, 50, "draw_cartpole"),
    ("CartPole-v1", "CartPole", 500, 50, "draw_cartpole"),
    ("Pendulum-v1", "Pendulum", 200, 30, "draw_pendulum"),
    ("MountainCar-v0", "MountainCar", 200, 30, "draw_mountain_car"),
    ("MountainCarContinuous-v0", "MountainCarContinuous", 999, 30, "draw_mountain_car"),
    ("Acrobot-v1", "Acrobot", 500, 15, "draw_acrobot"),
]
TABLE = [
    task(
        task_id,
        f"{_MODULE}:{cls}",
        max_episode_steps=limit,
        render_fps=fps,
        frame_drawer=f"envpool.families.classic_control.frames:{drawer}",
    )
    for task_id, cls, limit, fps, drawer in _TASKS
]
register_family("classic_control", TABLE)
