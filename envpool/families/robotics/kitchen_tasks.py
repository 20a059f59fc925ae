"""gymnasium-robotics 1.4.2's FrankaKitchen-v1 as a row of the robotics family's table
(tasks.py registers it).

The model and the arm's joint bounds and noise amplitudes are read from gymnasium-robotics'
assets (``franka_config.xml``, as its FrankaRobot reads them); the options are
KitchenEnv's (``tasks_to_complete`` a list of task names, ``terminate_on_tasks_completed``,
``remove_task_when_completed``, ``object_noise_ratio``) and FrankaRobot's
(``robot_noise_ratio``, ``frame_skip``).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Any

from envpool.families.robotics import maze_model
from envpool.families.robotics.fixed_options import refuse_fixed
from envpool.registry import OptionNote, TaskSpec, task

# the seven tasks, in gymnasium-robotics' order (its default tasks_to_complete)
KITCHEN_TASKS = (
    "bottom burner",
    "top burner",
    "light switch",
    "slide cabinet",
    "hinge cabinet",
    "microwave",
    "kettle",
)
# the state KitchenEnv starts every episode from
_INIT_QPOS = (
    1.48388023e-01, -1.76848573e00, 1.84390296e00, -2.47685760e00, 2.60252026e-01,
    7.12533105e-01, 1.59515394e00, 4.79267505e-02, 3.71350919e-02, -2.66279850e-04,
    -5.18043486e-05, 3.12877220e-05, -4.51199853e-05, -3.90842156e-06, -4.22629655e-05,
    6.28065475e-05, 4.04984708e-05, 4.62730939e-04, -2.26906415e-04, -4.65501369e-04,
    -6.44129196e-03, -1.77048263e-03, 1.08009684e-03, -2.69397440e-01, 3.50383255e-01,
    1.61944683e00, 1.00618764e00, 4.06395120e-03, -6.62095997e-03, -2.68278933e-04,
)  # fmt: skip
_MODEL = "kitchen_franka/kitchen_assets/kitchen_env_model.xml"
_CONFIG = "kitchen_franka/franka_assets/franka_config.xml"
_INTERNAL: tuple[str, ...] = ("model_file", "init_qpos", "pos_bound", "vel_bound")
_INTERNAL += ("pos_noise_amp", "vel_noise_amp", "assets_dir")


def _arm_config(path: str) -> dict[str, list[float]]:
    """franka_config.xml's bounds and noise amplitudes of qpos0, qpos1, ... (one node
    each, as many as the model's dofs: 29)."""
    root = ET.parse(path).getroot()
    out: dict[str, list[float]] = {"pos_bound": [], "vel_bound": []}
    out.update(pos_noise_amp=[], vel_noise_amp=[])
    for i in range(29):
        node = root.find(f"qpos{i}")
        if node is None:
            raise ValueError(f"{path}: no node qpos{i}")
        for name in out:
            values = [float(v) for v in (node.get(name) or "").split()]
            out[name] += values if "bound" in name else values[:1]
    return out


def _hook() -> dict[str, Any]:
    assets = maze_model.assets_dir()
    return {
        "model_file": os.path.join(assets, _MODEL),
        **_arm_config(os.path.join(assets, _CONFIG)),
    }


def _convert(options: dict[str, Any]) -> dict[str, Any]:
    refuse_fixed(options, _INTERNAL, "FrankaKitchen-v1")
    if "tasks_to_complete" in options:
        tasks = options["tasks_to_complete"]
        if isinstance(tasks, str) or not all(isinstance(t, str) for t in tasks):
            raise ValueError(f"tasks_to_complete must be a list of task names, got {tasks!r}")
        for name in tasks:
            if name not in KITCHEN_TASKS:
                raise ValueError(
                    f"tasks_to_complete: the task {name!r} is not one of {list(KITCHEN_TASKS)}"
                )
        options["tasks_to_complete"] = ",".join(dict.fromkeys(tasks))
    frame_skip = options.get("frame_skip", 40)
    if not isinstance(frame_skip, int) or round(1.0 / (0.002 * frame_skip)) != 12:
        raise ValueError(
            f"frame_skip must be 40 to 43, got {frame_skip!r}: gymnasium-robotics' "
            "KitchenEnv checks that 1 / dt rounds to its render rate of 12 and stops otherwise"
        )
    return options


_NOTES = {
    "tasks_to_complete": OptionNote(f"a list of task names from {list(KITCHEN_TASKS)}"),
    "terminate_on_tasks_completed": OptionNote("end the episode once every task is done"),
    "remove_task_when_completed": OptionNote("a done task gives no more reward"),
    "model_file": OptionNote("gymnasium-robotics' kitchen model"),
}


def kitchen_rows() -> list[TaskSpec]:
    return [
        task(
            "FrankaKitchen-v1",
            "envpool.families.robotics.tasks:FrankaKitchen",
            max_episode_steps=280,
            option_hook=_hook,
            convert_options=_convert,
            option_notes=_NOTES,
            render_fps=12,
            goal_api="envpool.families.robotics.goals:kitchen_goals",
            init_qpos=list(_INIT_QPOS),
            tasks_to_complete=",".join(KITCHEN_TASKS),
        )
    ]
