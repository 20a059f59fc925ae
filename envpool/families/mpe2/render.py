"""The frames of the mpe2 tasks (``render_mode="rgb_array"``), drawn as mpe2's
``SimpleEnv.draw`` (and collect_treasure's own ``draw``) draws them, with the same pygame
calls in the same order: a white 700x700 surface, each entity a filled circle with a 1px
black border, and each speaking agent's message in mpe2's font.

The C++ env's ``render`` hands over the scene, not pixels (cpp/envpool/mpe2/scene.h
describes its layout); ``draw_frame`` turns one env's scene into its (700, 700, 3) uint8
frame. Needs pygame (mpe2 installs pygame-ce), imported on the first frame, and, for a
task whose agents speak, mpe2's font file, read from the installed mpe2 package
(envpool does not ship it).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np

from envpool.drawn_frames import import_pygame, scene_numbers, surface_frame

_WIDTH = 700
_HEIGHT = 700
_FONT_SIZE = 24
_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# scene.h: the header's length, and each entity's columns before its utterance c
_HEADER = 6
_COLUMNS = 10
_COLORS = 4

_font: Any = None


def _pygame() -> Any:
    # the agents' messages are drawn with pygame.freetype
    return import_pygame("the mpe2 tasks'", "mpe2", "pip install pygame-ce", "freetype")


def font_path() -> Path:
    """mpe2's font (mpe2/_mpe_utils/secrcode.ttf), which mpe2 writes the agents'
    messages in, found in the installed mpe2 package without importing it."""
    spec = importlib.util.find_spec("mpe2")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / "_mpe_utils" / "secrcode.ttf"
        if path.is_file():
            return path
    raise FileNotFoundError(
        "the frames of this mpe2 task show its agents' messages in mpe2's font "
        "(mpe2/_mpe_utils/secrcode.ttf), which envpool does not ship: "
        "pip install --no-deps mpe2==1.1.1"
    )


def _message_font(pygame: Any) -> Any:
    """mpe2's game_font: its font file at size 24, loaded once, and again after a
    pygame.quit() (mpe2's env.close() calls it) has shut pygame's freetype down."""
    global _font
    if _font is None or not pygame.freetype.get_init():
        pygame.freetype.init()
        _font = pygame.freetype.Font(str(font_path()), _FONT_SIZE)
    return _font


def _word(c: np.ndarray, continuous: bool) -> str:
    """What mpe2 shows an agent saying: "_" for silence, else its utterance."""
    if np.all(c == 0):
        return "_"
    if continuous:
        return "[" + ",".join(f"{comm:.2f}" for comm in c) + "]"
    return _ALPHABET[np.argmax(c)]


def draw_frame(rendered: np.ndarray, spec: Any) -> np.ndarray:
    """One env's (700, 700, 3) uint8 frame from its scene (the bytes of ``render``);
    ``spec``: the pool's EnvSpec (the agents' names)."""
    pygame = _pygame()
    scene = scene_numbers(rendered)
    original_cam_range = scene[0]
    num_entities, num_agents, dim_c = (int(v) for v in scene[1:4])
    continuous, dynamic_rescaling = bool(scene[4]), bool(scene[5])
    rows = scene[_HEADER:].reshape(num_entities, _COLUMNS + dim_c)
    names = list(spec.agent_observation_spaces)

    screen = pygame.Surface([_WIDTH, _HEIGHT])
    screen.fill((255, 255, 255))
    drawn = rows[rows[:, 0] != 0]
    # every entity but collect_treasure's picked-up treasures (which its draw skips)
    cam_range = np.max(np.abs(drawn[:, 1:3]))
    if cam_range == 0:  # collect_treasure's guard; the positions are never all 0
        cam_range = 1.0
    scaling_factor = 0.9 * original_cam_range / cam_range
    text_line = 0
    for index, row in enumerate(rows):
        if not row[0]:
            continue
        # mpe2's arithmetic, in its order and types (np.float64 positions)
        x, y = row[1:3]
        y *= -1
        x = (x / cam_range) * _WIDTH // 2 * 0.9
        y = (y / cam_range) * _HEIGHT // 2 * 0.9
        x += _WIDTH // 2
        y += _HEIGHT // 2
        size = float(row[3])
        radius = size * 350 * scaling_factor if dynamic_rescaling else size * 350
        color = row[5 : 5 + int(row[4])] * 200
        pygame.draw.circle(screen, color, (x, y), radius)
        pygame.draw.circle(screen, (0, 0, 0), (x, y), radius, 1)
        if index >= num_agents or row[5 + _COLORS]:
            continue  # a landmark, or a silent agent
        word = _word(row[_COLUMNS : _COLUMNS + dim_c], continuous)
        message = names[index] + " sends " + word + "   "
        position = (_WIDTH * 0.05, _HEIGHT * 0.95 - (_HEIGHT * 0.05 * text_line))
        _message_font(pygame).render_to(screen, position, message, (0, 0, 0))
        text_line += 1
    return surface_frame(pygame, screen)
