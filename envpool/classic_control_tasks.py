"""The task ids of the envs that ship with envpool."""

from __future__ import annotations

from envpool.registry import register

_FAMILY = "classic_control"
_CORE = "envpool._core"

register("CartPole-v0", f"{_CORE}:CartPole", max_episode_steps=200, family=_FAMILY)
register("CartPole-v1", f"{_CORE}:CartPole", max_episode_steps=500, family=_FAMILY)
register("Pendulum-v1", f"{_CORE}:Pendulum", max_episode_steps=200, family=_FAMILY)
register("MountainCar-v0", f"{_CORE}:MountainCar", max_episode_steps=200, family=_FAMILY)
register(
    "MountainCarContinuous-v0",
    f"{_CORE}:MountainCarContinuous",
    max_episode_steps=999,
    family=_FAMILY,
)
register("Acrobot-v1", f"{_CORE}:Acrobot", max_episode_steps=500, family=_FAMILY)
