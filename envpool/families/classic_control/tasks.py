"""gymnasium's classic-control tasks, served by ``envpool._classic_control``."""

from __future__ import annotations

from envpool.registry import register_family, task

_MODULE = "envpool._classic_control"

TABLE = [
    task("CartPole-v0", f"{_MODULE}:CartPole", max_episode_steps=200),
    task("CartPole-v1", f"{_MODULE}:CartPole", max_episode_steps=500),
    task("Pendulum-v1", f"{_MODULE}:Pendulum", max_episode_steps=200),
    task("MountainCar-v0", f"{_MODULE}:MountainCar", max_episode_steps=200),
    task("MountainCarContinuous-v0", f"{_MODULE}:MountainCarContinuous", max_episode_steps=999),
    task("Acrobot-v1", f"{_MODULE}:Acrobot", max_episode_steps=500),
]
register_family("classic_control", TABLE)
