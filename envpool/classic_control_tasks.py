"""gymnasium's classic-control tasks, served by ``envpool._core``."""

from __future__ import annotations

from envpool.registry import register_family, task

_CORE = "envpool._core"

TABLE = [
    task("CartPole-v0", f"{_CORE}:CartPole", max_episode_steps=200),
    task("CartPole-v1", f"{_CORE}:CartPole", max_episode_steps=500),
    task("Pendulum-v1", f"{_CORE}:Pendulum", max_episode_steps=200),
    task("MountainCar-v0", f"{_CORE}:MountainCar", max_episode_steps=200),
    task("MountainCarContinuous-v0", f"{_CORE}:MountainCarContinuous", max_episode_steps=999),
    task("Acrobot-v1", f"{_CORE}:Acrobot", max_episode_steps=500),
]
register_family("classic_control", TABLE)
