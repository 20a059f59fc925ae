"""procgen itself, as the reference of tests/test_procgen*.py: the pinned wheel's own
``procgen/env.py`` and ``procgen/gym_registration.py``, unchanged, on this interpreter
with gym3 0.3.3 (installed ``--no-deps``: it pins numpy < 2, which only its unused video
and test helpers need).

The wheel is unpacked whole into a temporary folder. Its ``procgen/__init__.py`` is not
run: it registers gym (not gymnasium) ids, and gym is not installed. So ``procgen`` is
made a bare package of that folder. procgen's gym env needs gym for two things,
``gym.envs.registration.register`` (imported by ``gym_registration.py``, never called)
and ``gym.spaces`` (gym3's ``ToGymEnv`` describes its spaces with it): gym 0.26.2 itself
where it is installed (envpool's torchrl extra installs it), else a stand-in module
with gymnasium's ``spaces``, gym's successor with the same Box, Discrete and Dict. That
is the whole patch; the game code and its Python are procgen's and gym3's.
"""

from __future__ import annotations

import importlib
import sys
import types
import zipfile
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

from envpool import procgen_runtime


def wheel() -> Path:
    """The pinned wheel: ENVPOOL_PROCGEN_WHEEL's, the cached one, or downloaded."""
    return procgen_runtime.wheel()


def load(folder: Path) -> types.ModuleType:
    """procgen's ``env`` module (ProcgenGym3Env) from the wheel unpacked into ``folder``;
    ``procgen.gym_registration`` is importable after it."""
    pytest.importorskip("gym3", reason="the Procgen reference needs gym3==0.3.3 (--no-deps)")
    if "procgen" not in sys.modules:
        if not (folder / "procgen" / "env.py").is_file():
            with zipfile.ZipFile(wheel()) as archive:
                archive.extractall(folder)
        package = types.ModuleType("procgen")
        package.__path__ = [str(folder / "procgen")]
        sys.modules["procgen"] = package
        _gym_or_stand_in()
    return importlib.import_module("procgen.env")


def _gym_or_stand_in() -> None:
    """gym itself where it is installed (gym 0.26.2 comes with envpool's torchrl extra),
    else the stand-in modules."""
    try:
        import gym.envs.registration
        import gym.spaces  # noqa: F401
    except Exception:  # gym 0.26 fails to import on some numpy versions
        for name in ("gym", "gym.envs", "gym.envs.registration"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["gym"].spaces = gymnasium.spaces  # type: ignore[attr-defined]
        sys.modules["gym.envs.registration"].register = _never_called  # type: ignore[attr-defined]


def _never_called(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("procgen's gym registration is not used by the tests")


def gym_env(folder: Path, **kwargs: Any) -> Any:
    """procgen's own gym env, ``gym.make("procgen:procgen-<game>-v0", ...)``."""
    load(folder)
    return importlib.import_module("procgen.gym_registration").make_env(**kwargs)


def random_actions(seed: int, steps: int, num_envs: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 15, size=(steps, num_envs))
