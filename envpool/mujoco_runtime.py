"""The MuJoCo runtime both MuJoCo families share (gymnasium's MuJoCo tasks and the
DeepMind Control Suite): the pinned mujoco package, checked, and its libmujoco
loaded so that the extension modules' link to it resolves."""

from __future__ import annotations

import ctypes
import importlib.util
import os
from importlib import metadata

MUJOCO_VERSION = "3.17.0"


def mujoco_package_dir() -> str:
    """The installed mujoco package's folder; ImportError naming the version needed."""
    fix = f"pip install mujoco=={MUJOCO_VERSION}"
    try:
        found = metadata.version("mujoco")
    except metadata.PackageNotFoundError:
        raise ImportError(
            f"envpool's MuJoCo tasks need the mujoco package, version {MUJOCO_VERSION}, "
            f"which is not installed: {fix}"
        ) from None
    if found != MUJOCO_VERSION:
        raise ImportError(
            f"envpool's MuJoCo tasks need mujoco=={MUJOCO_VERSION}, but mujoco {found} is "
            f"installed: {fix}"
        )
    spec = importlib.util.find_spec("mujoco")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the mujoco package cannot be located: {fix}")
    return next(iter(spec.submodule_search_locations))


def load_library() -> None:
    """Loads libmujoco from the mujoco package, so the extension's link to it resolves."""
    library = os.path.join(mujoco_package_dir(), f"libmujoco.so.{MUJOCO_VERSION}")
    if not os.path.exists(library):
        raise ImportError(
            f"{library} is missing; reinstall it: pip install --force-reinstall "
            f"mujoco=={MUJOCO_VERSION}"
        )
    ctypes.CDLL(library)
