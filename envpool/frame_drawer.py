"""Frames that a task draws in Python, from what its C++ env's ``Render`` writes.

Most envs write their rgb_array frame itself. A task whose registry row names a
``frame_drawer`` (``"module:function"``, registry.TaskSpec.frame_drawer) writes the
numbers its frame is drawn from instead (a scene), and ``function(scene, spec)`` draws
the frame with the same pygame calls as the reference: the classic-control tasks and
mpe2's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

from envpool.spec import EnvSpec


class FrameDrawer:
    """Turns the pool's ``render`` output into one frame per env."""

    def __init__(self, drawer: str | None, spec: EnvSpec) -> None:
        self._drawer = drawer
        self._spec = spec
        self._draw: Callable[[np.ndarray, EnvSpec], np.ndarray] | None = None

    def frames(self, rendered: Any) -> tuple[np.ndarray, ...]:
        """One (height, width, 3) uint8 frame per env of ``rendered``."""
        if self._drawer is None:
            return tuple(rendered)
        if self._draw is None:  # the drawer (and pygame) load on the first frame
            module, _, name = self._drawer.partition(":")
            self._draw = getattr(importlib.import_module(module), name)
        return tuple(self._draw(scene, self._spec) for scene in rendered)
