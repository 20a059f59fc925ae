"""Task ids: which C++ env class serves each, with which default options."""

from __future__ import annotations

import difflib
import importlib
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib import metadata
from typing import Any

ENTRY_POINT_GROUP = "envpool.envs"

ENTRY_POINT_ALIASES: dict[str, str] = {}
"""Entry points that moved, old -> new (filled by ``envpool.compat``); ``task()`` takes
either."""


@dataclass(frozen=True)
class OptionNote:
    """``envpool info``'s word on one option of a task (``TaskSpec.option_notes``)."""

    note: str
    zero_is_none: bool = False
    """The env's config holds the user's None as 0: a 0 is shown as None."""

    def shown(self, value: Any) -> Any:
        """The config's ``value`` as a user passes it."""
        return None if self.zero_is_none and value == 0 else value


@dataclass(frozen=True)
class TaskSpec:
    """A registered task: an env class plus the options that define the task."""

    task_id: str
    entry_point: str
    """``"module:Class"`` of a class made by the C++ ``RegisterEnv`` call."""
    max_episode_steps: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    option_hook: Callable[[], Mapping[str, Any]] | None = None
    """Computes more default options when a pool is made (e.g. a ROM file's path)."""
    fps: int | Callable[[Mapping[str, Any]], int] | None = None
    """Frames per second of the task's rendering, or a function of its config."""
    class_for: Callable[[Mapping[str, Any]], str] | None = None
    """Picks the entry point from the options, for a task whose option changes the C++
    class (e.g. continuous or discrete actions); None: always ``entry_point``."""
    family: str = ""
    """The task family, e.g. ``"box2d"`` (``envpool list --families``)."""
    option_converter: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Turns the options a user passes into the env's option types (e.g. a list of map rows
    into one string), raising a clear error for values it cannot take."""
    extra_options: Mapping[str, Any] = field(default_factory=dict)
    """Options the converter takes itself, which are not the env class's config, with
    their defaults (DMC's ``n_poles`` picks a model file); listed with the env's options."""
    frame_drawer: str | None = None
    """``"module:function"`` that draws a frame, ``function(rendered, spec)``, from what the
    env's C++ ``Render`` writes (a scene, not pixels: mpe2's tasks); None: that is the
    frame."""
    render_options: Callable[[str | None], Mapping[str, Any]] | None = None
    """More default options for a pool made with a render mode (``None`` included): what
    changes only the frames (LunarLander's exhaust particles, the Box2D frames' pygame)."""
    option_notes: Mapping[str, OptionNote] = field(default_factory=dict)
    """What ``envpool info`` says of an option beyond its default: a note (its choices,
    what a special value means), and whether a 0 in the config is the user's None."""
    goal_api: str | None = None
    """``"module:function"`` of a goal-conditioned task: ``function(config)`` gives the
    object whose ``compute_reward`` / ``compute_terminated`` / ``compute_truncated`` the
    front ends offer (gymnasium-robotics' GoalEnv methods, for HER)."""

    def convert_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The user's options in the types the env's config takes."""
        return self.option_converter(dict(options)) if self.option_converter else dict(options)

    def default_options(self) -> dict[str, Any]:
        """The task's option overrides, the hook's included."""
        hooked = self.option_hook() if self.option_hook is not None else {}
        return {**self.options, **hooked}

    def render_defaults(self, render_mode: str | None) -> dict[str, Any]:
        """The option defaults ``render_options`` gives for ``render_mode``."""
        return dict(self.render_options(render_mode)) if self.render_options else {}

    def render_fps(self, config: Mapping[str, Any]) -> int | None:
        """The ``metadata["render_fps"]`` of a pool made with ``config``."""
        return self.fps(config) if callable(self.fps) else self.fps

    def load(self, options: Mapping[str, Any] | None = None) -> Any:
        """The env class serving the task with the user's ``options``, checked to be
        built against this envpool's headers."""
        from envpool.version import __version__

        entry_point = self.entry_point
        if self.class_for is not None:
            entry_point = self.class_for({**self.options, **(options or {})})
        module_name, _, attr = entry_point.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("envpool._"):
                raise ImportError(missing_extension_message(exc.name)) from None
            raise
        try:
            env_class = getattr(module, attr)
        except ModuleNotFoundError as exc:  # a module that loads its extension lazily
            if exc.name and exc.name.startswith("envpool._"):
                raise ImportError(missing_extension_message(exc.name)) from None
            raise
        except AttributeError:
            raise ImportError(
                f"task {self.task_id!r}: module {module_name!r} has no env class {attr!r}; "
                "check the entry point given to envpool.register"
            ) from None
        built_for = getattr(env_class, "envpool_version", None)
        if built_for != __version__:
            raise ImportError(
                f"task {self.task_id!r}: {entry_point} was compiled against envpool "
                f"{built_for or '(unknown)'} headers, but envpool {__version__} is installed; "
                f"rebuild the package that provides {module_name!r} (pip install --force-reinstall "
                "--no-cache-dir <package>)"
            )
        return env_class


def missing_extension_message(module: str) -> str:
    """Why envpool's compiled ``module`` is missing, and what to do about it."""
    package_dir = os.path.dirname(os.path.abspath(__file__))
    checkout = os.path.dirname(package_dir)
    if os.path.exists(os.path.join(checkout, "pyproject.toml")):
        return (
            f"No module named {module!r}: Python imported envpool from the source checkout "
            f"{checkout} (the current folder, or one on PYTHONPATH), which holds no compiled "
            "extension, instead of the installed package. Run Python from another folder "
            f"(cd ..), or build the checkout in place for development: cd {checkout} && "
            "pip install -e ."
        )
    return (
        f"No module named {module!r}: envpool's compiled extension is missing from "
        f"{package_dir}; reinstall envpool (pip install --force-reinstall --no-cache-dir envpool)"
    )


_tasks: dict[str, TaskSpec] = {}
_unavailable: dict[str, str] = {}
_plugins_loaded = False


def task(
    task_id: str,
    entry_point: str,
    max_episode_steps: int | None = None,
    *,
    option_hook: Callable[[], Mapping[str, Any]] | None = None,
    render_fps: int | Callable[[Mapping[str, Any]], int] | None = None,
    convert_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    class_for: Callable[[Mapping[str, Any]], str] | None = None,
    extra_options: Mapping[str, Any] | None = None,
    frame_drawer: str | None = None,
    render_options: Callable[[str | None], Mapping[str, Any]] | None = None,
    option_notes: Mapping[str, OptionNote] | None = None,
    goal_api: str | None = None,
    **options: Any,
) -> TaskSpec:
    """One row of a family's task table (``register_family``): ``task_id``, served by
    the env class at ``entry_point``.

    ``options`` override the env's own defaults for this task;
    ``max_episode_steps`` is the task's default time limit (None: no limit);
    ``option_hook()``, if given, supplies more option defaults when a pool is
    made (for values known only at run time, such as a data file's path);
    ``render_fps`` is the frame rate a video of the task plays at (or a function
    of the task's config giving it); ``convert_options(options)``, if given, turns
    the options a user passes into the types the env's config takes;
    ``class_for(options)``, if given, picks the entry point from the task's and the
    user's options (for an option that changes the C++ class); ``extra_options`` names
    the options that ``convert_options`` consumes itself, with their defaults;
    ``frame_drawer`` (``"module:function"``), if given, draws the frames in Python from
    what the env's ``Render`` writes; ``render_options(render_mode)``, if given, supplies
    option defaults that depend on the render mode; ``option_notes`` is what
    ``envpool info`` says of some options (``OptionNote``); ``goal_api``
    (``"module:function"``) makes a goal-conditioned task's ``compute_reward`` and its
    kin (``TaskSpec.goal_api``).
    """
    if not isinstance(task_id, str) or not task_id:
        raise ValueError("task_id must be a non-empty string")
    if ":" not in entry_point:
        raise ValueError(f"entry_point must look like 'package.module:Class', got {entry_point!r}")
    if max_episode_steps is not None and max_episode_steps < 1:
        raise ValueError(f"max_episode_steps must be >= 1 or None, got {max_episode_steps}")
    return TaskSpec(
        task_id,
        ENTRY_POINT_ALIASES.get(entry_point, entry_point),
        max_episode_steps,
        dict(options),
        option_hook,
        render_fps,
        class_for,
        "",
        convert_options,
        dict(extra_options or {}),
        frame_drawer,
        render_options,
        dict(option_notes or {}),
        goal_api,
    )


def register_family(family: str, table: Iterable[TaskSpec]) -> None:
    """Registers every row of a family's task table (rows made by ``task``); how every
    family that ships with envpool registers (docs/new_family.md)."""
    rows = list(table)
    for row in rows:
        if row.task_id in _tasks:
            raise ValueError(f"task id {row.task_id!r} is already registered")
    for row in rows:
        _tasks[row.task_id] = replace(row, family=family)


def register(
    task_id: str,
    entry_point: str,
    max_episode_steps: int | None = None,
    *,
    family: str | None = None,
    **options: Any,
) -> None:
    """Registers one task, for env packages and scripts:
    ``envpool.register("GridWorld-v0", "my_envs:GridWorld", max_episode_steps=100)``.
    Takes ``task``'s arguments (its hooks and the task's options); ``family`` groups
    tasks in ``envpool list --families`` (default: the entry point's top-level
    package, e.g. an env package's name)."""
    row = task(task_id, entry_point, max_episode_steps, **options)
    register_family(family or entry_point.split(".", 1)[0].split(":", 1)[0], [row])


def mark_unavailable(task_id: str, reason: str) -> None:
    """Makes ``task_id``, which users may expect but which cannot run, fail with
    ``ValueError(reason)`` instead of "unknown task id"; list_all_envs leaves it out."""
    _unavailable[task_id] = reason


def _load_plugins() -> None:
    """Imports the env packages that announce themselves under ENTRY_POINT_GROUP."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
            if callable(loaded):
                loaded()
        except Exception as exc:  # a broken plugin must not break envpool
            warnings.warn(
                f"envpool: could not load env package {entry.value!r}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )


def list_all_envs() -> list[str]:
    """All registered task ids that this install can make, sorted (the tasks of a
    built-in family left out of the build are not listed: ``list_families``)."""
    _load_plugins()
    built = built_families()
    return sorted(
        t for t, s in _tasks.items() if s.family not in BUILTIN_FAMILIES or s.family in built
    )


def list_families() -> dict[str, list[str]]:
    """Every family's sorted task ids, families sorted by name."""
    _load_plugins()
    families: dict[str, list[str]] = {}
    for task_id in sorted(_tasks):
        families.setdefault(_tasks[task_id].family, []).append(task_id)
    return dict(sorted(families.items()))


BUILTIN_FAMILIES = (
    "atari",
    "box2d",
    "classic_control",
    "dmc",
    "minigrid",
    "mpe2",
    "mujoco",
    "procgen",
    "robotics",
    "toy_text",
)
"""The families that ship with envpool, each of which a build may leave out
(ENVPOOL_FAMILIES; cmake/families.cmake keeps the same list)."""


def _core_attribute(name: str) -> str | None:
    """What envpool._core records of its build (BUILT_FAMILIES, SOURCE_DIR); None
    without an extension (make() says why when it loads one) or an older one."""
    from envpool.bindings import extension

    try:
        return str(getattr(extension("_core"), name))
    except (ImportError, AttributeError):
        return None


def built_families() -> tuple[str, ...]:
    """The built-in families this install compiled (all of them unless it was built
    with ENVPOOL_FAMILIES), sorted."""
    built = _core_attribute("BUILT_FAMILIES")
    if built is None or built == "all":
        return BUILTIN_FAMILIES
    return tuple(sorted(f for f in built.split(",") if f))


def build_command(families: Iterable[str]) -> str:
    """The command that rebuilds this envpool with ``families`` (sorted, deduplicated)."""
    source = _core_attribute("SOURCE_DIR")
    if not source or not os.path.isfile(os.path.join(source, "pyproject.toml")):
        source = "<envpool's source folder>"
    names = ",".join(sorted(set(families)))
    return f'ENVPOOL_FAMILIES="{names}" pip install {source}'


def _check_built(spec: TaskSpec) -> None:
    """Raises ImportError naming the family and the command that builds it when
    ``spec``'s family is a built-in one this install was built without."""
    if spec.family not in BUILTIN_FAMILIES:
        return
    built = built_families()
    if spec.family in built:
        return
    raise ImportError(
        f"task {spec.task_id!r} is in the {spec.family!r} family, which this envpool was "
        f"built without (ENVPOOL_FAMILIES: {', '.join(built) or 'none'}). Build it with: "
        f"{build_command([*built, spec.family])}   (or ENVPOOL_FAMILIES=all)"
    )


def get_task(task_id: str) -> TaskSpec:
    """The TaskSpec of ``task_id``; ValueError with close matches if unknown."""
    _load_plugins()
    if not isinstance(task_id, str):
        raise TypeError(f"task_id must be a string, got {type(task_id).__name__}")
    try:
        spec = _tasks[task_id]
    except KeyError:
        if task_id in _unavailable:
            raise ValueError(_unavailable[task_id]) from None
        close = difflib.get_close_matches(task_id, _tasks, n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise ValueError(
            f"unknown task id {task_id!r}.{hint} envpool.list_all_envs() lists them all."
        ) from None
    _check_built(spec)
    return spec
