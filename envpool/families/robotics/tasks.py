"""gymnasium-robotics 1.4.2's tasks: so far its 20 PointMaze ids, e.g. PointMaze_UMaze-v3
and PointMaze_Medium_Diverse_GRDense-v3.

Each maze's model is written in memory from its map (``maze_model.py``; gymnasium-robotics
writes it to a temporary file); ``maze_map`` takes a custom map, as gymnasium-robotics'
does. The C++ envs (``envpool._robotics``) link MuJoCo from the pinned ``mujoco`` package
and compute with numpy's own arithmetic, handed over by ``numpy_parity``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from envpool import mujoco_runtime, numpy_parity
from envpool.families.robotics import maze_model
from envpool.registry import OptionNote, register_family, task

# PointMaze's walls (1) and cells; "g" goal, "r" start, "c" either, "0" free
_MAPS: dict[str, str] = {
    "UMaze": "11111/10001/11101/10001/11111",
    "Open": "1111111/1000001/1000001/1000001/1111111",
    "Open_Diverse_G": "1111111/1rgggg1/1ggggg1/1ggggg1/1111111",
    "Open_Diverse_GR": "1111111/1ccccc1/1ccccc1/1ccccc1/1111111",
    "Medium": "11111111/10011001/10010001/11000111/10010001/10100101/10001001/11111111",
    "Medium_Diverse_G": "11111111/1r011001/100100g1/11000111/10010001/1g100101/10001g01/11111111",
    "Medium_Diverse_GR": "11111111/1c011001/100100c1/11000111/10010001/1c100101/10001c01/11111111",
    "Large": (
        "111111111111/100001000001/101101010101/100000010001/101111011101/"
        "100101000001/110101010111/100100010001/111111111111"
    ),
    "Large_Diverse_G": (
        "111111111111/1r0001g00001/101101010101/10000g0100g1/101111011101/"
        "10g101000001/110101010111/1001g0g10g01/111111111111"
    ),
    "Large_Diverse_GR": (
        "111111111111/1c0001c00001/101101010101/10000c0100c1/101111011101/"
        "10c101000001/110101010111/1001c0c10c01/111111111111"
    ),
}
_TIME_LIMITS = {"UMaze": 300, "Open": 300, "Medium": 600, "Large": 800}


def maze_map(name: str) -> list[list[int | str]]:
    """The map of PointMaze_<name> as gymnasium-robotics gives it: rows of 1, 0 and letters."""
    return [[int(c) if c in "01" else c for c in row] for row in _MAPS[name].split("/")]


# PointMaze's fixed model settings (point_maze.py): its agent, cell size and wall height
_POINT_XML = "point/point.xml"
_POINT_SCALING = 1
_POINT_HEIGHT = 0.4
_INTERNAL = (
    "model_xml",
    "goal_locations",
    "reset_locations",
    "maze_size_scaling",
    "maze_height",
    "position_noise_range",
)


def _point_maze_model(layout: list[list[Any]]) -> dict[str, Any]:
    return maze_model.build(_POINT_XML, layout, _POINT_SCALING, _POINT_HEIGHT)


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """A user's ``maze_map`` as the model and cells it makes; the model's own options
    refused (PointMaze fixes them)."""
    for name in _INTERNAL:
        if name in options:
            raise ValueError(
                f"{name} is fixed by PointMaze (or written from maze_map); leave it out"
            )
    if "maze_map" in options:
        options.update(_point_maze_model(options.pop("maze_map")))
    return options


def _hook(name: str) -> Callable[[], dict[str, Any]]:
    return lambda: _point_maze_model(maze_map(name))


_NOTES = {
    "reward_type": OptionNote("'sparse' (1 within 0.45 of the goal) or 'dense' (exp(-distance))"),
    "continuing_task": OptionNote("True: reaching the goal does not end the episode"),
    "reset_target": OptionNote("with continuing_task, a reached goal moves to a new cell"),
    "model_xml": OptionNote("written by envpool from maze_map"),
    "goal_locations": OptionNote("written by envpool from maze_map"),
    "reset_locations": OptionNote("written by envpool from maze_map"),
}


def _rows() -> list[Any]:
    rows = []
    for name in _MAPS:
        limit = _TIME_LIMITS[name.split("_")[0]]
        for reward_type, suffix in (("sparse", ""), ("dense", "Dense")):
            rows.append(
                task(
                    f"PointMaze_{name}{suffix}-v3",
                    "envpool.families.robotics.tasks:PointMaze",
                    max_episode_steps=limit,
                    option_hook=_hook(name),
                    convert_options=_options,
                    extra_options={"maze_map": maze_map(name)},
                    option_notes=_NOTES,
                    render_fps=50,
                    goal_api="envpool.families.robotics.goals:maze_goals",
                    reward_type=reward_type,
                )
            )
    return rows


TABLE = _rows()
register_family("robotics", TABLE)

NUMPY_LOOPS: list[str] = []
"""What numpy_parity handed envpool._robotics (numpy's ddot and exp loop)."""


def __getattr__(name: str) -> Any:
    """The env classes, loaded on first use (after checking the mujoco package)."""
    if name != "PointMaze":
        raise AttributeError(name)
    mujoco_runtime.load_library()
    module = importlib.import_module("envpool._robotics")
    NUMPY_LOOPS[:] = numpy_parity.install_once(module)
    return getattr(module, name)
