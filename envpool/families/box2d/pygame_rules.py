"""Which pygame's drawing rules the Box2D frames follow.

gymnasium draws its Box2D frames with whichever ``pygame`` module is installed.
``pip install "gymnasium[box2d]"`` installs pygame-ce (which replaces pygame's module);
envpool's test extra installs pygame 2.6.1. The two fill polygons, draw lines and draw
anti-aliased polylines by different rules, so gymnasium's frames differ between them.
envpool's C++ canvas follows either (cpp/envpool/box2d/pygame_ce_draw.h): CarRacing is
told which by its score font (score_font.py), LunarLander and BipedalWalker by their
``pygame_ce`` option, which ``make(render_mode="rgb_array")`` sets from the installed
pygame (pygame-ce's rules when none is installed: what gymnasium's extra would bring).
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from typing import Any

import numpy as np

# The pygames whose Box2D frames envpool's are tested equal to, frame for frame.
VERIFIED_PYGAMES = ("pygame 2.6.1", "pygame-ce 2.5.8")

_checked_frames = False


def is_pygame_ce(pygame: Any) -> bool:
    """Whether the ``pygame`` module is pygame-ce's."""
    return bool(getattr(pygame, "IS_CE", False))


def pygame_name(pygame: Any) -> str:
    """ "pygame 2.6.1" or "pygame-ce 2.5.8": the installed distribution and version."""
    return f"{'pygame-ce' if is_pygame_ce(pygame) else 'pygame'} {pygame.version.ver}"


def installed_pygame() -> Any | None:
    """The ``pygame`` module, imported quietly, or None where none is installed."""
    if importlib.util.find_spec("pygame") is None:
        return None
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    return pygame


def draw_with_pygame(pygame: Any, width: int, height: int, commands: list) -> np.ndarray:
    """``commands`` (``_box2d._draw_commands``'s format) drawn with pygame itself, as an
    (height, width, 3) uint8 array: the reference the C++ canvas is checked against."""
    from pygame import gfxdraw

    draw = pygame.draw
    calls = {  # called as call(surface, *the command's arguments)
        "fill": lambda s, color: s.fill(color),
        "rect": lambda s, color, *xywh: draw.rect(s, color, pygame.Rect(*xywh)),
        "polygon": draw.polygon,
        "aapolygon": lambda s, color, points: gfxdraw.aapolygon(s, points, color),
        "filled_polygon": lambda s, color, points: gfxdraw.filled_polygon(s, points, color),
        "circle": draw.circle,
        "line": draw.line,
        "lines": draw.lines,
        "aalines": draw.aalines,
        "aaline": draw.aaline,
        "pixels": lambda s, rgb: pygame.surfarray.blit_array(s, np.transpose(rgb, (1, 0, 2))),
    }
    surf = pygame.Surface((width, height))
    for name, *args in commands:
        if name == "flip":
            surf = pygame.transform.flip(surf, False, True)
        elif name == "smoothscale":
            surf = pygame.transform.smoothscale(surf, (args[0], args[1]))
        elif name in calls:
            calls[name](surf, *args)
        else:
            raise ValueError(name)
    return np.transpose(np.array(pygame.surfarray.pixels3d(surf)), (1, 0, 2))


def draws_alike(module: Any, pygame: Any, commands: list) -> bool:
    """Whether envpool's canvas (``module._draw_commands``, by the rules of ``pygame``'s
    flavour) draws ``commands`` as the installed ``pygame`` does, on a 64x48 surface."""
    expected = draw_with_pygame(pygame, 64, 48, commands)
    got = module._draw_commands(64, 48, commands, pygame_ce=is_pygame_ce(pygame))
    return bool(np.array_equal(expected, got))


def lander_walker_probe() -> list[tuple[Any, ...]]:
    """Drawing calls of the kinds LunarLander and BipedalWalker make, on a 64x48 surface,
    some crossing its edges."""
    rng = np.random.default_rng(20261127)
    commands: list[tuple[Any, ...]] = [("fill", (255, 255, 255))]
    for n in (3, 4, 6):
        points = [(float(x), float(y)) for x, y in rng.uniform(-12, 76, size=(n, 2))]
        color = tuple(int(v) for v in rng.integers(0, 256, size=3))
        commands.append(("polygon", color, points))
        commands.append(("aapolygon", color, points))
        commands.append(("aalines", color[::-1], True, points))
        commands.append(("lines", color[::-1], True, points, 1))
        commands.append(("aaline", color, points[0], points[1]))
        commands.append(("line", color, points[1], points[2], 1))
        commands.append(("circle", color, points[0], float(rng.uniform(1, 9))))
    return commands


def pygame_ce_for_frames(module: Any) -> bool:
    """The ``pygame_ce`` option of LunarLander's and BipedalWalker's frames: the
    installed pygame's flavour, or pygame-ce's where none is installed. A pygame other
    than the verified ones is checked once per process: if it draws their calls
    differently, a warning says the frames may differ from gymnasium's."""
    global _checked_frames
    pygame = installed_pygame()
    if pygame is None:
        return True
    if not _checked_frames:
        _checked_frames = True
        name = pygame_name(pygame)
        if name not in VERIFIED_PYGAMES and not draws_alike(module, pygame, lander_walker_probe()):
            warnings.warn(
                f"envpool draws LunarLander's and BipedalWalker's frames as "
                f"{' and '.join(VERIFIED_PYGAMES)} do; the installed {name} draws them "
                "differently, so the rgb_array frames may differ from gymnasium's by a "
                'few pixels. pip install "pygame-ce==2.5.8" (what gymnasium[box2d] '
                "installs) gives frames equal to gymnasium's.",
                RuntimeWarning,
                stacklevel=4,
            )
    return is_pygame_ce(pygame)
