"""The DeepMind Control Suite tasks (dm_control 1.0.50), e.g. CheetahRun-v1.

The C++ module ``envpool._dmc`` runs each task on libmujoco from the pinned
``mujoco`` package, the library dm_control itself uses. The model files come
from the installed ``dm_control`` package (``pip install envpool[dmc]``): when a
pool is made, the task's model (with its ``n_poles``/``n_links`` variant, or the
manipulator's props) is written to a private folder together with the suite's
common assets, and the C++ envs load it from there.

Each env's reset info holds the episode's start: ``qpos0``/``qvel0`` and, as
``"<model field>:<name>"``, every model value the task drew at random (a target's
position, ...). :func:`start_dm_control_episode` sets a dm_control env to it, so
any episode can be replayed in dm_control.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from envpool import mujoco_runtime, numpy_parity
from envpool.registry import TaskSpec, register_family, task

DM_CONTROL_VERSION = "1.0.50"
_FAMILY = "dmc"
_DMC = "envpool._dmc"
_COMMON_ASSETS = ("materials.xml", "skybox.xml", "visual.xml")


def task_id(domain: str, task: str) -> str:
    """The original EnvPool's id of dm_control's (domain, task), e.g. CheetahRun-v1."""

    def camel(name: str) -> str:
        return "".join(part[:1].upper() + part[1:] for part in name.split("_"))

    return f"{camel(domain)}{camel(task)}-v1"


def domain_task(task_id_: str) -> tuple[str, str]:
    """dm_control's (domain, task) of an envpool DMC task id; KeyError if none."""
    return _DOMAIN_TASK[task_id_]


# domain -> {task: the task's options}. The options select dm_control's task
# variant; model options (n_poles, n_links) pick the model.
_TASK_OPTIONS: dict[str, dict[str, dict[str, Any]]] = {
    "cartpole": {
        "balance": {"swing_up": False, "sparse": False},
        "balance_sparse": {"swing_up": False, "sparse": True},
        "swingup": {"swing_up": True, "sparse": False},
        "swingup_sparse": {"swing_up": True, "sparse": True},
        "two_poles": {"swing_up": True, "sparse": False, "n_poles": 2},
        "three_poles": {"swing_up": True, "sparse": False, "n_poles": 3},
    },
    "fish": {"upright": {"swim": False}, "swim": {"swim": True}},
    "swimmer": {"swimmer6": {"n_links": 6}, "swimmer15": {"n_links": 15}},
    "humanoid": {
        "stand": {"move_speed": 0.0, "pure_state": False},
        "walk": {"move_speed": 1.0, "pure_state": False},
        "run": {"move_speed": 10.0, "pure_state": False},
        "run_pure_state": {"move_speed": 10.0, "pure_state": True},
    },
    "manipulator": {
        "bring_ball": {"use_peg": False, "insert": False},
        "bring_peg": {"use_peg": True, "insert": False},
        "insert_ball": {"use_peg": False, "insert": True},
        "insert_peg": {"use_peg": True, "insert": True},
    },
    "cheetah": {"run": {}},
    "hopper": {"stand": {"hopping": False}, "hop": {"hopping": True}},
    "walker": {
        "stand": {"move_speed": 0.0},
        "walk": {"move_speed": 1.0},
        "run": {"move_speed": 8.0},
    },
    "ball_in_cup": {"catch": {}},
    "finger": {
        "spin": {"turn": False},
        "turn_easy": {"turn": True, "target_radius": 0.07},
        "turn_hard": {"turn": True, "target_radius": 0.03},
    },
    "acrobot": {"swingup": {"sparse": False}, "swingup_sparse": {"sparse": True}},
    "pendulum": {"swingup": {}},
    "point_mass": {"easy": {"randomize_gains": False}, "hard": {"randomize_gains": True}},
    "reacher": {"easy": {"target_size": 0.05}, "hard": {"target_size": 0.015}},
    "quadruped": {
        "walk": {"desired_speed": 0.5, "fetch": False},
        "run": {"desired_speed": 5.0, "fetch": False},
        "fetch": {"fetch": True},
    },
}


def _cpp_class(domain: str) -> str:
    """The domain's C++ class: its name in CamelCase, as domains.cmake names it."""
    return "".join(word[:1].upper() + word[1:] for word in domain.split("_"))


# (domain, task) -> (C++ class, the task's options).
TASKS: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {
    (domain, name): (_cpp_class(domain), options)
    for domain, tasks in _TASK_OPTIONS.items()
    for name, options in tasks.items()
}

# Options that choose the model file rather than the C++ env's config:
# domain -> {name: smallest value}, or {name: False} for a flag.
_MODEL_OPTIONS: dict[str, dict[str, int | bool]] = {
    "cartpole": {"n_poles": 1},
    "swimmer": {"n_links": 3},
    "manipulator": {"use_peg": False, "insert": False},
}
# Task options that also pick the model, kept in the C++ env's config too.
_MODEL_TASK_OPTIONS: dict[str, dict[str, Any]] = {
    "quadruped": {"desired_speed": 0.5, "fetch": False},
}


def _dm_control_suite_dir() -> str:
    """The installed dm_control's suite folder; ImportError naming the fix."""
    package = mujoco_runtime.pinned_package_dir(
        "dm-control",
        "dm_control",
        DM_CONTROL_VERSION,
        fix=f"pip install dm-control=={DM_CONTROL_VERSION} (or pip install envpool[dmc])",
        missing="envpool's DMC tasks read their models from the dm_control package, version "
        f"{DM_CONTROL_VERSION}",
        needs=f"envpool's DMC tasks need dm-control=={DM_CONTROL_VERSION} (the version whose "
        f"models and task logic they reproduce, on mujoco=={mujoco_runtime.MUJOCO_VERSION})",
    )
    return os.path.join(package, "suite")


def _read_model(domain: str) -> bytes:
    with open(os.path.join(_dm_control_suite_dir(), f"{domain}.xml"), "rb") as f:
        return f.read()


def _cartpole_model(n_poles: int) -> bytes:
    """cartpole.xml with `n_poles` poles, each hinged on top of the last."""
    from lxml import etree

    xml = _read_model("cartpole")
    if n_poles == 1:
        return xml
    root = etree.fromstring(xml)
    parent = root.find("./worldbody/body/body")
    for index in range(2, n_poles + 1):
        pole = etree.SubElement(
            parent, "body", name=f"pole_{index}", pos="0 0 1", childclass="pole"
        )
        etree.SubElement(pole, "joint", name=f"hinge_{index}")
        etree.SubElement(pole, "geom", name=f"pole_{index}")
        parent = pole
    root.find("./worldbody/geom").set("pos", f"0 0 {1 - n_poles - 0.05}")
    cameras = root.findall("./worldbody/camera")
    cameras[0].set("pos", f"0 {-1 - 2 * n_poles} 1")
    cameras[1].set("pos", f"0 {-2 * n_poles} 2")
    return etree.tostring(root, pretty_print=True)


def _swimmer_model(n_links: int) -> bytes:
    """swimmer.xml with a chain of `n_links - 1` segments behind the head, each
    with a motor-driven joint and a velocimeter and gyro at its site."""
    from lxml import etree

    root = etree.fromstring(_read_model("swimmer"))
    actuators = etree.SubElement(root, "actuator")
    sensors = etree.SubElement(root, "sensor")
    limit = 360.0 / n_links
    parent = root.find("./worldbody/body")
    for index in range(n_links - 1):
        segment = etree.SubElement(parent, "body", name=f"segment_{index}", pos="0 .1 0")
        etree.SubElement(segment, "geom", {"class": "visual", "name": f"visual_{index}"})
        etree.SubElement(segment, "geom", {"class": "inertial", "name": f"inertial_{index}"})
        etree.SubElement(segment, "site", name=f"site_{index}")
        etree.SubElement(segment, "joint", name=f"joint_{index}", range=f"{-limit} {limit}")
        etree.SubElement(actuators, "motor", name=f"motor_{index}", joint=f"joint_{index}")
        etree.SubElement(sensors, "velocimeter", name=f"velocimeter_{index}", site=f"site_{index}")
        etree.SubElement(sensors, "gyro", name=f"gyro_{index}", site=f"site_{index}")
        parent = segment
    # The tracking cameras back off in proportion to the swimmer's length.
    for camera in root.findall("./worldbody/body/camera"):
        if camera.get("mode") == "trackcom":
            scaled = (str(float(v) * (n_links / 6.0)) for v in camera.get("pos").split(" "))
            camera.set("pos", " ".join(scaled))
    return etree.tostring(root, pretty_print=True)


def _manipulator_model(use_peg: bool, insert: bool) -> bytes:
    """manipulator.xml with only the task's props: the ball or the peg, its
    target, and the cup or slot when the task inserts."""
    from lxml import etree

    root = etree.fromstring(_read_model("manipulator"), etree.XMLParser(remove_blank_text=True))
    kept = {"peg", "target_peg", "slot"} if use_peg else {"ball", "target_ball", "cup"}
    if not insert:
        kept -= {"slot", "cup"}
    for prop in ("ball", "target_ball", "cup", "peg", "target_peg", "slot"):
        if prop not in kept:
            body = root.find(f".//body[@name='{prop}']")
            body.getparent().remove(body)
    return etree.tostring(root, pretty_print=True)


def _quadruped_model(desired_speed: float, fetch: bool) -> bytes:
    """quadruped.xml as quadruped.make_model builds it: for fetch the walls, ball
    and target stay; else they go and the floor spans the 20 s episode at the
    desired speed. The terrain and rangefinders (escape's) always go."""
    from lxml import etree

    root = etree.fromstring(_read_model("quadruped"), etree.XMLParser(remove_blank_text=True))

    def remove(tag: str, name: str) -> None:
        element = root.find(f".//{tag}[@name='{name}']")
        element.getparent().remove(element)

    if not fetch:
        floor_size = 20 * float(desired_speed)
        root.find(".//geom[@name='floor']").set("size", f"{floor_size!r} {floor_size!r} .5")
        for wall in ("wall_px", "wall_py", "wall_nx", "wall_ny"):
            remove("geom", wall)
        remove("body", "ball")
        remove("site", "target")
    remove("geom", "terrain")
    for rangefinder in root.findall(".//rangefinder"):
        rangefinder.getparent().remove(rangefinder)
    return etree.tostring(root, pretty_print=True)


def _model(domain: str, model_options: Mapping[str, Any]) -> bytes:
    if domain == "cartpole":
        return _cartpole_model(model_options["n_poles"])
    if domain == "swimmer":
        return _swimmer_model(model_options["n_links"])
    if domain == "manipulator":
        return _manipulator_model(model_options["use_peg"], model_options["insert"])
    if domain == "quadruped":
        return _quadruped_model(model_options["desired_speed"], model_options["fetch"])
    return _read_model(domain)


_model_dir: str | None = None
_model_dir_lock = threading.Lock()


def _remove_model_dir(path: str, owner: int) -> None:
    if os.getpid() == owner:  # not in a forked child that exits through atexit
        shutil.rmtree(path, ignore_errors=True)


def model_file(domain: str, **model_options: Any) -> str:
    """Writes the domain's model (with its model options) and the suite's common
    assets to this process's model folder; returns the model's path."""
    xml = _model(domain, model_options)
    with _model_dir_lock:
        return _write_model(domain, xml)


def _write_model(domain: str, xml: bytes) -> str:
    global _model_dir
    if _model_dir is None:
        _model_dir = tempfile.mkdtemp(prefix="envpool-dmc-")
        atexit.register(_remove_model_dir, _model_dir, os.getpid())
        common = os.path.join(_model_dir, "common")
        os.makedirs(common)
        for name in _COMMON_ASSETS:
            shutil.copyfile(
                os.path.join(_dm_control_suite_dir(), "common", name), os.path.join(common, name)
            )
    path = os.path.join(_model_dir, f"{domain}-{hashlib.sha256(xml).hexdigest()[:16]}.xml")
    if not os.path.exists(path):
        with open(path + ".tmp", "wb") as f:
            f.write(xml)
        os.replace(path + ".tmp", path)
    return path


def _model_option_converter(
    domain: str, defaults: Mapping[str, Any]
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def convert(options: dict[str, Any]) -> dict[str, Any]:
        if "random" in options:
            raise TypeError(
                "option 'random' (dm_control's task seed) is make()'s seed here: "
                "envpool.make(task_id, seed=s) seeds env i with s + i"
            )
        if "model_file" in options:
            raise TypeError("option 'model_file' is set by envpool from the installed dm_control")
        model_options: dict[str, Any] = {}
        for name, low in _MODEL_OPTIONS.get(domain, {}).items():
            value = options.pop(name, defaults.get(name, low))
            if isinstance(low, bool):
                if not isinstance(value, (bool, np.bool_)):
                    raise ValueError(f"option {name!r} must be a bool, got {value!r}")
                model_options[name] = bool(value)
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, np.integer))
                or not (low <= value <= 30)
            ):
                raise ValueError(
                    f"option {name!r} must be an integer in [{low}, 30], got {value!r}"
                )
            model_options[name] = int(value)
        for name, default in _MODEL_TASK_OPTIONS.get(domain, {}).items():
            model_options[name] = options.get(name, defaults.get(name, default))
        options["model_file"] = model_file(domain, **model_options)
        return options

    return convert


_DOMAIN_TASK: dict[str, tuple[str, str]] = {}


def _render_fps(config: Mapping[str, Any]) -> int:
    return round(1.0 / float(config["control_timestep"]))


def _row(domain: str, task_name: str) -> TaskSpec:
    cls, task_options = TASKS[(domain, task_name)]
    own = {k: v for k, v in task_options.items() if k not in _MODEL_OPTIONS.get(domain, {})}
    model = {
        name: task_options.get(name, low) for name, low in _MODEL_OPTIONS.get(domain, {}).items()
    }
    return task(
        task_id(domain, task_name),
        f"envpool.families.dmc.tasks:{cls}",
        convert_options=_model_option_converter(domain, task_options),
        render_fps=_render_fps,
        extra_options=model,
        **own,
    )


_DOMAIN_TASK.update({task_id(domain, name): (domain, name) for domain, name in TASKS})
TABLE = [_row(domain, name) for domain, name in TASKS]
register_family(_FAMILY, TABLE)


def start_dm_control_episode(env: Any, info: Mapping[str, Any], index: int = 0) -> Any:
    """Starts an episode of the dm_control env `env` (made by
    ``dm_control.suite.load`` for the same task) at the start of envpool env row
    `index` of the reset `info`: the model values the task drew, then qpos/qvel,
    set as dm_control's reset sets them. Returns dm_control's first TimeStep."""
    import dm_env

    env.reset()
    physics = env.physics
    for key, values in info.items():
        if ":" not in key and key not in ("wrap_prm",):
            continue
        field, _, name = key.partition(":")
        target = getattr(physics.named.model, field)
        if name:
            target[name] = np.asarray(values)[index]
        else:
            target[:] = np.asarray(values)[index]
    with physics.reset_context():
        physics.data.qpos[:] = np.asarray(info["qpos0"])[index]
        physics.data.qvel[:] = np.asarray(info["qvel0"])[index]
    observation = env.task.get_observation(physics)
    return dm_env.restart(observation)


NUMPY_LOOPS: list[str] = []
"""The numpy functions whose own float64 kernels the DMC envs call (all of
``envpool._dmc.NUMPY_FUNCTIONS`` unless numpy's ufunc objects look unexpected;
libm stands in for the rest, which may differ from numpy in the last bit), and
"blas" when they call numpy's BLAS for dot products and norms."""


def _load_library() -> None:
    """Loads envpool._dmc (libmujoco first) and hands it numpy's float64 loops."""
    mujoco_runtime.load_library()
    NUMPY_LOOPS[:] = numpy_parity.install_once(importlib.import_module(_DMC))


def __getattr__(name: str) -> Any:
    """The env classes, loaded on first use (after checking the mujoco package)."""
    if name not in {cls for cls, _ in TASKS.values()}:
        raise AttributeError(name)
    _load_library()
    return getattr(importlib.import_module(_DMC), name)
