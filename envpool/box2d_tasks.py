"""gymnasium's Box2D tasks (LunarLander, BipedalWalker, CarRacing), served by ``envpool._box2d``.

The extension links the Box2D 2.3 C++ engine, built from the pinned box2d-py source
package (third_party/box2d). Time limits, reward thresholds and frame rates are gymnasium 1.4's.
"""

from __future__ import annotations

from envpool.registry import register

_FAMILY = "box2d"
_BOX2D = "envpool._box2d"
_FPS = 50  # gymnasium's metadata["render_fps"] for all three

register(
    "LunarLander-v3",
    f"{_BOX2D}:LunarLander",
    max_episode_steps=1000,
    render_fps=_FPS,
    family=_FAMILY,
)
register(
    "LunarLanderContinuous-v3",
    f"{_BOX2D}:LunarLander",
    max_episode_steps=1000,
    render_fps=_FPS,
    continuous=True,
    family=_FAMILY,
)
register(
    "BipedalWalker-v3",
    f"{_BOX2D}:BipedalWalker",
    max_episode_steps=1600,
    render_fps=_FPS,
    family=_FAMILY,
)
register(
    "BipedalWalkerHardcore-v3",
    f"{_BOX2D}:BipedalWalker",
    max_episode_steps=2000,
    render_fps=_FPS,
    hardcore=True,
    family=_FAMILY,
)
register(
    "CarRacing-v3", f"{_BOX2D}:CarRacing", max_episode_steps=1000, render_fps=_FPS, family=_FAMILY
)
