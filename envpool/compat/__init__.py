"""Module paths kept for code written against the original EnvPool or older envpools.

Everything importable under an old name is listed in ``MODULE_PATHS`` and is gathered
here; nothing else in envpool depends on this package. ``install()`` (run by ``import
envpool``) puts each old name in ``sys.modules``:

- the original EnvPool's paths: ``envpool.registration`` (its module of entry points,
  here ``compat/registration.py``), ``envpool.atari`` (``AtariEnvSpec`` and the pool
  classes, ``compat/atari.py``), and its per-family packages and their ``registration``
  modules, which hold nothing: every family registers its tasks when envpool is
  imported;
- envpool's own earlier paths: the task tables that lived at ``envpool/<family>_tasks.py``
  before the families got their folders (``envpool/families/<family>/``).

``LEGACY_ENTRY_POINTS`` maps entry points of earlier envpools (classic control, Atari and
toy text were once served by one module, ``envpool._core``, now the engine's own) to
today's, so that ``envpool.register(id, "envpool._core:CartPole")`` still works.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types

from envpool import registry

_EMPTY_PACKAGE_DOC = (
    "The original EnvPool's ``{name}`` path, kept for code that imports it. Its tasks are "
    "registered when ``envpool`` is imported; see ``envpool.list_all_envs()``."
)

# old name -> the module it is now, or None for a package path of the original that
# holds nothing (its tasks are registered by ``import envpool``)
MODULE_PATHS: dict[str, str | None] = {
    "envpool.registration": "envpool.compat.registration",
    "envpool.atari": "envpool.compat.atari",
    "envpool.atari.registration": None,
    "envpool.classic_control": None,
    "envpool.classic_control.registration": None,
    "envpool.mujoco": None,
    "envpool.mujoco.gym": None,
    "envpool.mujoco.gym.registration": None,
    "envpool.atari_tasks": "envpool.families.atari.tasks",
    "envpool.box2d_tasks": "envpool.families.box2d.tasks",
    "envpool.box2d_score_font": "envpool.families.box2d.score_font",
    "envpool.classic_control_tasks": "envpool.families.classic_control.tasks",
    "envpool.dmc_tasks": "envpool.families.dmc.tasks",
    "envpool.mujoco_tasks": "envpool.families.mujoco.tasks",
    "envpool.toy_text_tasks": "envpool.families.toy_text.tasks",
}

LEGACY_ENTRY_POINTS: dict[str, str] = {
    **{
        f"envpool._core:{name}": f"envpool._classic_control:{name}"
        for name in ("CartPole", "Pendulum", "MountainCar", "MountainCarContinuous", "Acrobot")
    },
    **{
        f"envpool._core:{name}": f"envpool._toy_text:{name}"
        for name in ("Blackjack", "FrozenLake", "CliffWalking", "Taxi")
    },
    "envpool._core:Atari": "envpool._atari:Atari",
}


def _empty_package(name: str) -> types.ModuleType:
    module = types.ModuleType(name, _EMPTY_PACKAGE_DOC.format(name=name))
    module.__path__ = []  # a package, so that its old submodule paths import
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
    return module


def install() -> None:
    """Makes every old path in ``MODULE_PATHS`` importable and every entry point in
    ``LEGACY_ENTRY_POINTS`` registrable (idempotent)."""
    registry.ENTRY_POINT_ALIASES.update(LEGACY_ENTRY_POINTS)
    for old, new in MODULE_PATHS.items():
        if old in sys.modules:
            continue
        module = importlib.import_module(new) if new else _empty_package(old)
        sys.modules[old] = module
        parent, _, child = old.rpartition(".")
        setattr(sys.modules[parent], child, module)


install()
