"""pygame for the families whose frames are drawn in Python, as their references draw
them: imported quietly on the first frame, or an ImportError that says what to install."""

from __future__ import annotations

import importlib
import os
from typing import Any


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
