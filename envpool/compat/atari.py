"""The original EnvPool's ``envpool.atari`` package, kept for code that imports it.

Its classes make the same specs and pools as ``envpool.registration`` (the original's
conventions, ``original_api=True``): ``AtariEnvSpec(AtariEnvSpec.gen_config(task="pong",
num_envs=4))`` is ``make_spec("Pong-v5", num_envs=4)``, and
``AtariGymnasiumEnvPool(spec)`` / ``AtariDMEnvPool(spec)`` start that spec's pool.
The Atari tasks themselves are registered when ``envpool`` is imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool.compat.registration import make_dm, make_gymnasium, make_spec
from envpool.families.atari.tasks import task_name
from envpool.spec import Config

__all__ = ["AtariDMEnvPool", "AtariEnvSpec", "AtariGymnasiumEnvPool"]


class AtariEnvSpec:
    """``AtariEnvSpec(config)`` returns the spec of the game ``config["task"]`` (a ROM id
    such as "pong" or "space_invaders") with the rest of ``config`` as make's arguments."""

    @staticmethod
    def gen_config(task: str = "pong", **kwargs: Any) -> Config:
        """The config to pass to ``AtariEnvSpec``: the game and make's arguments."""
        return Config(task=task, **kwargs)

    def __new__(cls, config: Mapping[str, Any]) -> Any:
        kwargs = dict(config)
        task = kwargs.pop("task", "pong")
        return make_spec(f"{task_name(task)}-v5", **kwargs)


class AtariGymnasiumEnvPool:
    """``AtariGymnasiumEnvPool(spec)``: the gymnasium pool of a spec from ``AtariEnvSpec``."""

    def __new__(cls, spec: Any) -> Any:
        return make_gymnasium(spec.task_id, **spec.config)


class AtariDMEnvPool:
    """``AtariDMEnvPool(spec)``: the dm_env pool of a spec from ``AtariEnvSpec``."""

    def __new__(cls, spec: Any) -> Any:
        return make_dm(spec.task_id, **spec.config)
