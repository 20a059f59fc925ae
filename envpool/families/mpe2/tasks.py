"""mpe2's scenarios (mpe2 1.1.1), each a multi-agent task: ``envpool.make`` gives a
``MultiAgentEnvPool`` (envpool/multi_agent.py). Every scenario ends its episodes itself
after ``max_cycles`` steps (truncation), so the tasks have no separate time limit."""

from __future__ import annotations

import importlib
from typing import Any

from envpool import numpy_parity
from envpool.registry import register_family, task

_MODULE = "envpool._mpe2"

# task id -> the module's class; each scenario's mpe2 module is its snake_case name
# with the id's version (simple_speaker_listener_v4)
_SCENARIOS = {
    "Simple-v3": "Simple",
    "SimpleAdversary-v3": "SimpleAdversary",
    "SimpleCrypto-v3": "SimpleCrypto",
    "SimplePush-v3": "SimplePush",
    "SimpleReference-v3": "SimpleReference",
    "SimpleSpeakerListener-v4": "SimpleSpeakerListener",
    "SimpleSpread-v3": "SimpleSpread",
    "SimpleTag-v3": "SimpleTag",
    "SimpleWorldComm-v3": "SimpleWorldComm",
    "SimpleLine-v1": "SimpleLine",
    "SimpleFormation-v1": "SimpleFormation",
    "CollectTreasure-v1": "CollectTreasure",
}

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
    if name not in _SCENARIOS.values():
        raise AttributeError(name)
    return getattr(_module(), name)


TABLE = [
    task(task_id, f"envpool.families.mpe2.tasks:{cls}", render_fps=10)
    for task_id, cls in _SCENARIOS.items()
]
register_family("mpe2", TABLE)
