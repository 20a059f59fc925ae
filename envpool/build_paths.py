"""Where the installed C++ headers and CMake package config are, for env packages
that compile against envpool (``envpool cmake-dir``, ``envpool include-dir``)."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

_CONFIG_SUBDIR = Path("share", "cmake", "envpool")


def _package_dirs() -> list[Path]:
    """The installed ``envpool/`` folders: the package's own and, for an editable
    install (where the Python sources stay in the checkout), the one in site-packages."""
    dirs = [Path(__file__).resolve().parent]
    try:
        installed = Path(str(metadata.distribution("envpool").locate_file("envpool")))
    except metadata.PackageNotFoundError:
        return dirs
    if installed.resolve() not in dirs:
        dirs.append(installed.resolve())
    return dirs


def cmake_dir() -> str:
    """The folder of ``envpoolConfig.cmake``: pass it as ``envpool_DIR`` to CMake."""
    for package_dir in _package_dirs():
        candidate = package_dir / _CONFIG_SUBDIR
        if (candidate / "envpoolConfig.cmake").is_file():
            return str(candidate)
    raise FileNotFoundError(
        "envpool's CMake package config is missing from this install "
        f"(looked in {', '.join(str(d / _CONFIG_SUBDIR) for d in _package_dirs())}); "
        "reinstall envpool with pip"
    )


def include_dir() -> str:
    """The folder to put on the include path for ``#include "envpool/core/env.h"``."""
    return str(Path(cmake_dir()).parents[2] / "include")
