"""gymnasium's toy-text tasks (Blackjack, FrozenLake, CliffWalking, Taxi), served by
``envpool._toy_text``.

Time limits, default options and frame rates are gymnasium 1.4's; the rgb_array frames
are gymnasium's own, drawn from envpool's state by ``frames.py``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np

from envpool.registry import register_family, task

_MODULE = "envpool._toy_text"
_FPS = 4  # gymnasium's metadata["render_fps"] for every toy-text task
_FAMILY = "toy_text"
_FRAMES = "envpool.families.toy_text.frames"  # the rgb_array frames

_DESC_HELP = (
    "desc must be one map for every env: a list of row strings such as "
    "['SFFF', 'FHFH', 'FFFH', 'HFFG'], a list of lists of single letters, or those rows "
    "joined by newlines"
)


def _desc_row(row: Any) -> str:
    """One map row as a string, from a string, bytes or a sequence of single letters."""
    if isinstance(row, bytes):
        return row.decode("ascii", errors="replace")
    if isinstance(row, str):
        return row
    if isinstance(row, np.ndarray) and row.ndim == 0:
        return _desc_row(row.item())
    if isinstance(row, (list, tuple, np.ndarray)):
        letters = [_desc_row(item) for item in row]
        if all(len(letter) == 1 for letter in letters):
            return "".join(letters)
    raise ValueError(f"{_DESC_HELP}; got a row {row!r}")


def _desc_text(desc: Any) -> str:
    """gymnasium's ``desc`` (rows of S, F, H, G) as the C++ option: rows joined by newlines."""
    if isinstance(desc, bytes):
        desc = desc.decode("ascii", errors="replace")
    if isinstance(desc, str):
        text = desc.strip("\n")  # a text block's first and last line breaks
    elif isinstance(desc, (list, tuple, np.ndarray)):
        text = "\n".join(_desc_row(row) for row in desc)
    else:
        raise ValueError(f"{_DESC_HELP}; got {type(desc).__name__}")
    if not text:
        raise ValueError(f"desc is empty; {_DESC_HELP}")
    return text


def _reaches_goal(board: np.ndarray) -> bool:
    """Whether G can be reached from the top-left corner without crossing a hole."""
    size = board.shape[0]
    seen = {(0, 0)}
    todo = deque([(0, 0)])
    while todo:
        row, col = todo.popleft()
        if board[row, col] == "G":
            return True
        for r, c in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
            if 0 <= r < size and 0 <= c < size and (r, c) not in seen and board[r, c] != "H":
                seen.add((r, c))
                todo.append((r, c))
    return False


def random_lake(size: int = 8, frozen: float = 0.8) -> list[str]:
    """A random square map with a path from S to G, each tile frozen with probability
    ``frozen``: the map gymnasium's FrozenLake makes when desc and map_name are both None.

    Like gymnasium's, it draws from a fresh unseeded generator, so no seed replays it.
    """
    rng = np.random.default_rng()
    while True:
        board = np.where(rng.random((size, size)) < min(frozen, 1.0), "F", "H")
        board[0, 0] = "S"
        board[-1, -1] = "G"
        if _reaches_goal(board):
            return ["".join(row) for row in board]


def _frozen_lake_options(options: dict[str, Any]) -> dict[str, Any]:
    """gymnasium's desc and map_name (either may be None) as the C++ options."""
    if isinstance(options.get("map_name"), (list, tuple, np.ndarray)):
        raise ValueError(
            "map_name must be one name for every env ('4x4', '8x8' or None), got "
            f"{options['map_name']!r}: the observation space depends on the map"
        )
    desc = options.pop("desc", None)
    if "map_name" in options and options["map_name"] is None:
        del options["map_name"]
        if desc is None:
            desc = random_lake()
    if desc is not None:
        options["desc"] = _desc_text(desc)
    return options


TABLE = [
    task(
        "Blackjack-v1",
        f"{_MODULE}:Blackjack",
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_blackjack",
        sab=True,
        natural=False,
    ),
    task(
        "FrozenLake-v1",
        f"{_MODULE}:FrozenLake",
        max_episode_steps=100,
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_frozen_lake",
        convert_options=_frozen_lake_options,
        map_name="4x4",
    ),
    task(
        "FrozenLake8x8-v1",
        f"{_MODULE}:FrozenLake",
        max_episode_steps=200,
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_frozen_lake",
        convert_options=_frozen_lake_options,
        map_name="8x8",
    ),
    task(
        "CliffWalking-v1",
        f"{_MODULE}:CliffWalking",
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_cliff_walking",
    ),
    task(
        "CliffWalkingSlippery-v1",
        f"{_MODULE}:CliffWalking",
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_cliff_walking",
        is_slippery=True,
    ),
    task(
        "Taxi-v4",
        f"{_MODULE}:Taxi",
        max_episode_steps=200,
        render_fps=_FPS,
        frame_drawer=f"{_FRAMES}:draw_taxi",
    ),
]
register_family(_FAMILY, TABLE)
