"""gymnasium's Box2D tasks LunarLander, BipedalWalker and CarRacing, served by
``envpool._box2d``.

The extension links the Box2D 2.3 C++ engine, built from the pinned box2d-py source
package (third_party/box2d). Time limits, frame rates and options are gymnasium 1.4's.
An env's action type is fixed in C++, so LunarLander's and CarRacing's ``continuous``
option picks one of two classes. CarRacing needs pygame (its score's font), as
gymnasium's CarRacing does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envpool.registry import register_family, task

_FAMILY = "box2d"
_BOX2D = "envpool._box2d"
_FPS = 50  # gymnasium's metadata["render_fps"]


def _lunar_lander_class(options: Mapping[str, Any]) -> str:
    continuous = bool(options.get("continuous", False))
    return f"{_BOX2D}:{'LunarLanderContinuous' if continuous else 'LunarLander'}"


def _car_racing_class(options: Mapping[str, Any]) -> str:
    # The score in CarRacing's frame is drawn with pygame's font, read once per
    # process (envpool/families/box2d/score_font.py).
    import importlib

    from envpool.families.box2d import score_font as box2d_score_font

    box2d_score_font.install(importlib.import_module(_BOX2D))
    continuous = bool(options.get("continuous", True))
    return f"{_BOX2D}:{'CarRacing' if continuous else 'CarRacingDiscrete'}"


TABLE = [
    *(
        task(
            task_id,
            _lunar_lander_class({"continuous": continuous}),
            max_episode_steps=1000,
            render_fps=_FPS,
            class_for=_lunar_lander_class,
            continuous=continuous,
        )
        for task_id, continuous in (("LunarLander-v3", False), ("LunarLanderContinuous-v3", True))
    ),
    task("BipedalWalker-v3", f"{_BOX2D}:BipedalWalker", max_episode_steps=1600, render_fps=_FPS),
    task(
        "BipedalWalkerHardcore-v3",
        f"{_BOX2D}:BipedalWalker",
        max_episode_steps=2000,
        render_fps=_FPS,
        hardcore=True,
    ),
    task(
        "CarRacing-v3",
        f"{_BOX2D}:CarRacing",
        max_episode_steps=1000,
        render_fps=_FPS,
        class_for=_car_racing_class,
    ),
]
register_family(_FAMILY, TABLE)
