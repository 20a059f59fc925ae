"""The classic-control tasks' rgb_array frames, drawn as gymnasium 1.4's ``render()``
draws them: the same pygame calls in the same order, on the same numbers.

The C++ env's ``Render`` writes the few numbers gymnasium's renderer reads, as float64
(cpp/envpool/core/render_scene.h); each ``draw_*`` function here turns one env's
scene into its frame. Where gymnasium holds the state as float32 (Acrobot after a reset,
MountainCarContinuous after a step), the scene says so and the numbers are float32 here
too, so every coordinate handed to pygame is the one gymnasium hands it. The frames are
drawn by the installed pygame, so they equal gymnasium's under pygame and pygame-ce
alike. Needs pygame, as gymnasium's classic-control rendering does; Pendulum's arrow is
gymnasium's own image, read from the installed gymnasium package.
"""

from __future__ import annotations

import importlib.util
import math
import threading
from pathlib import Path
from typing import Any

import numpy as np

from envpool.drawn_frames import import_pygame, scene_numbers, surface_frame

_BLACK = (0, 0, 0)
_WHITE = (255, 255, 255)

_arrow: Any = None
_surfaces = threading.local()


def _pygame() -> Any:
    return import_pygame(
        "the classic-control tasks'",
        "gymnasium",
        'pip install "gymnasium[classic-control]"',
        "gfxdraw",
    )


def _state(value: np.float64, float32: np.float64) -> np.floating:
    """A state number as gymnasium holds it: float32 where the scene's flag says so."""
    return np.float32(value) if float32 else np.float64(value)


def _canvas(pygame: Any, width: int, height: int) -> Any:
    """A white surface of that size: this thread's own, reused from frame to frame (a
    new one costs more than the drawing)."""
    surfaces = _surfaces.__dict__.setdefault("by_size", {})
    if (width, height) not in surfaces:
        surfaces[width, height] = pygame.Surface((width, height))
    surface = surfaces[width, height]
    surface.fill(_WHITE)
    return surface


def _filled(pygame: Any, surface: Any, points: list, color: tuple[int, int, int]) -> None:
    pygame.gfxdraw.aapolygon(surface, points, color)
    pygame.gfxdraw.filled_polygon(surface, points, color)


def _disc(pygame: Any, surface: Any, x: int, y: int, r: int, color: tuple[int, int, int]) -> None:
    pygame.gfxdraw.aacircle(surface, x, y, r, color)
    pygame.gfxdraw.filled_circle(surface, x, y, r, color)


def _rotated(pygame: Any, corners: list, angle: Any, dx: Any, *dys: Any) -> list:
    """Each corner turned by ``angle`` about the origin, then moved by ``dx`` across and
    by each of ``dys`` in turn up (added one at a time, as gymnasium adds them)."""
    moved = []
    for corner in corners:
        turned = pygame.math.Vector2(corner).rotate_rad(angle)
        y = turned[1]
        for dy in dys:
            y = y + dy
        moved.append((turned[0] + dx, y))
    return moved


def _frame(pygame: Any, surface: Any) -> np.ndarray:
    return surface_frame(pygame, surface, upside_down=True)  # gymnasium's y axis points up


def draw_cartpole(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """CartPole's (400, 600, 3) frame from its scene: (x, theta)."""
    pygame = _pygame()
    x, theta = scene_numbers(rendered)
    width, height = 600, 400
    scale = width / (2.4 * 2)
    pole_width, pole_length = 10.0, scale * (2 * 0.5)
    cart_width, cart_height = 50.0, 30.0
    axle_offset = cart_height / 4.0
    cart_x = x * scale + width / 2.0
    cart_y = 100
    surface = _canvas(pygame, width, height)
    half_w, half_h = cart_width / 2, cart_height / 2
    cart = [(-half_w, -half_h), (-half_w, half_h), (half_w, half_h), (half_w, -half_h)]
    _filled(pygame, surface, [(cx + cart_x, cy + cart_y) for cx, cy in cart], _BLACK)
    half = pole_width / 2
    top = pole_length - half
    pole = [(-half, -half), (-half, top), (half, top), (half, -half)]
    _filled(
        pygame,
        surface,
        _rotated(pygame, pole, -theta, cart_x, cart_y, axle_offset),
        (202, 152, 101),
    )
    axle = (int(cart_x), int(cart_y + axle_offset), int(half))
    _disc(pygame, surface, *axle, (129, 132, 203))
    pygame.gfxdraw.hline(surface, 0, width, cart_y, _BLACK)
    return _frame(pygame, surface)


def draw_acrobot(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """Acrobot's (500, 500, 3) frame from its scene: (theta1, theta2, float32 flag)."""
    pygame = _pygame()
    theta1_raw, theta2_raw, float32 = scene_numbers(rendered)
    theta1, theta2 = _state(theta1_raw, float32), _state(theta2_raw, float32)
    size = 500
    link = 1.0  # both links' length
    scale = size / ((link + link + 0.2) * 2)
    offset = size / 2
    elbow = [-link * np.cos(theta1) * scale, link * np.sin(theta1) * scale]
    joints = np.array([[0, 0], elbow])[:, ::-1]  # (x, y) of the shoulder and the elbow
    angles = [theta1 - np.pi / 2, theta1 + theta2 - np.pi / 2]
    surface = _canvas(pygame, size, size)
    ends = ((-2.2 * scale + offset, 1 * scale + offset), (2.2 * scale + offset, 1 * scale + offset))
    pygame.draw.line(surface, _BLACK, *ends)
    for (jx, jy), angle in zip(joints, angles, strict=True):
        x, y = jx + offset, jy + offset
        length, half = link * scale, 0.1 * scale
        bar = [(0, -half), (0, half), (length, half), (length, -half)]
        _filled(pygame, surface, _rotated(pygame, bar, angle, x, y), (0, 204, 204))
        _disc(pygame, surface, int(x), int(y), int(0.1 * scale), (204, 204, 0))
    return _frame(pygame, surface)


def _track_height(position: Any) -> Any:
    return np.sin(3 * position) * 0.45 + 0.55


def draw_mountain_car(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """MountainCar's and MountainCarContinuous's (400, 600, 3) frame from their scene:
    (position, float32 flag, the flag's position)."""
    pygame = _pygame()
    position_raw, float32, goal_raw = scene_numbers(rendered)
    position, goal = _state(position_raw, float32), float(goal_raw)
    width, height = 600, 400
    low, high = -1.2, 0.6
    scale = width / (high - low)
    car_width, car_height = 40, 20
    surface = _canvas(pygame, width, height)
    xs = np.linspace(low, high, 100)
    track = list(zip((xs - low) * scale, _track_height(xs) * scale, strict=True))
    pygame.draw.aalines(surface, points=track, closed=False, color=_BLACK)
    clearance = 10
    tilt = math.cos(3 * position)
    along = (position - low) * scale
    lift = _track_height(position) * scale
    half = car_width / 2
    body = [(-half, 0), (-half, car_height), (half, car_height), (half, 0)]
    _filled(pygame, surface, _rotated(pygame, body, tilt, along, clearance, lift), _BLACK)
    axles = [(car_width / 4, 0), (-car_width / 4, 0)]
    for wheel_x, wheel_y in _rotated(pygame, axles, tilt, along, clearance, lift):
        _disc(pygame, surface, int(wheel_x), int(wheel_y), int(car_height / 2.5), (128, 128, 128))
    flag_x = int((goal - low) * scale)
    flag_y1 = int(_track_height(goal) * scale)
    flag_y2 = flag_y1 + 50
    pygame.gfxdraw.vline(surface, flag_x, flag_y1, flag_y2, _BLACK)
    flag = [(flag_x, flag_y2), (flag_x, flag_y2 - 10), (flag_x + 25, flag_y2 - 5)]
    _filled(pygame, surface, flag, (204, 204, 0))
    return _frame(pygame, surface)


def arrow_path() -> Path:
    """gymnasium's torque arrow (envs/classic_control/assets/clockwise.png), found in the
    installed gymnasium package."""
    spec = importlib.util.find_spec("gymnasium")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(location) / "envs" / "classic_control" / "assets" / "clockwise.png"
        if path.is_file():
            return path
    raise FileNotFoundError(
        "Pendulum's frames show gymnasium's torque arrow "
        "(gymnasium/envs/classic_control/assets/clockwise.png), which envpool does not "
        "ship and the installed gymnasium lacks: pip install --force-reinstall gymnasium"
    )


def draw_pendulum(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """Pendulum's (500, 500, 3) frame from its scene: (theta, whether a torque was
    applied since the reset, that torque)."""
    global _arrow
    pygame = _pygame()
    theta, has_torque, torque = scene_numbers(rendered)
    size = 500
    scale = size / (2.2 * 2)
    offset = size // 2
    rod_length, rod_width = 1 * scale, 0.2 * scale
    red = (204, 77, 77)
    surface = _canvas(pygame, size, size)
    half = rod_width / 2
    rod = [(0, -half), (0, half), (rod_length, half), (rod_length, -half)]
    angle = theta + np.pi / 2
    _filled(pygame, surface, _rotated(pygame, rod, angle, offset, offset), red)
    _disc(pygame, surface, offset, offset, int(half), red)
    end = pygame.math.Vector2((rod_length, 0)).rotate_rad(angle)
    _disc(pygame, surface, int(end[0] + offset), int(end[1] + offset), int(half), red)
    if has_torque:
        if _arrow is None:
            _arrow = pygame.image.load(str(arrow_path()))
        last_u = np.float32(torque)  # gymnasium keeps the clipped torque as float32
        side = float(scale * np.abs(last_u) / 2)
        arrow = pygame.transform.smoothscale(_arrow, (side, side))
        arrow = pygame.transform.flip(arrow, bool(last_u > 0), True)
        box = arrow.get_rect()
        surface.blit(arrow, (offset - box.centerx, offset - box.centery))
    _disc(pygame, surface, offset, offset, int(0.05 * scale), _BLACK)
    return _frame(pygame, surface)
