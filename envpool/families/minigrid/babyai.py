"""minigrid 3.2.0's BabyAI-* levels, served by ``envpool._babyai``.

Each id is one C++ level class with the options gymnasium's registration gives it;
minigrid's level classes that are LevelGen with other settings (GoToSeq, PickupLoc,
Synth*, MiniBossLevel, BossLevel*) are the ``LevelGen`` class here with those settings
as options. Options take minigrid's values: ``None`` for "random" or "default" (a color,
``select_by``, ``max_steps``), tuples for ``action_kinds`` and ``instr_kinds``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from envpool.families.minigrid.mission_bounds import checked_converter
from envpool.families.minigrid.option_notes import OPTION_NOTES
from envpool.registry import TaskSpec, task

_MODULE = "envpool._babyai"
_FPS = 10  # minigrid's metadata["render_fps"]

_NONE_AS_EMPTY = ("select_by", "first_color", "second_color")
_KIND_LISTS = ("action_kinds", "instr_kinds")


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """minigrid's option values in the C++ level's types: None as "" (or 0 for
    max_steps), a list of kinds as one comma-separated string."""
    for name in _NONE_AS_EMPTY:
        if name in options and options[name] is None:
            options[name] = ""
    if "max_steps" in options and options["max_steps"] is None:
        options["max_steps"] = 0
    for name in _KIND_LISTS:
        value = options.get(name)
        if isinstance(value, Iterable) and not isinstance(value, str):
            options[name] = ",".join(str(kind) for kind in value)
    return options


def _row(task_id: str, level: str, **options: Any) -> TaskSpec:
    full_id, entry_point = f"BabyAI-{task_id}", f"{_MODULE}:{level}"
    return task(
        full_id,
        entry_point,
        render_fps=_FPS,
        # obs_mode="flat" refused where the level's missions can outgrow it
        convert_options=checked_converter(full_id, entry_point, options, _options),
        option_notes=OPTION_NOTES,
        **options,
    )


# LevelGen's settings for minigrid's LevelGen subclasses
_GO_TO_SEQ = {
    "action_kinds": "goto",
    "locked_room_prob": 0.0,
    "locations": False,
    "unblocking": False,
}
_SYNTH = {"locations": True, "unblocking": True, "implicit_unlock": False}

TABLE = [
    _row("ActionObjDoor-v0", "ActionObjDoor"),
    _row("BlockedUnlockPickup-v0", "BlockedUnlockPickup"),
    _row("BossLevel-v0", "LevelGen"),
    _row("BossLevelNoUnlock-v0", "LevelGen", locked_room_prob=0.0, implicit_unlock=False),
    *(_row(f"FindObjS{s}-v0", "FindObj", room_size=s) for s in (5, 6, 7)),
    _row("GoTo-v0", "GoTo"),
    _row("GoToDoor-v0", "GoToDoor"),
    _row("GoToImpUnlock-v0", "GoToImpUnlock"),
    _row("GoToLocal-v0", "GoToLocal"),
    *(
        _row(f"GoToLocalS{s}N{n}-v0", "GoToLocal", room_size=s, num_dists=n)
        for s, n in (
            (5, 2),
            (6, 2),
            (6, 3),
            (6, 4),
            (7, 4),
            (7, 5),
            (8, 2),
            (8, 3),
            (8, 4),
            (8, 5),
            (8, 6),
            (8, 7),
        )
    ),
    _row("GoToObj-v0", "GoToObj"),
    _row("GoToObjS4-v0", "GoToObj", room_size=4),
    _row("GoToObjS6-v1", "GoToObj", room_size=6),
    _row("GoToObjDoor-v0", "GoToObjDoor"),
    _row("GoToObjMaze-v0", "GoTo", num_dists=1),
    _row("GoToObjMazeOpen-v0", "GoTo", num_dists=1, doors_open=True),
    _row("GoToObjMazeS4-v0", "GoTo", num_dists=1, room_size=4),
    _row("GoToObjMazeS4R2-v0", "GoTo", num_dists=1, room_size=4, num_rows=2, num_cols=2),
    *(_row(f"GoToObjMazeS{s}-v0", "GoTo", num_dists=1, room_size=s) for s in (5, 6, 7)),
    _row("GoToOpen-v0", "GoTo", doors_open=True),
    _row("GoToRedBall-v0", "GoToRedBall"),
    _row("GoToRedBallGrey-v0", "GoToRedBall", grey_distractors=True),
    _row("GoToRedBallNoDists-v0", "GoToRedBall", num_dists=0),
    _row("GoToRedBlueBall-v0", "GoToRedBlueBall"),
    _row("GoToSeq-v0", "LevelGen", **_GO_TO_SEQ),
    _row(
        "GoToSeqS5R2-v0",
        "LevelGen",
        room_size=5,
        num_rows=2,
        num_cols=2,
        num_dists=4,
        **_GO_TO_SEQ,
    ),
    _row("KeyCorridor-v0", "KeyCorridor"),
    *(
        _row(f"KeyCorridorS{s}R{r}-v0", "KeyCorridor", room_size=s, num_rows=r)
        for s, r in ((3, 1), (3, 2), (3, 3), (4, 3), (5, 3), (6, 3))
    ),
    _row("KeyInBox-v0", "KeyInBox"),
    _row(
        "MiniBossLevel-v0",
        "LevelGen",
        num_cols=2,
        num_rows=2,
        room_size=5,
        num_dists=7,
        locked_room_prob=0.25,
    ),
    _row("MoveTwoAcrossS5N2-v0", "MoveTwoAcross", room_size=5, objs_per_room=2),
    _row("MoveTwoAcrossS8N9-v0", "MoveTwoAcross", room_size=8, objs_per_room=9),
    *(_row(f"OneRoomS{s}-v0", "OneRoom", room_size=s) for s in (8, 12, 16, 20)),
    _row("Open-v0", "Open"),
    _row("OpenDoor-v0", "OpenDoor"),
    _row("OpenDoorColor-v0", "OpenDoor", select_by="color"),
    _row("OpenDoorDebug-v0", "OpenDoor", debug=True),
    _row("OpenDoorLoc-v0", "OpenDoor", select_by="loc"),
    _row("OpenDoorsOrderN2-v0", "OpenDoorsOrder", num_doors=2),
    _row("OpenDoorsOrderN2Debug-v0", "OpenDoorsOrder", num_doors=2, debug=True),
    _row("OpenDoorsOrderN4-v0", "OpenDoorsOrder", num_doors=4),
    _row("OpenDoorsOrderN4Debug-v0", "OpenDoorsOrder", num_doors=4, debug=True),
    _row("OpenRedBlueDoors-v0", "OpenTwoDoors", first_color="red", second_color="blue"),
    _row(
        "OpenRedBlueDoorsDebug-v0",
        "OpenTwoDoors",
        first_color="red",
        second_color="blue",
        strict=True,
    ),
    _row("OpenRedDoor-v0", "OpenRedDoor"),
    _row("OpenTwoDoors-v0", "OpenTwoDoors"),
    _row("Pickup-v0", "Pickup"),
    _row("PickupAbove-v0", "PickupAbove"),
    _row("PickupDist-v0", "PickupDist"),
    _row("PickupDistDebug-v0", "PickupDist", debug=True),
    _row(
        "PickupLoc-v0",
        "LevelGen",
        action_kinds="pickup",
        instr_kinds="action",
        num_rows=1,
        num_cols=1,
        num_dists=8,
        locked_room_prob=0.0,
        locations=True,
        unblocking=False,
    ),
    _row("PutNextLocal-v0", "PutNextLocal"),
    _row("PutNextLocalS5N3-v0", "PutNextLocal", room_size=5, num_objs=3),
    _row("PutNextLocalS6N4-v0", "PutNextLocal", room_size=6, num_objs=4),
    *(
        _row(
            f"PutNextS{s}N{n}{'Carrying' if carrying else ''}-v0",
            "PutNext",
            room_size=s,
            objs_per_room=n,
            start_carrying=carrying,
        )
        for s, n, carrying in (
            (4, 1, False),
            (5, 1, False),
            (5, 2, False),
            (5, 2, True),
            (6, 3, False),
            (6, 3, True),
            (7, 4, False),
            (7, 4, True),
        )
    ),
    _row("Synth-v0", "LevelGen", instr_kinds="action", **{**_SYNTH, "locations": False}),
    _row(
        "SynthS5R2-v0",
        "LevelGen",
        room_size=5,
        num_rows=2,
        instr_kinds="action",
        **{**_SYNTH, "locations": False},
    ),
    _row("SynthLoc-v0", "LevelGen", instr_kinds="action", **_SYNTH),
    _row("SynthSeq-v0", "LevelGen", **_SYNTH),
    _row("UnblockPickup-v0", "UnblockPickup"),
    _row("Unlock-v0", "Unlock"),
    _row("UnlockLocal-v0", "UnlockLocal"),
    _row("UnlockLocalDist-v0", "UnlockLocal", distractors=True),
    _row("UnlockPickup-v0", "UnlockPickup"),
    _row("UnlockPickupDist-v0", "UnlockPickup", distractors=True),
    _row("UnlockToUnlock-v0", "UnlockToUnlock"),
]
