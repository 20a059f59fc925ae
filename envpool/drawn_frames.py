"""What the families whose frames are drawn in Python share (mpe2, classic control, toy
text; envpool/frame_drawer.py calls their drawers): the numbers the C++ env's
``Render`` wrote (cpp/envpool/core/render_scene.h), pygame imported quietly on the first
frame (or an ImportError that says what to install), and a drawn surface as a frame."""

from __future__ import annotations

import importlib
import os
from typing import Any

import numpy as np


def scene_numbers(rendered: np.ndarray) -> np.ndarray:
    """The float64 numbers of one env's scene (the bytes its ``Render`` wrote)."""
    return np.frombuffer(np.ascontiguousarray(rendered), dtype=np.float64)


def import_pygame(frames: str, reference: str, install: str, *submodules: str) -> Any:
    """The ``pygame`` module with ``submodules`` (e.g. ``"gfxdraw"``) loaded; without
    pygame, an ImportError naming ``frames`` (whose frames need it), the ``reference``
    that draws them so, and the ``install`` command."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        pygame = importlib.import_module("pygame")
        for name in submodules:
            importlib.import_module(f"pygame.{name}")
    except ImportError:
        raise ImportError(
            f"{frames} frames are drawn with pygame, as {reference} draws them: {install}"
        ) from None
    return pygame


def surface_frame(pygame: Any, surface: Any, upside_down: bool = False) -> np.ndarray:
    """``surface`` as a writable C-ordered (height, width, 3) uint8 frame, the values of
    ``np.transpose(np.array(pixels3d(surface)), (1, 0, 2))`` (of the surface flipped top to
    bottom, with ``upside_down``), from pygame's own RGB export: a third of the time a
    strided numpy copy of the surface takes."""
    rgb = bytearray(pygame.image.tobytes(surface, "RGB", upside_down))
    return np.frombuffer(rgb, np.uint8).reshape(surface.get_height(), surface.get_width(), 3)
