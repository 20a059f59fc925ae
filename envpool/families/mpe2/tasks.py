"""mpe2's scenarios (mpe2 1.1.1), each a multi-agent task: ``envpool.make`` gives a
``MultiAgentEnvPool`` (envpool/multi_agent.py). Every scenario ends its episodes itself
after ``max_cycles`` steps (truncation), so the tasks have no separate time limit."""

from __future__ import annotations

import importlib
import numbers
import re
from typing import Any

from envpool import numpy_parity
from envpool.registry import OptionNote, register_family, task

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

NUMPY_LOOPS: list[str] = []
"""The numpy functions whose own float64 kernels the scenarios call (np.exp in the
boundary penalty of simple_tag and simple_world_comm, np.cos, np.sin and np.arctan2 in
simple_line's and simple_formation's slots, the BLAS's ddot in np.linalg.norm, and
np.argsort, which orders the nearest neighbours of num_agent_neighbors and
num_landmark_neighbors), installed on first use."""


def _module() -> Any:
    """envpool._mpe2, handed numpy's float64 loops the first time."""
    module = importlib.import_module(_MODULE)
    NUMPY_LOOPS[:] = numpy_parity.install_once(module)
    return module


def __getattr__(name: str) -> Any:
    """The env classes (the table's entry points), loaded on first use."""
    if name not in set(_CLASSES.values()):
        raise AttributeError(name)
    return getattr(_module(), name)


NEIGHBOR_OPTIONS = ("num_agent_neighbors", "num_landmark_neighbors")
"""mpe2's partial-observability options: each agent observes only the k other agents /
landmarks nearest to it (None, the default: all of them). The env's config holds None
as 0."""
NEIGHBOR_TASKS = ("SimpleAdversary-v3", "SimpleSpread-v3", "SimpleTag-v3")
"""The tasks that take NEIGHBOR_OPTIONS."""


def _neighbor_count(name: str, value: Any) -> int:
    """One value of a NEIGHBOR_OPTIONS option in the env's config: None as 0, a positive
    int as itself; anything else refused as mpe2 refuses it (an int, not a bool)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            f"{name} must be a positive integer or None, got {type(value).__name__} {value!r}"
        )
    if value < 1:
        raise ValueError(f"{name} must be a positive integer or None, got {value!r}")
    return int(value)


def _neighbor_options(options: dict[str, Any]) -> dict[str, Any]:
    """NEIGHBOR_OPTIONS in the env's config (one value, or a list of one per env)."""
    for name in NEIGHBOR_OPTIONS:
        if name in options:
            value = options[name]
            if isinstance(value, (list, tuple)):
                options[name] = [_neighbor_count(name, v) for v in value]
            else:
                options[name] = _neighbor_count(name, value)
    return options


_NEIGHBOR_NOTES = {
    name: OptionNote(
        f"None: all of them; k >= 1: the k nearest {what} (mpe2's default None)", zero_is_none=True
    )
    for name, what in zip(NEIGHBOR_OPTIONS, ("agents", "landmarks"), strict=True)
}

TABLE = [
    task(
        task_id,
        f"envpool.families.mpe2.tasks:{cls}",
        render_fps=10,
        # the C++ env hands over the scene, which this draws as mpe2 does
        frame_drawer="envpool.families.mpe2.render:draw_frame",
        convert_options=_neighbor_options if task_id in NEIGHBOR_TASKS else None,
        option_notes=_NEIGHBOR_NOTES if task_id in NEIGHBOR_TASKS else None,
    )
    for task_id, cls in _CLASSES.items()
]
register_family("mpe2", TABLE)
