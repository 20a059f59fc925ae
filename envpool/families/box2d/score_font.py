"""The installed pygame as CarRacing's frames depend on it: the score's glyphs, and
which pygame's drawing rules to follow.

gymnasium writes the score with ``pygame.font.Font(pygame.font.get_default_font(), 42)``
(anti-aliased, white on black). envpool keeps no font data: on the first CarRacing
make() this module renders each character the score can use with that same pygame
font, reads the font's kerning pairs from its ``kern`` table, and hands both to the
C++ side, which lays strings out as SDL_ttf does (cpp/envpool/box2d/score_font.h).
CarRacing therefore needs pygame, as gymnasium's CarRacing does.

pygame 2.6 and pygame-ce (which gymnasium 1.4's extras install; it replaces the
``pygame`` module) render the font differently and fill polygons and draw thick lines
by different rules, so gymnasium's frames differ between them. The C++ canvas follows
either (pygame_rules.py), picked here from ``pygame.IS_CE``. Before
the first env is made, a few drawing calls of the kinds CarRacing makes are drawn with
the installed pygame and with envpool's canvas; a pygame whose drawing differs from
both verified ones is refused with a message that names them.
"""

from __future__ import annotations

import os
import struct
from typing import Any

import numpy as np

from envpool.families.box2d.pygame_rules import (
    VERIFIED_PYGAMES,
    draws_alike,
    is_pygame_ce,
    pygame_name,
)

CHARACTERS = "0123456789-"
FONT_SIZE = 42

_installed = False


def _kern_pairs(path: str) -> dict[tuple[int, int], int]:
    """The format-0 subtables of a TrueType ``kern`` table: (left, right) glyph ids to
    font units."""
    with open(path, "rb") as f:
        data = f.read()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    kern = None
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"kern":
            kern = offset
    pairs: dict[tuple[int, int], int] = {}
    if kern is None:
        return pairs
    version, n_sub = struct.unpack_from(">HH", data, kern)
    if version != 0:
        return pairs
    pos = kern + 4
    for _ in range(n_sub):
        _, length, coverage = struct.unpack_from(">HHH", data, pos)
        if coverage >> 8 == 0 and coverage & 1:  # format 0, horizontal
            n_pairs = struct.unpack_from(">H", data, pos + 6)[0]
            for k in range(n_pairs):
                left, right, value = struct.unpack_from(">HHh", data, pos + 14 + 6 * k)
                pairs[(left, right)] = value
        pos += length
    return pairs


def _glyph_ids(path: str) -> tuple[dict[str, int], int]:
    """Glyph ids of CHARACTERS (from the cmap's format-4 subtable) and units per em."""
    with open(path, "rb") as f:
        data = f.read()
    num_tables = struct.unpack_from(">H", data, 4)[0]
    tables = {}
    for i in range(num_tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = offset
    units_per_em = struct.unpack_from(">H", data, tables[b"head"] + 18)[0]
    cmap = tables[b"cmap"]
    n = struct.unpack_from(">H", data, cmap + 2)[0]
    for i in range(n):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        sub = cmap + offset
        if struct.unpack_from(">H", data, sub)[0] == 4 and platform in (0, 3):
            seg_x2 = struct.unpack_from(">H", data, sub + 6)[0]
            ends = struct.unpack_from(f">{seg_x2 // 2}H", data, sub + 14)
            starts_at = sub + 16 + seg_x2
            starts = struct.unpack_from(f">{seg_x2 // 2}H", data, starts_at)
            deltas = struct.unpack_from(f">{seg_x2 // 2}h", data, starts_at + seg_x2)
            range_at = starts_at + 2 * seg_x2
            ranges = struct.unpack_from(f">{seg_x2 // 2}H", data, range_at)
            ids = {}
            for ch in CHARACTERS:
                code = ord(ch)
                for s, (end, start, delta, ro) in enumerate(
                    zip(ends, starts, deltas, ranges, strict=True)
                ):
                    if start <= code <= end:
                        if ro == 0:
                            ids[ch] = (code + delta) & 0xFFFF
                        else:
                            at = range_at + 2 * s + ro + 2 * (code - start)
                            gid = struct.unpack_from(">H", data, at)[0]
                            ids[ch] = (gid + delta) & 0xFFFF if gid else 0
                        break
            if len(ids) == len(CHARACTERS):
                return ids, units_per_em
    raise RuntimeError(f"{path}: no usable cmap for the score's characters")


def font_data() -> dict[str, Any]:
    """Glyph coverage images, 26.6 advances and 26.6 kerning for CHARACTERS."""
    try:
        import pygame
        import pygame.font
    except ImportError as e:
        raise ImportError(
            "CarRacing-v3 draws its score with pygame's default font, as gymnasium's "
            "CarRacing does: pip install pygame"
        ) from e
    pygame.font.init()
    name = pygame.font.get_default_font()
    font = pygame.font.Font(name, FONT_SIZE)
    path = os.path.join(os.path.dirname(pygame.__file__), name)
    ids, units_per_em = _glyph_ids(path)
    kern_units = _kern_pairs(path)
    # SDL_ttf 2.20 (pygame 2.6) renders text font.get_height() rows high, SDL_ttf
    # 2.24 (pygame-ce 2.5) a few rows more: the glyphs keep the rendered height.
    height = font.render(CHARACTERS, True, (255, 255, 255), (0, 0, 0)).get_height()
    glyphs = []
    for ch in CHARACTERS:
        surface = font.render(ch, True, (255, 255, 255), (0, 0, 0))
        palette = surface.get_palette()
        if surface.get_bitsize() != 8 or any(
            tuple(palette[i])[:3] != (i, i, i) for i in range(256)
        ):
            raise RuntimeError("pygame's shaded text is not an 8-bit grey ramp here")
        coverage = pygame.surfarray.array2d(surface).T.astype(np.uint8)  # rows, cols
        if coverage.shape[0] != height:
            raise RuntimeError(f"glyph {ch!r} is {coverage.shape[0]} rows, not {height}")
        inked = np.nonzero(coverage.max(axis=0))[0]
        width = int(inked.max()) + 1 if inked.size else 0
        advance = font.metrics(ch)[0][4]
        glyphs.append((advance * 64, width, coverage[:, :width].copy()))
    # The pen moves by the hinted advance plus the kerning, scaled to 26.6 and rounded
    # half away from zero (harfbuzz's em scaling).
    scale = FONT_SIZE * 64
    kerning = np.zeros((len(CHARACTERS), len(CHARACTERS)), np.int64)
    for a, left in enumerate(CHARACTERS):
        for b, right in enumerate(CHARACTERS):
            units = kern_units.get((ids[left], ids[right]), 0)
            rounded = (abs(units) * scale + units_per_em // 2) // units_per_em
            kerning[a, b] = rounded if units >= 0 else -rounded
    return {"height": height, "glyphs": glyphs, "kerning": kerning}


def probe_commands() -> list[tuple[Any, ...]]:
    """Drawing calls of the kinds CarRacing makes (``_box2d._draw_commands``'s
    command format) on a 64x48 surface, some crossing its edges."""
    rng = np.random.default_rng(20241127)
    commands: list[tuple[Any, ...]] = [("fill", (102, 204, 102))]
    for n in (3, 4, 4, 5, 8):
        points = [(float(x), float(y)) for x, y in rng.uniform(-12, 76, size=(n, 2))]
        color = tuple(int(v) for v in rng.integers(0, 256, size=3))
        commands.append(("polygon", color, points))
        commands.append(("aapolygon", color, points))
        commands.append(("filled_polygon", color, points))
    for closed in (False, True):
        points = [(float(x), float(y)) for x, y in rng.uniform(-12, 76, size=(4, 2))]
        commands.append(("lines", (255, 255, 255), closed, points, 2))
    commands.append(("smoothscale", 24, 18))
    return commands


def check_drawing(module: Any, pygame: Any) -> None:
    """Raises if the installed pygame draws CarRacing's calls differently from the
    rules envpool follows for its flavour (pygame or pygame-ce)."""
    if not draws_alike(module, pygame, probe_commands()):
        raise RuntimeError(
            f"CarRacing-v3 reproduces gymnasium's frames as {' and '.join(VERIFIED_PYGAMES)} "
            f"draw them; the installed {pygame_name(pygame)} draws them differently. "
            'Install one of those: pip install "pygame-ce==2.5.8" (what gymnasium[box2d] '
            'installs) or pip uninstall pygame-ce && pip install "pygame==2.6.1"'
        )


def install(module: Any) -> None:
    """Gives ``module`` (envpool._box2d) the score font and the installed pygame's
    drawing rules, once per process."""
    global _installed
    if _installed:
        return
    data = font_data()
    import pygame

    check_drawing(module, pygame)
    module._install_score_font(
        data["height"],
        [advance for advance, _, _ in data["glyphs"]],
        [width for _, width, _ in data["glyphs"]],
        [coverage for _, _, coverage in data["glyphs"]],
        data["kerning"].tolist(),
        pygame_ce=is_pygame_ce(pygame),
    )
    _installed = True
