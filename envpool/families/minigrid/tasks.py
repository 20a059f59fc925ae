"""minigrid 3.2.0's MiniGrid-* tasks, served by ``envpool._minigrid``, and its BabyAI-*
levels (``babyai.TABLE``, served by ``envpool._babyai``).

Each id takes the options of minigrid's env class (``size``, ``max_steps``,
``agent_view_size``, ``see_through_walls`` where minigrid accepts it, and the env's
own), with the values gymnasium's registration gives it. minigrid registers no time
limit: its envs truncate themselves at ``max_steps`` (0, the default here, is minigrid's
default for the env's size). The MiniGrid-WFC-* ids are not provided (see WFC_REASON).
"""

from __future__ import annotations

from typing import Any

from envpool.families.minigrid import babyai
from envpool.families.minigrid.mission_bounds import checked_converter
from envpool.families.minigrid.option_notes import OPTION_NOTES
from envpool.registry import mark_unavailable, register_family, task

_MODULE = "envpool._minigrid"
_FPS = 10  # minigrid's metadata["render_fps"]

_POSITION_OPTIONS = ("agent_start_pos", "agent_pos", "goal_pos")


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """minigrid's option values in the C++ env's types: a position None (minigrid's
    "random") as an empty tuple, ``max_steps=None`` (minigrid's own default: the env
    class's step limit) as 0, which means the same here, an obstacle type given as
    minigrid's class (Lava, Wall) as its name."""
    if "max_steps" in options and options["max_steps"] is None:
        options["max_steps"] = 0
    for name in _POSITION_OPTIONS:
        if name in options and options[name] is None:
            options[name] = ()
    kind = options.get("obstacle_type")
    if isinstance(kind, type):
        options["obstacle_type"] = kind.__name__.lower()
    elif isinstance(kind, str):
        options["obstacle_type"] = kind.lower()
    return options


def _maze(
    agent_room: tuple[int, int], key_in_box: bool, blocked: bool, quarters: int, visited: int
) -> dict[str, Any]:
    """The options of an ObstructedMaze_Full id, as gymnasium registers them."""
    return {
        "agent_room": agent_room,
        "key_in_box": key_in_box,
        "blocked": blocked,
        "num_quarters": quarters,
        "num_rooms_visited": visited,
    }


def _row(task_id: str, env_class: str, **options: Any) -> Any:
    entry_point = f"{_MODULE}:{env_class}"
    return task(
        task_id,
        entry_point,
        render_fps=_FPS,
        # obs_mode="flat" refused where the env's missions can outgrow it: none of
        # minigrid's do (mission_bounds.py), the check is the BabyAI levels' one
        convert_options=checked_converter(task_id, entry_point, options, _options),
        option_notes=OPTION_NOTES,
        **options,
    )


TABLE = [
    _row("MiniGrid-BlockedUnlockPickup-v0", "BlockedUnlockPickup"),
    *(
        _row(f"MiniGrid-LavaCrossingS{s}N{n}-v0", "Crossing", size=s, num_crossings=n)
        for s, n in ((9, 1), (9, 2), (9, 3), (11, 5))
    ),
    *(
        _row(
            f"MiniGrid-SimpleCrossingS{s}N{n}-v0",
            "Crossing",
            size=s,
            num_crossings=n,
            obstacle_type="wall",
        )
        for s, n in ((9, 1), (9, 2), (9, 3), (11, 5))
    ),
    *(_row(f"MiniGrid-DoorKey-{s}x{s}-v0", "DoorKey", size=s) for s in (5, 6, 8, 16)),
    _row("MiniGrid-Empty-5x5-v0", "Empty", size=5),
    _row("MiniGrid-Empty-Random-5x5-v0", "Empty", size=5, agent_start_pos=()),
    _row("MiniGrid-Empty-6x6-v0", "Empty", size=6),
    _row("MiniGrid-Empty-Random-6x6-v0", "Empty", size=6, agent_start_pos=()),
    _row("MiniGrid-Empty-8x8-v0", "Empty"),
    _row("MiniGrid-Empty-16x16-v0", "Empty", size=16),
    _row("MiniGrid-FourRooms-v0", "FourRooms"),
    *(
        _row(f"MiniGrid-KeyCorridorS{s}R{r}-v0", "KeyCorridor", room_size=s, num_rows=r)
        for s, r in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3))
    ),
    *(_row(f"MiniGrid-LavaGapS{s}-v0", "LavaGap", size=s) for s in (5, 6, 7)),
    _row("MiniGrid-Unlock-v0", "Unlock"),
    _row("MiniGrid-UnlockPickup-v0", "UnlockPickup"),
    _row("MiniGrid-DistShift1-v0", "DistShift", strip2_row=2),
    _row("MiniGrid-DistShift2-v0", "DistShift", strip2_row=5),
    *(
        _row(f"MiniGrid-Dynamic-Obstacles-{name}-v0", "DynamicObstacles", **options)
        for name, options in (
            ("5x5", {"size": 5, "n_obstacles": 2}),
            ("Random-5x5", {"size": 5, "agent_start_pos": (), "n_obstacles": 2}),
            ("6x6", {"size": 6, "n_obstacles": 3}),
            ("Random-6x6", {"size": 6, "agent_start_pos": (), "n_obstacles": 3}),
            ("8x8", {}),
            ("16x16", {"size": 16, "n_obstacles": 8}),
        )
    ),
    _row("MiniGrid-Fetch-5x5-N2-v0", "Fetch", size=5, numObjs=2),
    _row("MiniGrid-Fetch-6x6-N2-v0", "Fetch", size=6, numObjs=2),
    _row("MiniGrid-Fetch-8x8-N3-v0", "Fetch"),
    _row("MiniGrid-GoToDoor-5x5-v0", "GoToDoor"),
    _row("MiniGrid-GoToDoor-6x6-v0", "GoToDoor", size=6),
    _row("MiniGrid-GoToDoor-8x8-v0", "GoToDoor", size=8),
    _row("MiniGrid-GoToObject-6x6-N2-v0", "GoToObject"),
    _row("MiniGrid-GoToObject-8x8-N2-v0", "GoToObject", size=8, numObjs=2),
    _row("MiniGrid-LockedRoom-v0", "LockedRoom"),
    _row("MiniGrid-MemoryS17Random-v0", "Memory", size=17, random_length=True),
    _row("MiniGrid-MemoryS13Random-v0", "Memory", size=13, random_length=True),
    *(_row(f"MiniGrid-MemoryS{s}-v0", "Memory", size=s) for s in (13, 11, 9, 7)),
    _row("MiniGrid-MultiRoom-N2-S4-v0", "MultiRoom", minNumRooms=2, maxNumRooms=2, maxRoomSize=4),
    # minigrid's N4-S5-v0 has six rooms; v1 has the four its name says
    _row("MiniGrid-MultiRoom-N4-S5-v0", "MultiRoom", minNumRooms=6, maxNumRooms=6, maxRoomSize=5),
    _row("MiniGrid-MultiRoom-N4-S5-v1", "MultiRoom", minNumRooms=4, maxNumRooms=4, maxRoomSize=5),
    _row("MiniGrid-MultiRoom-N6-v0", "MultiRoom", minNumRooms=6, maxNumRooms=6),
    _row("MiniGrid-ObstructedMaze-1Dl-v0", "ObstructedMaze1Dlhb", key_in_box=False, blocked=False),
    _row("MiniGrid-ObstructedMaze-1Dlh-v0", "ObstructedMaze1Dlhb", key_in_box=True, blocked=False),
    _row("MiniGrid-ObstructedMaze-1Dlhb-v0", "ObstructedMaze1Dlhb"),
    *(
        _row(
            f"MiniGrid-ObstructedMaze-{name}-{version}",
            "ObstructedMazeFull" if version == "v0" else "ObstructedMazeFullV1",
            **options,
        )
        for name, version, options in (
            ("2Dl", "v0", _maze((2, 1), False, False, 1, 4)),
            ("2Dlh", "v0", _maze((2, 1), True, False, 1, 4)),
            ("2Dlhb", "v0", _maze((2, 1), True, True, 1, 4)),
            ("1Q", "v0", _maze((1, 1), True, True, 1, 5)),
            ("2Q", "v0", _maze((2, 1), True, True, 2, 11)),
            ("Full", "v0", {}),
            ("2Dlhb", "v1", _maze((2, 1), True, True, 1, 4)),
            ("1Q", "v1", _maze((1, 1), True, True, 1, 5)),
            ("2Q", "v1", _maze((2, 1), True, True, 2, 11)),
            ("Full", "v1", {}),
        )
    ),
    _row("MiniGrid-Playground-v0", "Playground"),
    _row("MiniGrid-PutNear-6x6-N2-v0", "PutNear"),
    _row("MiniGrid-PutNear-8x8-N3-v0", "PutNear", size=8, numObjs=3),
    _row("MiniGrid-RedBlueDoors-6x6-v0", "RedBlueDoors", size=6),
    _row("MiniGrid-RedBlueDoors-8x8-v0", "RedBlueDoors"),
]
register_family("minigrid", [*TABLE, *babyai.TABLE])

WFC_REASON = (
    "{task_id} is not provided: minigrid 3.2.0 cannot run it either (its wheel and sdist "
    "lack the wave-function-collapse pattern images, FileNotFoundError: "
    ".../minigrid/envs/wfc/patterns/*.png), so there is no reference to be faithful to"
)
WFC_IDS = (
    "MiniGrid-WFC-MazeSimple-v0",
    "MiniGrid-WFC-DungeonMazeScaled-v0",
    "MiniGrid-WFC-RoomsFabric-v0",
    "MiniGrid-WFC-ObstaclesBlackdots-v0",
    "MiniGrid-WFC-ObstaclesAngular-v0",
    "MiniGrid-WFC-ObstaclesHogs3-v0",
)
for _task_id in WFC_IDS:
    mark_unavailable(_task_id, WFC_REASON.format(task_id=_task_id))
