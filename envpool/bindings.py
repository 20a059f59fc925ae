"""The compiled extension modules (the C++ bindings): the lowest layer of envpool/.

Python code reaches them through ``extension(name)`` (or a task's entry point,
``envpool.registry``), which the import-layer check (``lint-imports``) sees as
this module: a static checker cannot see into a compiled module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

EXTENSION_MODULES = (
    "_core",
    "_classic_control",
    "_atari",
    "_toy_text",
    "_box2d",
    "_mujoco",
    "_dmc",
    "_minigrid",
    "_babyai",
    "_mpe2",
    "_procgen",
    "_robotics",
    "_xla",
)


def extension(name: str) -> ModuleType:
    """The extension module ``envpool.<name>``, e.g. ``extension("_core")``."""
    if name not in EXTENSION_MODULES:
        raise ValueError(f"no extension module {name!r}; envpool has {EXTENSION_MODULES}")
    return importlib.import_module(f"envpool.{name}")
