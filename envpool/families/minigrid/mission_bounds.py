"""How long a MiniGrid or BabyAI task's mission can get, and the refusal of
``obs_mode="flat"`` for the tasks whose missions can outgrow it.

``obs_mode="flat"`` is minigrid's FlatObsWrapper: the mission one-hot encoded into a
fixed row of ``FLAT_MISSION_CHARS`` (its ``maxStrLen``, 96) characters. A longer
mission is an error in minigrid and in the C++ env (``WriteFlat`` in
cpp/envpool/minigrid/obs_modes.h), raised on whichever reset draws it, autoresets
included. So a task whose missions can be longer is refused at ``make`` instead.

The bounds are not measured: each is the length of the longest sentence of the task's
mission grammar in minigrid 3.2.0, every piece at its longest, built here from the same
pieces (the C++ envs write the same sentences: cpp/envpool/minigrid/babyai/
instructions.h and the MiniGrid env headers). That is an upper bound: reached where the
level draws its pieces freely (GoToSeq's 105), not always where it ties them
(MoveTwoAcross: 93, though at most two of its four distinct objects can be "the purple
ball" and "the yellow ball", so 91 in fact). For the BabyAI levels the grammar is that of
minigrid/envs/babyai/core/verifier.py:

* an object: ``"the "`` (one object matches; ``"a "`` when several do), an optional
  color (``purple`` and ``yellow`` are the longest, 6), the type (``ball`` and
  ``door``, 4; ``object``, 6, where the level may leave the type out: PickupDist), and
  for a level with locations one of ``" in front of you"`` (the longest, 16),
  ``" behind you"``, ``" on your left"``, ``" on your right"``;
* an action: ``"go to " OBJ``, ``"pick up " OBJ``, ``"open " OBJ``,
  ``"put " OBJ " next to " OBJ``;
* ``A " and " B`` of two actions; ``A ", then " B`` and ``A " after you " B`` of two
  actions or ands.

Only LevelGen (BossLevel, SynthSeq, GoToSeq, ...) has options that change its
grammar (``action_kinds``, ``instr_kinds``, ``locations``): its bound is a function of
them. Every other level's sentence shape is fixed; their options (sizes, counts of
distractors, ``select_by``, colors from minigrid's six) change which sentence is
drawn, not how long it can be. tests/test_minigrid_flat_mission.py checks the bounds
against missions sampled from minigrid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

FLAT_MISSION_CHARS = 96
"""FlatObsWrapper's ``maxStrLen``: the most mission characters ``obs_mode="flat"``
encodes (``kFlatMissionChars`` in cpp/envpool/minigrid/obs_modes.h)."""

COLOR_NAMES = ("blue", "green", "grey", "purple", "red", "yellow")
"""minigrid's COLOR_NAMES (minigrid/core/constants.py)."""
OBJECT_NAMES = ("ball", "box", "door", "key")
"""The object types a mission names (verifier.py's OBJ_TYPES)."""
LOCATION_PHRASES = (" in front of you", " behind you", " on your left", " on your right")
"""ObjDesc.surface's place of an object relative to the agent's start."""

_COLOR = max(COLOR_NAMES, key=len)
_THING = max((n for n in OBJECT_NAMES if n != "door"), key=len)
_DOOR = "door"
_UNTYPED = "object"
_PLACE = max(LOCATION_PHRASES, key=len)

ACTION_KINDS = ("goto", "pickup", "open", "putnext")
"""LevelGen's ``action_kinds`` (minigrid's default: all four)."""
INSTR_KINDS = ("action", "and", "seq")
"""LevelGen's ``instr_kinds`` (minigrid's default: all three)."""


def _object(*, door: bool = False, locations: bool = False, untyped: bool = False) -> str:
    """The longest description of one object (``untyped``: of a level that may leave
    the type out, which ObjDesc.surface writes as "object")."""
    kind = _UNTYPED if untyped else _DOOR if door else _THING
    return f"the {_COLOR} {kind}" + (_PLACE if locations else "")


def longest_action(kind: str, *, locations: bool = False) -> str:
    """The longest sentence of one action of ``kind`` (one of ACTION_KINDS)."""
    if kind == "goto":
        return "go to " + _object(locations=locations)
    if kind == "pickup":
        return "pick up " + _object(locations=locations)
    if kind == "open":
        return "open " + _object(door=True, locations=locations)
    if kind == "putnext":
        moved = _object(locations=locations)
        return f"put {moved} next to " + _object(locations=locations)
    raise ValueError(f"unknown action kind {kind!r}: one of {', '.join(ACTION_KINDS)}")


def _and(a: str, b: str) -> str:
    return f"{a} and {b}"


def _then(a: str, b: str) -> str:
    return f"{a}, then {b}"


def _after(a: str, b: str) -> str:
    return f"{a} after you {b}"


def _kinds(value: Any, default: tuple[str, ...]) -> list[str]:
    """An ``action_kinds`` / ``instr_kinds`` value (a comma-separated string, or any
    iterable of names) as its names."""
    if value is None:
        return list(default)
    if isinstance(value, str):
        return [k.strip() for k in value.split(",") if k.strip()]
    if isinstance(value, Iterable):
        return [str(k) for k in value]
    return [str(value)]


def _any_true(value: Any) -> bool:
    """A bool option, or a per-env list of them: True if any env's is."""
    if isinstance(value, (list, tuple)):
        return any(bool(v) for v in value)
    return bool(value)


def level_gen_longest(
    action_kinds: Any = ACTION_KINDS, instr_kinds: Any = INSTR_KINDS, locations: Any = True
) -> str:
    """The longest mission of LevelGen with these options (minigrid's
    LevelGen.rand_instr): an "and" joins two actions, a "seq" ("then" or "after you")
    two actions or ands, whatever ``instr_kinds`` lists."""
    actions = [  # a kind the C++ level does not know is its error to report
        longest_action(k, locations=_any_true(locations))
        for k in _kinds(action_kinds, ACTION_KINDS)
        if k in ACTION_KINDS
    ]
    if not actions:
        return ""
    action = max(actions, key=len)
    both = _and(action, action)
    forms = {"action": action, "and": both, "seq": _after(both, both)}
    drawn = [forms[k] for k in _kinds(instr_kinds, INSTR_KINDS) if k in forms]
    return max(drawn, key=len, default="")


def _fill(template: str) -> str:
    return template.replace("{color}", _COLOR).replace("{type}", _THING)


_GO_TO = longest_action("goto")
_PICK_UP = longest_action("pickup")
_OPEN = longest_action("open")
_PUT_NEXT = longest_action("putnext")

LONGEST_MISSIONS: dict[str, str] = {
    # BabyAI levels other than LevelGen (minigrid/envs/babyai/*.py's gen_mission)
    "envpool._babyai:ActionObjDoor": max(_GO_TO, _OPEN, _PICK_UP, key=len),
    "envpool._babyai:BlockedUnlockPickup": _PICK_UP,
    "envpool._babyai:FindObj": _PICK_UP,
    "envpool._babyai:GoTo": _GO_TO,
    "envpool._babyai:GoToDoor": _GO_TO,
    "envpool._babyai:GoToImpUnlock": _GO_TO,
    "envpool._babyai:GoToLocal": _GO_TO,
    "envpool._babyai:GoToObj": _GO_TO,
    "envpool._babyai:GoToObjDoor": _GO_TO,
    "envpool._babyai:GoToRedBall": _GO_TO,
    "envpool._babyai:GoToRedBlueBall": _GO_TO,
    "envpool._babyai:KeyCorridor": _PICK_UP,
    "envpool._babyai:KeyInBox": _OPEN,
    "envpool._babyai:MoveTwoAcross": _then(_PUT_NEXT, _PUT_NEXT),
    "envpool._babyai:OneRoom": _PICK_UP,
    "envpool._babyai:Open": _OPEN,
    "envpool._babyai:OpenDoor": longest_action("open", locations=True),  # select_by="loc"
    "envpool._babyai:OpenDoorsOrder": _after(_OPEN, _OPEN),
    "envpool._babyai:OpenRedDoor": _OPEN,
    "envpool._babyai:OpenTwoDoors": _then(_OPEN, _OPEN),
    "envpool._babyai:Pickup": _PICK_UP,
    "envpool._babyai:PickupAbove": _PICK_UP,
    "envpool._babyai:PickupDist": "pick up " + _object(untyped=True),  # select_by "color"
    "envpool._babyai:PutNext": _PUT_NEXT,
    "envpool._babyai:PutNextLocal": _PUT_NEXT,
    "envpool._babyai:UnblockPickup": _PICK_UP,
    "envpool._babyai:Unlock": _OPEN,
    "envpool._babyai:UnlockLocal": _OPEN,
    "envpool._babyai:UnlockPickup": _PICK_UP,
    "envpool._babyai:UnlockToUnlock": _PICK_UP,
    # MiniGrid envs (minigrid/envs/*.py's self.mission)
    "envpool._minigrid:BlockedUnlockPickup": _fill("pick up the {color} {type}"),
    "envpool._minigrid:Crossing": "find the opening and get to the green goal square",
    "envpool._minigrid:DistShift": "get to the green goal square",
    "envpool._minigrid:DoorKey": "use the key to open the door and then get to the goal",
    "envpool._minigrid:DynamicObstacles": "get to the green goal square",
    "envpool._minigrid:Empty": "get to the green goal square",
    "envpool._minigrid:Fetch": _fill("you must fetch a {color} {type}"),
    "envpool._minigrid:FourRooms": "reach the goal",
    "envpool._minigrid:GoToDoor": _fill("go to the {color} door"),
    "envpool._minigrid:GoToObject": _fill("go to the {color} {type}"),
    "envpool._minigrid:KeyCorridor": _fill("pick up the {color} {type}"),
    "envpool._minigrid:LavaGap": "find the opening and get to the green goal square",
    "envpool._minigrid:LockedRoom": _fill(
        "get the {color} key from the {color} room, unlock the {color} door and go to the goal"
    ),
    "envpool._minigrid:Memory": "go to the matching object at the end of the hallway",
    "envpool._minigrid:MultiRoom": "traverse the rooms to get to the goal",
    "envpool._minigrid:ObstructedMaze1Dlhb": _fill("pick up the {color} ball"),
    "envpool._minigrid:ObstructedMazeFull": _fill("pick up the {color} ball"),
    "envpool._minigrid:ObstructedMazeFullV1": _fill("pick up the {color} ball"),
    "envpool._minigrid:Playground": "",
    "envpool._minigrid:PutNear": _fill("put the {color} {type} near the {color} {type}"),
    "envpool._minigrid:RedBlueDoors": "open the red door then the blue door",
    "envpool._minigrid:Unlock": "open the door",
    "envpool._minigrid:UnlockPickup": _fill("pick up the {color} {type}"),
}
"""The longest mission of each env class whose sentence shape is fixed, by entry
point; its length is the class's bound."""

LEVEL_GEN = "envpool._babyai:LevelGen"
"""The one class whose bound depends on its options (``level_gen_longest``)."""
_LEVEL_GEN_DEFAULTS: dict[str, Any] = {
    "action_kinds": ",".join(ACTION_KINDS),
    "instr_kinds": ",".join(INSTR_KINDS),
    "locations": True,
}
"""LevelGen's options that shape its missions, with the C++ class's defaults
(cpp/envpool/minigrid/babyai/level_gen.h), in ``level_gen_longest``'s order."""


def longest_mission(entry_point: str, options: Mapping[str, Any]) -> str | None:
    """The longest mission the env class at ``entry_point`` can write with ``options``
    (the task's and the user's); None for a class this module does not know."""
    if entry_point == LEVEL_GEN:
        return level_gen_longest(
            *(options.get(k, default) for k, default in _LEVEL_GEN_DEFAULTS.items())
        )
    return LONGEST_MISSIONS.get(entry_point)


def _wants_flat(obs_mode: Any) -> bool:
    if isinstance(obs_mode, (list, tuple)):
        return any(m == "flat" for m in obs_mode)
    return bool(obs_mode == "flat")


def refuse_long_flat_missions(task_id: str, entry_point: str, options: Mapping[str, Any]) -> None:
    """Raises ValueError when ``options`` ask for ``obs_mode="flat"`` and the task's
    missions can be longer than FlatObsWrapper's FLAT_MISSION_CHARS."""
    if not _wants_flat(options.get("obs_mode")):
        return
    longest = longest_mission(entry_point, options)
    if longest is None or len(longest) <= FLAT_MISSION_CHARS:
        return
    settings, narrow = "", ""
    if entry_point == LEVEL_GEN:
        chosen = {k: options.get(k, d) for k, d in _LEVEL_GEN_DEFAULTS.items()}
        settings = " with " + ", ".join(f"{k}={v!r}" for k, v in chosen.items())
        narrow = ", or LevelGen options whose instructions fit (instr_kinds='action' always does)"
    raise ValueError(
        f"{task_id}: obs_mode='flat' (minigrid's FlatObsWrapper) encodes missions of at "
        f"most {FLAT_MISSION_CHARS} characters, but this level's missions{settings} run up "
        f"to {len(longest)} characters (the longest sentence its mission grammar allows), "
        "and a longer mission fails the pool on the reset that draws it. Use another "
        "obs_mode: 'image' (the agent's view alone), 'dict' or 'one_hot' (the mission as "
        f"text){narrow}."
    )


def _convert_and_check(
    task_id: str,
    entry_point: str,
    task_options: Mapping[str, Any],
    convert: Callable[[dict[str, Any]], dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    converted = convert(options)
    refuse_long_flat_missions(task_id, entry_point, {**task_options, **converted})
    return converted


def checked_converter(
    task_id: str,
    entry_point: str,
    task_options: Mapping[str, Any],
    convert: Callable[[dict[str, Any]], dict[str, Any]],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A task's ``convert_options``: ``convert``, then the refusal of ``obs_mode="flat"``
    (``refuse_long_flat_missions``) with the task's own options under the user's."""
    return partial(_convert_and_check, task_id, entry_point, dict(task_options), convert)
