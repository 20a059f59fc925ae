"""The C++ canvas behind the Box2D frames draws exactly what pygame 2.6.1 draws, and
what pygame-ce 2.5.8 draws, for the calls gymnasium's Box2D renderers make.

Every case replays the same commands with the installed pygame (on a pygame.Surface,
as gymnasium's renderers do) and with ``envpool._box2d._draw_commands`` (by
pygame-ce's rules when the installed pygame is pygame-ce), then requires identical
pixels. CI runs this file under both (.ci/run's tests and pygame-ce steps).
"""

from __future__ import annotations

import math
import os
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pygame
import pytest

from envpool import _box2d
from envpool.families.box2d import pygame_rules

Command = tuple[Any, ...]

PYGAME_CE = bool(getattr(pygame, "IS_CE", False))


def draw_with_canvas(width: int, height: int, commands: list[Command]) -> np.ndarray:
    return _box2d._draw_commands(width, height, commands, pygame_ce=PYGAME_CE)


@pytest.fixture(scope="module", autouse=True)
def _pygame_initialised() -> None:
    pygame.display.init()


def draw_with_pygame(width: int, height: int, commands: list[Command]) -> np.ndarray:
    return pygame_rules.draw_with_pygame(pygame, width, height, commands)


def assert_same(width: int, height: int, commands: list[Command]) -> None:
    expected = draw_with_pygame(width, height, commands)
    actual = draw_with_canvas(width, height, commands)
    assert actual.shape == expected.shape
    if not np.array_equal(actual, expected):
        diff = np.argwhere(np.any(actual != expected, axis=2))
        y, x = diff[0]
        raise AssertionError(
            f"{len(diff)} pixels differ, first at (x={x}, y={y}): "
            f"pygame {expected[y, x]} vs canvas {actual[y, x]}; commands={commands!r}"
        )


def random_color(rng: np.random.Generator) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(0, 256, size=3))  # type: ignore[return-value]


def random_points(
    rng: np.random.Generator, n: int, low: float, high_x: float, high_y: float
) -> list[tuple[float, float]]:
    return [(float(rng.uniform(low, high_x)), float(rng.uniform(low, high_y))) for _ in range(n)]


W, H = 64, 48

SHAPE_KINDS = ("polygon", "aapolygon", "filled_polygon")


@pytest.mark.parametrize("kind", SHAPE_KINDS)
def test_random_polygons_match(kind: str) -> None:
    rng = np.random.default_rng(1)
    for _ in range(150):
        n = int(rng.integers(3, 9))
        spread = float(rng.choice([4.0, 20.0, 80.0]))
        points = random_points(rng, n, -spread / 4, W + spread / 4, H + spread / 4)
        commands: list[Command] = [("fill", random_color(rng)), (kind, random_color(rng), points)]
        assert_same(W, H, commands)


@pytest.mark.parametrize("kind", SHAPE_KINDS)
def test_adversarial_polygons_match(kind: str) -> None:
    cases: list[list[tuple[float, float]]] = [
        [(0.5, 0.5), (0.6, 0.6), (0.7, 0.5)],  # sub-pixel
        [(-5.0, 10.0), (70.0, 10.4), (30.0, 10.9)],  # one row high
        [(10.0, -30.0), (10.9, 80.0), (11.5, 20.0)],  # one column wide
        [(5.0, 5.0), (60.0, 5.0), (60.0, 40.0), (30.0, 10.0), (5.0, 40.0)],  # concave
        [(-100.0, -100.0), (-50.0, -100.0), (-70.0, -20.0)],  # fully off-surface
        [(-1e4, -1e4), (1e4, -1e4), (1e4, 1e4), (-1e4, 1e4)],  # huge, covers all
        [(-40000.0, 20.0), (40000.0, 21.0), (100.0, 30.0)],  # wraps in Sint16
        [(-3.7, -2.2), (20.2, 47.9), (63.99, -0.01), (30.0, 24.0)],  # negative fractions
        [(0.0, 0.0), (63.0, 47.0), (0.0, 47.0), (63.0, 0.0)],  # self-intersecting
        [(10.0, 10.0), (10.0, 10.0), (10.0, 10.0)],  # degenerate point
        [(32.0, 0.0), (33.0, 47.0), (31.0, 47.0)],  # steep, thin
        [(0.0, 24.0), (63.0, 25.0), (0.0, 26.0)],  # flat, thin
        [(5.0, 5.0), (25.0, 25.0), (5.0, 25.0)],  # exact diagonals
        [(60.0, 3.0), (3.0, 44.0), (60.0, 44.0), (40.0, 20.0)],
    ]
    for points in cases:
        assert_same(W, H, [("fill", (200, 180, 160)), (kind, (10, 60, 250), points)])


def test_polygon_with_huge_ints_and_nan_matches() -> None:
    # pygame turns such floats into INT_MIN; the canvas must match and stay in bounds.
    points = [(3e9, 5.0), (-3e9, 40.0), (20.0, 30.0), (1e12, 10.0)]
    assert_same(W, H, [("polygon", (255, 0, 0), points)])
    nan_points = [(math.nan, 5.0), (30.0, 40.0), (20.0, 10.0)]
    assert_same(W, H, [("polygon", (255, 0, 0), nan_points)])
    assert_same(W, H, [("line", (255, 0, 0), (math.nan, 3.0), (30.0, 4.0), 3)])
    assert_same(W, H, [("circle", (255, 0, 0), (math.nan, 3.0), 5.0)])
    # gfxdraw refuses NaN (pygame raises); the canvas draws nothing.
    with pytest.raises((ValueError, OverflowError)):
        draw_with_pygame(W, H, [("aapolygon", (1, 2, 3), nan_points)])
    blank = draw_with_canvas(W, H, [("aapolygon", (1, 2, 3), nan_points)])
    assert not blank.any()


def test_nan_and_huge_rows_stay_in_bounds() -> None:
    # pygame would scan ~2^31 rows (or aaline steps) here: NaN and 1e12 become
    # INT_MIN. The canvas only visits visible pixels, so this has to finish, in
    # bounds.
    points = [(10.0, math.nan), (30.0, 40.0), (20.0, 1e12), (-1e300, math.inf)]
    for kind in ("polygon", "aalines", "lines", "line", "circle"):
        if kind == "polygon":
            command: Command = (kind, (1, 2, 3), points)
        elif kind == "aalines":
            command = (kind, (1, 2, 3), True, points)
        elif kind == "lines":
            command = (kind, (1, 2, 3), True, points, 4)
        elif kind == "line":
            command = (kind, (1, 2, 3), points[0], points[2], 3)
        else:
            command = (kind, (1, 2, 3), points[3], 1e12)
        out = draw_with_canvas(W, H, [command])
        assert out.shape == (H, W, 3)


def test_stacked_aapolygons_blend_like_pygame() -> None:
    rng = np.random.default_rng(2)
    commands: list[Command] = [("fill", (255, 255, 255))]
    for _ in range(40):
        points = random_points(rng, int(rng.integers(3, 7)), -10, W + 10, H + 10)
        color = random_color(rng)
        commands.append(("polygon", color, points))
        commands.append(("aapolygon", color, points))
        commands.append(("filled_polygon", color, points))
    assert_same(W, H, commands)


def test_circles_match() -> None:
    rng = np.random.default_rng(3)
    commands: list[Command] = [("fill", (0, 0, 0))]
    for _ in range(80):
        center = (float(rng.uniform(-20, W + 20)), float(rng.uniform(-20, H + 20)))
        radius = float(rng.choice([0.5, 1.0, 1.9, 3.0, 7.3, 20.0, 90.0]))
        commands.append(("circle", random_color(rng), center, radius))
    assert_same(W, H, commands)


def test_lines_match() -> None:
    rng = np.random.default_rng(4)
    commands: list[Command] = [("fill", (255, 255, 255))]
    for _ in range(80):
        a, b = random_points(rng, 2, -30, W + 30, H + 30)
        width = int(rng.choice([1, 1, 2, 3, 5]))
        commands.append(("line", random_color(rng), a, b, width))
    for _ in range(20):
        points = random_points(rng, int(rng.integers(2, 6)), -30, W + 30, H + 30)
        commands.append(("lines", random_color(rng), bool(rng.integers(2)), points, 2))
    commands.append(("line", (1, 2, 3), (5.0, 5.0), (5.0, 5.0), 3))
    commands.append(("line", (1, 2, 3), (-1e6, 10.0), (1e6, 12.0), 2))
    assert_same(W, H, commands)


# pygame-ce reads past its buffer for an aalines of two points (its first segment's
# turn test looks at a third point), so its polylines here have three or more.
FEWEST_AALINES_POINTS = 3 if PYGAME_CE else 2


@pytest.mark.parametrize("whole", [False, True], ids=["fractional", "whole-pixel"])
def test_aalines_match(whole: bool) -> None:
    # pygame-ce leaves out a segment's end pixels unless its vertex lies on whole
    # pixel coordinates, and draws them anyway where the polyline turns between steep
    # and shallow: both kinds of vertex, open and closed, many turns.
    rng = np.random.default_rng(5 + whole)
    commands: list[Command] = [("fill", (30, 40, 50))]
    for _ in range(80):
        points = random_points(
            rng, int(rng.integers(FEWEST_AALINES_POINTS, 7)), -20, W + 20, H + 20
        )
        if whole:
            points = [(float(round(x)), float(round(y))) for x, y in points]
        commands.append(("aalines", random_color(rng), bool(rng.integers(2)), points))
    end = [] if FEWEST_AALINES_POINTS == 2 else [(30.0, 30.5)]
    commands.append(("aalines", (9, 9, 9), False, [(3.2, 3.2), (3.20001, 3.2), *end]))
    commands.append(("aalines", (9, 9, 9), False, [(-1e7, 3.0), (1e7, 40.0), *end]))
    commands.append(("aalines", (9, 9, 9), True, [(5.0, 5.0), (40.0, 9.0), (44.0, 38.0)]))
    assert_same(W, H, commands)


def test_aaline_matches() -> None:
    # BipedalWalker draws its terrain edges and flag pole with pygame.draw.aaline.
    # Vertical segments (the pole) included.
    rng = np.random.default_rng(8)
    segments = [random_points(rng, 2, -20, W + 20, H + 20) for _ in range(60)]
    segments += [[(14.0, 6.6), (14.0, 36.6)], [(20.5, -3.0), (20.5, 60.0)], [(2.0, 9.0)] * 2]
    commands: list[Command] = [("fill", (30, 40, 50))]
    for i, (start, end) in enumerate(segments):
        color = ((i * 37) % 256, (i * 91) % 256, 255 - i)
        commands.append(("aaline", color, start, end))
    assert_same(W, H, commands)


def test_flip_matches() -> None:
    commands: list[Command] = [
        ("fill", (0, 0, 0)),
        ("polygon", (255, 0, 0), [(0.0, 0.0), (30.0, 0.0), (0.0, 20.0)]),
        ("flip",),
    ]
    assert_same(W, H, commands)


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ((1000, 800), (96, 96)),
        ((64, 48), (200, 100)),
        ((64, 48), (64, 20)),
        ((50, 50), (80, 30)),
        ((37, 23), (37, 23)),
        ((1, 5), (7, 9)),
        ((1000, 800), (1, 1)),
        ((7, 1), (2000, 3)),
        ((2, 3), (1, 800)),
        ((513, 257), (999, 2)),
    ],
)
def test_smoothscale_matches(src: tuple[int, int], dst: tuple[int, int]) -> None:
    rng = np.random.default_rng(6)
    w, h = src
    commands: list[Command] = [("fill", random_color(rng))]
    for _ in range(30):
        points = random_points(rng, 4, -10, w + 10, h + 10)
        commands.append(("polygon", random_color(rng), points))
        commands.append(("aapolygon", random_color(rng), points))
    commands.append(("smoothscale", dst[0], dst[1]))
    assert_same(w, h, commands)


@pytest.mark.parametrize("size", [(96, 96), (41, 233), (301, 17), (600, 500), (299, 240)])
def test_smoothscale_of_noise_matches(size: tuple[int, int]) -> None:
    # Random per-pixel content stresses the 16-bit accumulators.
    rng = np.random.default_rng(7)
    w, h = 300, 240
    image = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
    assert_same(w, h, [("pixels", image), ("smoothscale", size[0], size[1])])
    bright = np.full((h, w, 3), 255, dtype=np.uint8)
    assert_same(w, h, [("pixels", bright), ("smoothscale", size[0], size[1])])


def test_random_command_mix_matches() -> None:
    # Mixed sequences (each command drawn over the previous ones' pixels), on
    # surfaces of random size, with spreads from sub-pixel to beyond Sint16.
    rng = np.random.default_rng(8)
    for _ in range(300):
        w, h = int(rng.integers(1, 120)), int(rng.integers(1, 90))
        commands: list[Command] = [("fill", random_color(rng))]
        for _ in range(5):
            spread = float(rng.choice([2.0, 10.0, 50.0, 300.0, 70000.0]))
            points = random_points(rng, int(rng.integers(3, 8)), -spread, w + spread, h + spread)
            if rng.random() < 0.3:
                points = [(float(round(x)), float(round(y))) for x, y in points]
            color = random_color(rng)
            kind = int(rng.integers(0, 8))
            if kind == 0:
                commands.append(("polygon", color, points))
            elif kind == 1:
                commands.append(("aapolygon", color, points))
            elif kind == 2:
                commands.append(("filled_polygon", color, points))
            elif kind == 3:
                commands.append(("circle", color, points[0], float(rng.uniform(0, spread))))
            elif kind == 4:
                commands.append(("line", color, points[0], points[1], int(rng.integers(1, 8))))
            elif kind == 5:
                closed = bool(rng.integers(2))
                commands.append(("lines", color, closed, points, int(rng.integers(1, 6))))
            elif kind == 6:
                closed = bool(rng.integers(2))
                commands.append(("aalines", color, closed, points))
            else:
                commands.append(("flip",))
        if rng.random() < 0.3:
            commands.append(("smoothscale", int(rng.integers(1, 200)), int(rng.integers(1, 200))))
        assert_same(w, h, commands)


def test_lunar_lander_like_frame_matches() -> None:
    # The drawing order of gymnasium's LunarLander.render on its 600x400 surface.
    rng = np.random.default_rng(9)
    commands: list[Command] = [("rect", (255, 255, 255), 0, 0, 600, 400)]
    chunk_x = [600 / 10 * i for i in range(11)]
    heights = rng.uniform(0, 400 / 2, size=11)
    for i in range(10):
        poly = [(chunk_x[i], heights[i]), (chunk_x[i + 1], heights[i + 1])]
        poly += [(chunk_x[i + 1], 0.0), (chunk_x[i], 0.0)]
        commands.append(("polygon", (0, 0, 0), poly))
        commands.append(("aapolygon", (0, 0, 0), poly))
    for _ in range(12):
        cx, cy = rng.uniform(0, 600), rng.uniform(0, 400)
        angle = rng.uniform(0, 2 * math.pi)
        path = [
            (cx + 14 * math.cos(angle + k * 2.1), cy + 9 * math.sin(angle + k * 2.1))
            for k in range(3)
        ]
        fill, edge = random_color(rng), random_color(rng)
        commands.append(("polygon", fill, path))
        commands.append(("aapolygon", fill, path))
        commands.append(("aalines", edge, True, path))
        commands.append(("circle", fill, (cx, cy), float(rng.uniform(1, 8))))
    commands.append(("line", (255, 255, 255), (300.5, 120.0), (300.5, 170.0), 1))
    commands.append(("polygon", (204, 204, 0), [(300.0, 170.0), (300.0, 160.0), (325.0, 165.0)]))
    commands.append(("aapolygon", (204, 204, 0), [(300.0, 170.0), (300.0, 160.0), (325.0, 165.0)]))
    commands.append(("flip",))
    assert_same(600, 400, commands)
