"""mpe2's scenarios (mpe2 1.1.1), each a multi-agent task: ``envpool.make`` gives a
``MultiAgentEnvPool`` (envpool/multi_agent.py). Every scenario ends its episodes itself
after ``max_cycles`` steps (truncation), so the tasks have no separate time limit."""

from __future__ import annotations

import importlib
import re
from typing import Any

from envpool import numpy_parity
from envpool.registry import register_family, task

_MODULE = "envpool._mpe2"

# The task ids: each is its class in envpool._mpe2 with mpe2's version, and names its
# scenario's module in mpe2 (the reference): SimpleSpeakerListener-v4 is the class
# SimpleSpeakerListener and mpe2.simple_speaker_listener_v4.
_TASK_IDS = (
    "Simple-v3",
    "SimpleAdversary-v3",
    "SimpleCrypto-v3",
    "SimplePush-v3",
    "SimpleReference-v3",
    "SimpleSpeakerListener-v4",
    "SimpleSpread-v3",
    "SimpleTag-v3",
    "SimpleWorldComm-v3",
    "SimpleLine-v1",
    "SimpleFormation-v1",
    "CollectTreasure-v1",
)
_CLASSES = {task_id: task_id.split("-")[0] for task_id in _TASK_IDS}


def _mpe2_module(task_id: str) -> str:
    """``SimpleSpeakerListener-v4`` -> ``simple_speaker_listener_v4``."""
    cls, version = task_id.split("-")
    return re.sub(r"(?<!^)([A-Z])", r"_\1", cls).lower() + "_" + version


MPE2_MODULES = {task_id: _mpe2_module(task_id) for task_id in _TASK_IDS}
"""Each task's scenario in mpe2: ``mpe2.<module>.parallel_env(**options)``."""

_numpy_loops_installed = False
NUMPY_LOOPS: list[str] = []
"""The numpy functions whose own float64 kernels the scenarios call (np.exp in the
boundary penalty of simple_tag and simple_world_comm, np.cos, np.sin and np.arctan2 in
simple_line's and simple_formation's slots, the BLAS's ddot in np.linalg.norm),
installed on first use."""


def _module() -> Any:
    """envpool._mpe2, handed numpy's float64 loops the first time."""
    global _numpy_loops_installed
    module = importlib.import_module(_MODULE)
    if not _numpy_loops_installed:
        NUMPY_LOOPS.extend(numpy_parity.install(module))
        _numpy_loops_installed = True
    return module


def __getattr__(name: str) -> Any:
    """The env classes (the table's entry points), loaded on first use."""
    if name not in set(_CLASSES.values()):
        raise AttributeError(name)
    return getattr(_module(), name)


TABLE = [
    task(
        task_id,
        f"envpool.families.mpe2.tasks:{cls}",
        render_fps=10,
        # the C++ env hands over the scene, which this draws as mpe2 does
        frame_drawer="envpool.families.mpe2.render:draw_frame",
    )
    for task_id, cls in _CLASSES.items()
]
register_family("mpe2", TABLE)
