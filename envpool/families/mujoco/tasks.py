"""The MuJoCo tasks (gymnasium's v5 locomotion and manipulation tasks), e.g. HalfCheetah-v5.

Their C++ module ``envpool._mujoco`` links the MuJoCo library that the pinned
``mujoco`` package ships; this module checks that package before loading it.
Model files come from the installed gymnasium's MuJoCo assets.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from envpool import mujoco_runtime, numpy_parity
from envpool.registry import register_family, task

# task id -> (C++ class, gymnasium's TimeLimit)
TASKS: dict[str, tuple[str, int]] = {
    "Ant-v5": ("Ant", 1000),
    "HalfCheetah-v5": ("HalfCheetah", 1000),
    "Hopper-v5": ("Hopper", 1000),
    "Humanoid-v5": ("Humanoid", 1000),
    "HumanoidStandup-v5": ("HumanoidStandup", 1000),
    "InvertedDoublePendulum-v5": ("InvertedDoublePendulum", 1000),
    "InvertedPendulum-v5": ("InvertedPendulum", 1000),
    "Pusher-v5": ("Pusher", 100),
    "Reacher-v5": ("Reacher", 50),
    "Swimmer-v5": ("Swimmer", 1000),
    "Walker2d-v5": ("Walker2d", 1000),
}


# The timestep of each task's model file, for gymnasium's render_fps = 1 / (timestep * frame_skip).
MODEL_TIMESTEP = {
    "Ant-v5": 0.01,
    "HalfCheetah-v5": 0.01,
    "Hopper-v5": 0.002,
    "Humanoid-v5": 0.003,
    "HumanoidStandup-v5": 0.003,
    "InvertedDoublePendulum-v5": 0.01,
    "InvertedPendulum-v5": 0.02,
    "Pusher-v5": 0.01,
    "Reacher-v5": 0.01,
    "Swimmer-v5": 0.01,
    "Walker2d-v5": 0.002,
}


def assets_dir() -> str:
    """gymnasium's folder of MuJoCo model files (gymnasium/envs/mujoco/assets)."""
    return mujoco_runtime.gymnasium_assets_dir()


def _options() -> dict[str, Any]:
    return {"assets_dir": assets_dir()}


def _render_fps(dt: float) -> Callable[[Mapping[str, Any]], int]:
    """The frame rate of a task whose model steps ``dt`` seconds (frame_skip per step)."""
    return lambda config: round(1.0 / (dt * config["frame_skip"]))


TABLE = [
    task(
        task_id,
        f"envpool.families.mujoco.tasks:{cls}",
        max_episode_steps=max_episode_steps,
        option_hook=_options,
        render_fps=_render_fps(MODEL_TIMESTEP[task_id]),
    )
    for task_id, (cls, max_episode_steps) in TASKS.items()
]
register_family("mujoco", TABLE)


NUMPY_LOOPS: list[str] = []
"""What numpy_parity handed envpool._mujoco: "blas" when its envs call numpy's own
ddot for np.linalg.norm (Reacher's and Pusher's rewards, distance_from_origin),
whose rounding depends on the CPU's OpenBLAS kernels."""


def __getattr__(name: str) -> Any:
    """The env classes, loaded on first use (after checking the mujoco package)."""
    if name not in {cls for cls, _ in TASKS.values()}:
        raise AttributeError(name)
    mujoco_runtime.load_library()
    module = importlib.import_module("envpool._mujoco")
    NUMPY_LOOPS[:] = numpy_parity.install_once(module)
    return getattr(module, name)
