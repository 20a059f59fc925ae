"""The Procgen tasks: the original EnvPool's ``<Game><Mode>-v0`` ids and procgen's own
``procgen-<game>-v0`` ids (hard mode, as ``ProcgenGym3Env`` defaults to).

Each env is one game of procgen's own library (``envpool.procgen_runtime``), made as
``ProcgenGym3Env(num=1, env_name=game, rand_seed=seed + i, **options)`` would make it.
procgen ends each level at its own time limit, so the tasks set no
``max_episode_steps`` of their own: a level that runs out of time is truncated, one
that ends otherwise terminated.
"""

from __future__ import annotations

from typing import Any

from envpool import procgen_runtime
from envpool.registry import OptionNote, register_family, task

_CLASS = "envpool._procgen:Procgen"
_FPS = 15  # procgen's video.frames_per_second

# game -> its distribution modes beyond easy and hard (procgen 0.10.7's game.cpp and
# env.py's EXPLORATION_LEVEL_SEEDS)
GAMES: dict[str, tuple[str, ...]] = {
    "bigfish": (),
    "bossfight": (),
    "caveflyer": ("memory", "exploration"),
    "chaser": ("extreme",),
    "climber": ("exploration",),
    "coinrun": ("exploration",),
    "dodgeball": ("extreme", "memory"),
    "fruitbot": (),
    "heist": ("memory", "exploration"),
    "jumper": ("memory", "exploration"),
    "leaper": ("extreme", "exploration"),
    "maze": ("memory", "exploration"),
    "miner": ("memory",),
    "ninja": ("exploration",),
    "plunder": (),
    "starpilot": ("extreme",),
}

# procgen's DistributionMode numbers, which the original EnvPool took as distribution_mode
MODE_NUMBERS = {0: "easy", 1: "hard", 2: "extreme", 10: "memory", 20: "exploration"}


def modes(game: str) -> tuple[str, ...]:
    """The distribution modes of ``game``, easy and hard first."""
    return ("easy", "hard", *GAMES[game])


# cache folder -> the options of its library, checked once per process: procgen loads
# its library and images once per process, so a later change to the files cannot reach
# it (and checking them costs tens of milliseconds: the library's sha256)
_CHECKED: dict[str, dict[str, str]] = {}


def _library_options() -> dict[str, Any]:
    procgen_runtime.check_platform()
    key = str(procgen_runtime.cache_dir())
    if key not in _CHECKED:
        library = procgen_runtime.library()
        _CHECKED[key] = {
            "library": str(library),
            "resource_root": procgen_runtime.resource_root(library),
        }
    return dict(_CHECKED[key])


def _render_options(render_mode: str | None) -> dict[str, Any]:
    # procgen draws its 512x512 frames only when made with render_mode="rgb_array"
    return {"render_human": render_mode == "rgb_array"}


_SET_BY_ENVPOOL = {
    "library": f"point {procgen_runtime.WHEEL_VARIABLE} at procgen's wheel, or "
    f"{procgen_runtime.CACHE_VARIABLE} at the cache, instead",
    "resource_root": f"point {procgen_runtime.CACHE_VARIABLE} at the cache instead",
    "render_human": "pass render_mode='rgb_array' instead",
}


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """distribution_mode by procgen's number (the original EnvPool's form) as its name;
    the options envpool sets itself refused."""
    for name, instead in _SET_BY_ENVPOOL.items():
        if name in options:
            raise ValueError(f"{name} is set by envpool for the Procgen tasks; {instead}")
    mode = options.get("distribution_mode")
    if isinstance(mode, int) and not isinstance(mode, bool):
        if mode not in MODE_NUMBERS:
            raise ValueError(
                f"distribution_mode {mode} is not one of procgen's modes "
                f"{sorted(MODE_NUMBERS)} ({', '.join(MODE_NUMBERS.values())})"
            )
        options["distribution_mode"] = MODE_NUMBERS[mode]
    return options


_NOTES = {
    "distribution_mode": OptionNote(
        "easy or hard for every game; extreme, memory and exploration for some "
        "(docs/procgen.md); exploration plays one fixed level in hard mode"
    ),
    "num_levels": OptionNote(
        "0: unlimited levels; n: level seeds start_level ... start_level + n - 1"
    ),
    "library": OptionNote("set by envpool: procgen's libenv.so (envpool.procgen_runtime)"),
    "resource_root": OptionNote("set by envpool: procgen's assets folder"),
    "render_human": OptionNote("set by envpool from render_mode='rgb_array'"),
}


def _row(task_id: str, game: str, mode: str) -> Any:
    return task(
        task_id,
        _CLASS,
        option_hook=_library_options,
        render_fps=_FPS,
        render_options=_render_options,
        convert_options=_options,
        option_notes=_NOTES,
        env_name=game,
        distribution_mode=mode,
    )


TABLE = [
    *(
        _row(f"{game.capitalize()}{mode.capitalize()}-v0", game, mode)
        for game in GAMES
        for mode in modes(game)
    ),
    *(_row(f"procgen-{game}-v0", game, "hard") for game in GAMES),
]
register_family("procgen", TABLE)
