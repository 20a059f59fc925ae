"""gymnasium's Box2D tasks LunarLander, BipedalWalker and CarRacing, served by
``envpool._box2d``.

The extension links the Box2D 2.3 C++ engine, built from the pinned box2d-py source
package (third_party/box2d). Time limits, frame rates and options are gymnasium 1.4's.
An env's action type is fixed in C++, so LunarLander's and CarRacing's ``continuous``
option picks one of two classes. CarRacing needs pygame (its score's font), as
gymnasium's CarRacing does; the others' rgb_array frames follow the installed pygame's
drawing rules (pygame_rules.py).
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


def _frame_rules(render_mode: str | None) -> dict[str, Any]:
    # rgb_array frames follow the installed pygame's drawing rules (pygame_rules.py)
    if render_mode != "rgb_array":
        return {}
    import importlib

    from envpool.families.box2d import pygame_rules

    return {"pygame_ce": pygame_rules.pygame_ce_for_frames(importlib.import_module(_BOX2D))}


def _lander_render_options(render_mode: str | None) -> dict[str, Any]:
    # gymnasium simulates the exhaust particles only when it renders frames
    return {"render_particles": render_mode == "rgb_array", **_frame_rules(render_mode)}


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
            render_options=_lander_render_options,
            continuous=continuous,
        )
        for task_id, continuous in (("LunarLander-v3", False), ("LunarLanderContinuous-v3", True))
    ),
    *(
        task(
            task_id,
            f"{_BOX2D}:BipedalWalker",
            max_episode_steps=max_episode_steps,
            render_fps=_FPS,
            render_options=_frame_rules,
            hardcore=hardcore,
        )
        for task_id, max_episode_steps, hardcore in (
            ("BipedalWalker-v3", 1600, False),
            ("BipedalWalkerHardcore-v3", 2000, True),
        )
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
