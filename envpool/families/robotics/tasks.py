"""gymnasium-robotics 1.4.2's tasks: the 20 PointMaze ids (e.g. PointMaze_UMaze-v3,
PointMaze_Medium_Diverse_GRDense-v3), the 60 AntMaze ids (AntMaze_<map>[Dense]-v3, -v4
and -v5, e.g. AntMaze_UMaze-v5), the 8 Fetch v4 ids, the 8 Adroit v1 ids, the
Shadow Hand's 56 (hand_tasks.py) and FrankaKitchen-v1 (kitchen_tasks.py).

Each maze's model is written in memory from its map (``maze_model.py``; gymnasium-robotics
writes it to a temporary file); ``maze_map`` takes a custom map, as gymnasium-robotics'
does. The C++ envs (``envpool._robotics``) link MuJoCo from the pinned ``mujoco`` package
and compute with numpy's own arithmetic, handed over by ``numpy_parity``.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any

from envpool import mujoco_runtime, numpy_parity
from envpool.families.robotics import maze_model
from envpool.families.robotics.fixed_options import refuse_fixed
from envpool.families.robotics.hand_tasks import hand_rows
from envpool.families.robotics.kitchen_tasks import kitchen_rows
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
_ANT_TIME_LIMITS = {"UMaze": 700, "Open": 700, "Medium": 1000, "Large": 1000}


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
    """The maze's model and cells, and PointMaze's camera: further back over a maze of
    more than 8 rows, as gymnasium-robotics sets it."""
    built = maze_model.build(_POINT_XML, layout, _POINT_SCALING, _POINT_HEIGHT)
    return {**built, "camera_distance": 12.5 if len(layout) > 8 else 8.8}


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """A user's ``maze_map`` as the model and cells it makes; the model's own options
    refused (PointMaze fixes them)."""
    refuse_fixed(options, _INTERNAL, "PointMaze (or written from maze_map)")
    if "maze_map" in options:
        built = _point_maze_model(options.pop("maze_map"))
        options.update({k: v for k, v in built.items() if k not in options})
    return options


def _hook(name: str) -> Callable[[], dict[str, Any]]:
    return lambda: _point_maze_model(maze_map(name))


# AntMaze's fixed model settings (ant_maze_v*.py): gymnasium's Ant, 4-unit cells
_ANT_SCALING = 4
_ANT_HEIGHT = 0.5
# the Ant's options each version takes: v3 and v4 pass theirs to Ant-v4, v5 to Ant-v5
_ANT_V4_ONLY = ("use_contact_forces",)
_ANT_V5_ONLY = (
    "xml_file",
    "frame_skip",
    "forward_reward_weight",
    "main_body",
    "include_cfrc_ext_in_observation",
)


def _ant_xml(xml_file: str | None) -> str:
    """The Ant's model file: gymnasium's ant.xml, or Ant-v5's ``xml_file``, a path (as
    gymnasium-robotics reads it: relative to the working directory)."""
    if not xml_file:
        return os.path.join(mujoco_runtime.gymnasium_assets_dir(), "ant.xml")
    path = os.path.abspath(xml_file)
    if not os.path.isfile(path):
        raise ValueError(f"xml_file: the model file {path} does not exist")
    return path


def _ant_maze_model(layout: list[list[Any]], xml_file: str | None = None) -> dict[str, Any]:
    return maze_model.build(_ant_xml(xml_file), layout, _ANT_SCALING, _ANT_HEIGHT)


def _ant_options(version: str, default_map: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """AntMaze's option conversion: the maze (and v5's ``xml_file``) as its model; the
    options of the other Ant version refused, as gymnasium-robotics' constructors do."""
    other = _ANT_V5_ONLY if version != "v5" else _ANT_V4_ONLY
    if version == "v3":
        other = (*other, "reset_target")  # maze.py has none: v3 moves reached goals

    def convert(options: dict[str, Any]) -> dict[str, Any]:
        refuse_fixed(
            options, (*_INTERNAL, "version", "assets_dir"), "AntMaze (or written from maze_map)"
        )
        for name in other:
            if name in options:
                raise ValueError(
                    f"AntMaze {version} does not take {name!r} (its Ant is Ant-"
                    f"{'v5' if version == 'v5' else 'v4'}, its maze logic "
                    f"{'maze.py' if version == 'v3' else 'maze_v4.py'})"
                )
        if "maze_map" in options or options.get("xml_file"):
            layout = options.pop("maze_map", None) or maze_map(default_map)
            options.update(_ant_maze_model(layout, options.get("xml_file")))
        return options

    return convert


def _ant_hook(name: str) -> Callable[[], dict[str, Any]]:
    return lambda: _ant_maze_model(maze_map(name))


_NOTES = {
    "reward_type": OptionNote("'sparse' (1 within 0.45 of the goal) or 'dense' (exp(-distance))"),
    "continuing_task": OptionNote("True: reaching the goal does not end the episode"),
    "reset_target": OptionNote("with continuing_task, a reached goal moves to a new cell"),
    "model_xml": OptionNote("written by envpool from maze_map"),
    "goal_locations": OptionNote("written by envpool from maze_map"),
    "reset_locations": OptionNote("written by envpool from maze_map"),
}


_ANT_NOTES = {
    **_NOTES,
    "reward_type": OptionNote("'sparse' (1 within 0.45 of the goal) or 'dense' (exp(-distance))"),
    "version": OptionNote("the task id's version: v3 and v4 drive Ant-v4, v5 Ant-v5"),
    "xml_file": OptionNote("v5: the Ant's model file (default: gymnasium's ant.xml)"),
    "main_body": OptionNote("v5: the body (an id) whose motion gives the velocities in info"),
    "assets_dir": OptionNote("unused: the model is written from maze_map"),
}


# Fetch v4's tasks (fetch/<task>.py): model file, the MujocoFetchEnv settings each fixes
_FETCH: dict[str, dict[str, Any]] = {
    "Reach": {
        "model_file": "fetch/reach.xml",
        "has_object": False,
        "block_gripper": True,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
        "target_offset": (0.0, 0.0, 0.0),
        "obj_range": 0.15,
        "target_range": 0.15,
        "initial_slides": (0.4049, 0.48, 0.0),
        "initial_object": (),
    },
    "Push": {
        "model_file": "fetch/push.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": 0.0,
        "target_in_the_air": False,
        "target_offset": (0.0, 0.0, 0.0),
        "obj_range": 0.15,
        "target_range": 0.15,
        "initial_slides": (0.405, 0.48, 0.0),
        "initial_object": (1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0),
    },
    "Slide": {
        "model_file": "fetch/slide.xml",
        "has_object": True,
        "block_gripper": True,
        "gripper_extra_height": -0.02,
        "target_in_the_air": False,
        "target_offset": (0.4, 0.0, 0.0),
        "obj_range": 0.1,
        "target_range": 0.3,
        "initial_slides": (0.05, 0.48, 0.0),
        "initial_object": (1.7, 1.1, 0.41, 1.0, 0.0, 0.0, 0.0),
    },
    "PickAndPlace": {
        "model_file": "fetch/pick_and_place.xml",
        "has_object": True,
        "block_gripper": False,
        "gripper_extra_height": 0.2,
        "target_in_the_air": True,
        "target_offset": (0.0, 0.0, 0.0),
        "obj_range": 0.15,
        "target_range": 0.15,
        "initial_slides": (0.405, 0.48, 0.0),
        "initial_object": (1.25, 0.53, 0.4, 1.0, 0.0, 0.0, 0.0),
    },
}
_FETCH_FIXED = (*next(iter(_FETCH.values())), "distance_threshold", "frame_skip", "assets_dir")


def _fetch_options(options: dict[str, Any]) -> dict[str, Any]:
    """Fetch's settings are the task's (gymnasium-robotics' constructors take only
    reward_type and the renderer's options)."""
    refuse_fixed(options, _FETCH_FIXED, "the Fetch task")
    return options


def _fetch_hook(name: str) -> Callable[[], dict[str, Any]]:
    return lambda: {"model_file": os.path.join(maze_model.assets_dir(), _FETCH[name]["model_file"])}


def _fetch_rows() -> list[Any]:
    rows = []
    for name, settings in _FETCH.items():
        for reward_type, suffix in (("sparse", ""), ("dense", "Dense")):
            rows.append(
                task(
                    f"Fetch{name}{suffix}-v4",
                    "envpool.families.robotics.tasks:Fetch",
                    max_episode_steps=50,
                    option_hook=_fetch_hook(name),
                    convert_options=_fetch_options,
                    option_notes=_FETCH_NOTES,
                    render_fps=25,
                    goal_api="envpool.families.robotics.goals:fetch_goals",
                    reward_type=reward_type,
                    **{k: v for k, v in settings.items() if k != "model_file"},
                )
            )
    return rows


_FETCH_NOTES = {
    "reward_type": OptionNote(
        "'sparse' (-1 unless within distance_threshold) or 'dense' (-distance)"
    ),
    "model_file": OptionNote("the task's model in gymnasium-robotics' assets"),
}


# Adroit v1's tasks: their env classes and models; gymnasium-robotics' ids are
# AdroitHand<Task>-v1 (dense) and AdroitHand<Task>Sparse-v1
_ADROIT = ("Door", "Hammer", "Pen", "Relocate")


def _adroit_options(options: dict[str, Any]) -> dict[str, Any]:
    """Adroit's model and physics are the task's (its constructors take reward_type and
    the renderer's options)."""
    refuse_fixed(options, ("model_file", "frame_skip", "assets_dir"), "the Adroit task")
    return options


def _adroit_hook(name: str) -> Callable[[], dict[str, Any]]:
    model = f"adroit_hand/adroit_{name.lower()}.xml"
    return lambda: {"model_file": os.path.join(maze_model.assets_dir(), model)}


def _adroit_rows() -> list[Any]:
    return [
        task(
            f"AdroitHand{name}{suffix}-v1",
            f"envpool.families.robotics.tasks:Adroit{name}",
            max_episode_steps=200,
            option_hook=_adroit_hook(name),
            convert_options=_adroit_options,
            option_notes=_ADROIT_NOTES,
            render_fps=100,
            reward_type=reward_type,
        )
        for name in _ADROIT
        for reward_type, suffix in (("dense", ""), ("sparse", "Sparse"))
    ]


_ADROIT_NOTES = {
    "reward_type": OptionNote("'dense' (shaped) or 'sparse' (10 on success, else -0.1)"),
    "model_file": OptionNote("the task's model in gymnasium-robotics' assets"),
}


def _point_maze_rows() -> list[Any]:
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


def _ant_maze_rows() -> list[Any]:
    rows = []
    for version in ("v3", "v4", "v5"):
        for name in _MAPS:
            limit = _ANT_TIME_LIMITS[name.split("_")[0]]
            for reward_type, suffix in (("sparse", ""), ("dense", "Dense")):
                rows.append(
                    task(
                        f"AntMaze_{name}{suffix}-{version}",
                        "envpool.families.robotics.tasks:AntMaze",
                        max_episode_steps=limit,
                        option_hook=_ant_hook(name),
                        convert_options=_ant_options(version, name),
                        extra_options={"maze_map": maze_map(name)},
                        option_notes=_ANT_NOTES,
                        render_fps=50,
                        goal_api="envpool.families.robotics.goals:maze_goals",
                        reward_type=reward_type,
                        version=version,
                    )
                )
    return rows


TABLE = _point_maze_rows() + _ant_maze_rows() + _fetch_rows() + _adroit_rows() + hand_rows()
TABLE += kitchen_rows()
register_family("robotics", TABLE)

NUMPY_LOOPS: list[str] = []
"""What numpy_parity handed envpool._robotics (numpy's loops, BLAS and normal sampler)."""
_ENV_CLASSES = (
    "PointMaze",
    "AntMaze",
    "Fetch",
    *(f"Adroit{a}" for a in _ADROIT),
    "HandManipulate",
    "HandReach",
    "FrankaKitchen",
)


def __getattr__(name: str) -> Any:
    """The env classes, loaded on first use (after checking the mujoco package)."""
    if name not in _ENV_CLASSES:
        raise AttributeError(name)
    mujoco_runtime.load_library()
    module = importlib.import_module("envpool._robotics")
    NUMPY_LOOPS[:] = numpy_parity.install_once(module)
    return getattr(module, name)
