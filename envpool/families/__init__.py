"""The Python side of each env family, one folder a family: its task table (registered
with ``registry.register_family``) and its helpers. Importing this package registers
every family that ships with envpool; families never import each other (an import-linter
contract). A family's C++ envs and module live in ``cpp/envpool/<family>/``.
"""

from __future__ import annotations

from envpool.families.atari import tasks as atari
from envpool.families.box2d import tasks as box2d
from envpool.families.classic_control import tasks as classic_control
from envpool.families.dmc import tasks as dmc
from envpool.families.minigrid import tasks as minigrid
from envpool.families.mpe2 import tasks as mpe2
from envpool.families.mujoco import tasks as mujoco
from envpool.families.procgen import tasks as procgen
from envpool.families.robotics import tasks as robotics
from envpool.families.toy_text import tasks as toy_text

__all__ = [
    "atari",
    "box2d",
    "classic_control",
    "dmc",
    "minigrid",
    "mpe2",
    "mujoco",
    "procgen",
    "robotics",
    "toy_text",
]
