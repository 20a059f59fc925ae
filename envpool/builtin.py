"""The task ids of the envs that ship with envpool."""

from __future__ import annotations

from envpool.registry import register

_CORE = "envpool._core"

register("CartPole-v0", f"{_CORE}:CartPole", max_episode_steps=200)
register("CartPole-v1", f"{_CORE}:CartPole", max_episode_steps=500)
register("Pendulum-v1", f"{_CORE}:Pendulum", max_episode_steps=200)
register("MountainCar-v0", f"{_CORE}:MountainCar", max_episode_steps=200)
register("MountainCarContinuous-v0", f"{_CORE}:MountainCarContinuous", max_episode_steps=999)
register("Acrobot-v1", f"{_CORE}:Acrobot", max_episode_steps=500)
