"""The MuJoCo runtime the MuJoCo families share (gymnasium's MuJoCo tasks, the DeepMind
Control Suite and gymnasium-robotics): the pinned mujoco package, checked, and its
libmujoco loaded so that the extension modules' link to it resolves; gymnasium's folder
of MuJoCo models."""

from __future__ import annotations

import ctypes
import importlib.util
import os
from importlib import metadata

MUJOCO_VERSION = "3.17.0"


def pinned_package_dir(
    distribution: str, package: str, version: str, *, fix: str, missing: str, needs: str
) -> str:
    """The folder of the import package `package` of the installed `distribution`, which
    must be `version`. Otherwise an ImportError ending with `fix`; its message begins with
    `missing` when the distribution is not installed, with `needs` when another version is."""
    try:
        found = metadata.version(distribution)
    except metadata.PackageNotFoundError:
        raise ImportError(f"{missing}, which is not installed: {fix}") from None
    if found != version:
        raise ImportError(f"{needs}, but {distribution} {found} is installed: {fix}")
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the {package} package cannot be located: {fix}")
    return next(iter(spec.submodule_search_locations))


def mujoco_package_dir() -> str:
    """The installed mujoco package's folder; ImportError naming the version needed."""
    return pinned_package_dir(
        "mujoco",
        "mujoco",
        MUJOCO_VERSION,
        fix=f"pip install mujoco=={MUJOCO_VERSION}",
        missing=f"envpool's MuJoCo tasks need the mujoco package, version {MUJOCO_VERSION}",
        needs=f"envpool's MuJoCo tasks need mujoco=={MUJOCO_VERSION}",
    )


def load_library() -> None:
    """Loads libmujoco from the mujoco package, so the extension's link to it resolves."""
    library = os.path.join(mujoco_package_dir(), f"libmujoco.so.{MUJOCO_VERSION}")
    if not os.path.exists(library):
        raise ImportError(
            f"{library} is missing; reinstall it: pip install --force-reinstall "
            f"mujoco=={MUJOCO_VERSION}"
        )
    ctypes.CDLL(library)


def gymnasium_assets_dir() -> str:
    """gymnasium's folder of MuJoCo model files (gymnasium/envs/mujoco/assets)."""
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "the MuJoCo tasks read their models from gymnasium: pip install gymnasium"
        )
    root = next(iter(spec.submodule_search_locations))
    return os.path.join(root, "envs", "mujoco", "assets")
