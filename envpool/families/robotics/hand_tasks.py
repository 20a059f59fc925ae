"""The Shadow Hand's 56 ids of gymnasium-robotics 1.4.2: HandReach[Dense]-v3 and the
54 HandManipulate{Block,Egg,Pen}<variant>[_BooleanTouchSensors|_ContinuousTouchSensors]
[Dense]-v1 ids, as rows of the robotics family's table (tasks.py registers them).

Each row fixes what gymnasium-robotics' id and constructor fix (the model file, the
target kinds, the pen's thresholds) and converts the options a user may pass as
gymnasium-robotics takes them (HandReach's ``initial_qpos`` as a dict of joint names).
Options with which gymnasium-robotics' env cannot run on the ``mujoco`` bindings are
refused with the reason (``relative_control``, ``target_rotation`` "ignore" or "fixed",
HandManipulate's ``initial_qpos``: they call ``MjData.get_joint_qpos`` or
``set_joint_qpos``, which the bindings do not have; ``n_substeps`` other than 20: its
render-rate check fails).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from envpool.families.robotics import maze_model
from envpool.families.robotics.fixed_options import refuse_fixed
from envpool.registry import OptionNote, TaskSpec, task

# the ids' variants: (name, target_position, target_rotation) for each object
_VARIANTS: dict[str, list[tuple[str, str, str]]] = {
    "Block": [
        ("RotateZ", "ignore", "z"),
        ("RotateParallel", "ignore", "parallel"),
        ("RotateXYZ", "ignore", "xyz"),
        ("Full", "random", "xyz"),
        ("", "random", "xyz"),
    ],
    "Egg": [("Rotate", "ignore", "xyz"), ("Full", "random", "xyz"), ("", "random", "xyz")],
    "Pen": [("Rotate", "ignore", "xyz"), ("Full", "random", "xyz"), ("", "random", "xyz")],
}
# the variants that also come with touch sensors (every one but Full)
_TOUCH = {"_BooleanTouchSensors": "boolean", "_ContinuousTouchSensors": "sensordata"}
# what MujocoHandPenEnv's constructor fixes
_PEN: dict[str, Any] = {
    "randomize_initial_rotation": False,
    "ignore_z_target_rotation": True,
    "distance_threshold": 0.05,
}

# HandReach's start (reach.py's DEFAULT_INITIAL_QPOS): the hand's 24 joints
_REACH_START = {
    "robot0:WRJ1": -0.16514339750464327,
    "robot0:WRJ0": -0.31973286565062153,
    "robot0:FFJ3": 0.14340512546557435,
    "robot0:FFJ2": 0.32028208333591573,
    "robot0:FFJ1": 0.7126053607727917,
    "robot0:FFJ0": 0.6705281001412586,
    "robot0:MFJ3": 0.000246444303701037,
    "robot0:MFJ2": 0.3152655251085491,
    "robot0:MFJ1": 0.7659800313729842,
    "robot0:MFJ0": 0.7323156897425923,
    "robot0:RFJ3": 0.00038520700007378114,
    "robot0:RFJ2": 0.36743546201985233,
    "robot0:RFJ1": 0.7119514095008576,
    "robot0:RFJ0": 0.6699446327514138,
    "robot0:LFJ4": 0.0525442258033891,
    "robot0:LFJ3": -0.13615534724474673,
    "robot0:LFJ2": 0.39872030433433003,
    "robot0:LFJ1": 0.7415570009679252,
    "robot0:LFJ0": 0.704096378652974,
    "robot0:THJ4": 0.003673823825070126,
    "robot0:THJ3": 0.5506291436028695,
    "robot0:THJ2": -0.014515151997119306,
    "robot0:THJ1": -0.0015229223564485414,
    "robot0:THJ0": -0.7894883021600622,
}

_INTERNAL = ("model_file", "frame_skip", "assets_dir", "initial_qpos_names", "initial_qpos_values")
_BROKEN_GET_JOINT_QPOS = (
    "gymnasium-robotics' env then calls MjData.get_joint_qpos, which the mujoco bindings "
    "do not have (AttributeError), so there is no behaviour to reproduce"
)


def _initial_qpos(value: Any) -> dict[str, Any]:
    """``initial_qpos`` ({joint name: value or values}) as the two options the C++ takes."""
    if not isinstance(value, Mapping):
        raise ValueError(
            f"initial_qpos must be a dict of joint names to positions, got {type(value).__name__}"
        )
    values: list[float] = []
    for name, position in value.items():
        if not isinstance(name, str) or "," in name:
            raise ValueError(f"initial_qpos: {name!r} is not a joint name")
        flat = [position] if isinstance(position, (int, float)) else list(position)
        values += [float(v) for v in flat]
    return {"initial_qpos_names": ",".join(value), "initial_qpos_values": values}


def _convert(
    fixed: tuple[str, ...], reach: bool = False
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def convert(options: dict[str, Any]) -> dict[str, Any]:
        refuse_fixed(
            options,
            (*_INTERNAL, *fixed),
            "this Hand task (gymnasium-robotics' constructor sets it)",
        )
        if options.pop("relative_control", False):
            raise ValueError(f"relative_control=True is not supported: {_BROKEN_GET_JOINT_QPOS}")
        if options.get("target_rotation") in ("ignore", "fixed"):
            raise ValueError(
                f"target_rotation={options['target_rotation']!r} is not supported: "
                f"{_BROKEN_GET_JOINT_QPOS}; use 'z', 'parallel' or 'xyz'"
            )
        n_substeps = options.pop("n_substeps", 20)
        if n_substeps != 20:
            raise ValueError(
                f"n_substeps must be 20, got {n_substeps!r}: gymnasium-robotics' Hand envs "
                "check that 1 / dt equals their render rate of 25 and stop otherwise"
            )
        if "initial_qpos" in options and not reach:
            raise ValueError(
                "initial_qpos is not supported by the HandManipulate tasks: gymnasium-"
                "robotics' ManipulateEnv sets it with MjData.set_joint_qpos, which the mujoco "
                "bindings do not have (AttributeError), so there is no behaviour to reproduce"
            )
        if "initial_qpos" in options:
            options.update(_initial_qpos(options.pop("initial_qpos")))
        return options

    return convert


def _model(path: str) -> Callable[[], dict[str, Any]]:
    return lambda: {"model_file": os.path.join(maze_model.assets_dir(), "hand", path)}


_NOTES = {
    "target_position": OptionNote("'ignore', 'fixed' or 'random' (within the task's range)"),
    "target_rotation": OptionNote("'z', 'parallel' or 'xyz' (the task's rotations)"),
    "touch_get_obs": OptionNote("'sensordata', 'boolean' or 'log' (touch ids only)"),
    "touch_visualisation": OptionNote("'on_touch', 'always' or 'off': the frames' touch sites"),
    "initial_qpos": OptionNote("{joint name: position} set before the start state is taken"),
    "model_file": OptionNote("the task's model in gymnasium-robotics' assets"),
}
_EXTRA = {"relative_control": False, "n_substeps": 20}


def _manipulate_rows() -> list[TaskSpec]:
    rows = []
    for obj, variants in _VARIANTS.items():
        pen = _PEN if obj == "Pen" else {}
        for variant, position, rotation in variants:
            touches = {"": ""} | ({} if variant == "Full" else _TOUCH)
            for touch_suffix, touch in touches.items():
                model = f"manipulate_{obj.lower()}{'_touch_sensors' if touch else ''}.xml"
                fixed = (*pen, "target_position_range")
                if not touch:
                    fixed = (*fixed, "touch_get_obs", "touch_visualisation")
                for reward_type, suffix in (("sparse", ""), ("dense", "Dense")):
                    rows.append(
                        task(
                            f"HandManipulate{obj}{variant}{touch_suffix}{suffix}-v1",
                            "envpool.families.robotics.tasks:HandManipulate",
                            max_episode_steps=100,
                            option_hook=_model(model),
                            convert_options=_convert(fixed),
                            extra_options=_EXTRA,
                            option_notes=_NOTES,
                            render_fps=25,
                            goal_api="envpool.families.robotics.goals:hand_goals",
                            reward_type=reward_type,
                            target_position=position,
                            target_rotation=rotation,
                            touch_get_obs=touch,
                            **pen,
                        )
                    )
    return rows


def _reach_rows() -> list[TaskSpec]:
    return [
        task(
            f"HandReach{suffix}-v3",
            "envpool.families.robotics.tasks:HandReach",
            max_episode_steps=50,
            option_hook=_model("reach.xml"),
            convert_options=_convert((), reach=True),
            extra_options={**_EXTRA, "initial_qpos": dict(_REACH_START)},
            option_notes=_NOTES,
            render_fps=25,
            goal_api="envpool.families.robotics.goals:reach_goals",
            reward_type=reward_type,
            **_initial_qpos(_REACH_START),
        )
        for reward_type, suffix in (("sparse", ""), ("dense", "Dense"))
    ]


def hand_rows() -> list[TaskSpec]:
    """HandReach's 2 rows, then the 54 HandManipulate rows."""
    return _reach_rows() + _manipulate_rows()
