"""The MuJoCo model of a maze, written in memory from a maze map, as gymnasium-robotics
1.4.2 writes it to a file: its agent's model (``envs/assets/point/point.xml`` of the
installed gymnasium-robotics) with one box per wall cell and a target site, the numbers
in Python's float formatting. Also the maze's goal and start cells, in
gymnasium-robotics' order.

Maze maps are lists of rows: 1 a wall, 0 a free cell, "g" a goal cell, "r" a start
(reset) cell, "c" both.
"""

from __future__ import annotations

import importlib.util
import os
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

WALL, FREE, GOAL, RESET, COMBINED = 1, 0, "g", "r", "c"
_CODES = "1 (wall), 0 (free), 'g' (goal), 'r' (reset) or 'c' (goal or reset)"


def assets_dir() -> str:
    """gymnasium-robotics' folder of MuJoCo models (gymnasium_robotics/envs/assets)."""
    spec = importlib.util.find_spec("gymnasium_robotics")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(
            "the gymnasium-robotics tasks read their models from gymnasium-robotics: "
            "pip install gymnasium-robotics==1.4.2"
        )
    return os.path.join(next(iter(spec.submodule_search_locations)), "envs", "assets")


def _code(cell: Any, i: int, j: int) -> Any:
    """One cell's code, checked (gymnasium-robotics ignores unknown codes; envpool refuses
    them)."""
    if isinstance(cell, str):
        if cell in (GOAL, RESET, COMBINED):
            return cell
    elif not isinstance(cell, bool) and isinstance(cell, (int, float)) and cell in (0, 1):
        return int(cell)
    raise ValueError(f"maze_map[{i}][{j}] is {cell!r}; a cell is {_CODES}")


def check_map(maze_map: Any) -> list[list[Any]]:
    """The map as a list of rows of cell codes; ValueError naming what is wrong."""
    if isinstance(maze_map, (str, bytes)) or not isinstance(maze_map, Sequence):
        raise ValueError(f"maze_map must be a list of rows of cells ({_CODES})")
    rows = [list(row) if isinstance(row, Sequence) else row for row in maze_map]
    if not rows or any(not isinstance(row, list) or not row for row in rows):
        raise ValueError("maze_map must be a non-empty list of non-empty rows")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"maze_map's rows must all be as long: row 0 has {width} cells, "
                f"row {i} has {len(row)}"
            )
    codes = [[_code(cell, i, j) for j, cell in enumerate(row)] for i, row in enumerate(rows)]
    if all(cell == WALL for row in codes for cell in row):
        raise ValueError("maze_map has no free cell for the agent and the goal")
    return codes


def build(
    agent_xml: str, maze_map: Any, maze_size_scaling: float, maze_height: float
) -> dict[str, Any]:
    """The options of a maze task: ``model_xml`` (the model's text) and the goal and
    start cells' centres, ``goal_locations`` and ``reset_locations`` (x0, y0, x1, ...)."""
    codes = check_map(maze_map)
    tree = ET.parse(os.path.join(assets_dir(), agent_xml))
    worldbody = tree.getroot().find(".//worldbody")
    assert worldbody is not None, agent_xml
    length, width = len(codes), len(codes[0])
    x_center = width / 2 * maze_size_scaling
    y_center = length / 2 * maze_size_scaling
    half_height = maze_height / 2 * maze_size_scaling
    found: dict[Any, list[tuple[float, float]]] = {GOAL: [], RESET: [], COMBINED: [], FREE: []}
    for i, row in enumerate(codes):
        for j, cell in enumerate(row):
            x = (j + 0.5) * maze_size_scaling - x_center
            y = y_center - (i + 0.5) * maze_size_scaling
            if cell == WALL:
                half = 0.5 * maze_size_scaling
                ET.SubElement(
                    worldbody,
                    "geom",
                    name=f"block_{i}_{j}",
                    pos=f"{x} {y} {half_height}",
                    size=f"{half} {half} {half_height}",
                    type="box",
                    material="",
                    contype="1",
                    conaffinity="1",
                    rgba="0.7 0.5 0.3 1.0",
                )
            else:
                found[cell].append((x, y))
    ET.SubElement(
        worldbody,
        "site",
        name="target",
        pos=f"0 0 {half_height}",
        size=f"{0.2 * maze_size_scaling}",
        rgba="1 0 0 0.7",
        type="sphere",
    )
    goals, resets, combined = found[GOAL], found[RESET], found[COMBINED]
    # cells for what the map leaves unmarked: its free cells
    if not goals and not resets and not combined:
        combined = found[FREE]
    elif not resets and not combined:
        resets = found[FREE]
    elif not goals and not combined:
        goals = found[FREE]
    goals, resets = goals + combined, resets + combined
    if not goals or not resets:
        raise ValueError("maze_map needs a cell for the goal and one for the agent's start")
    return {
        "model_xml": ET.tostring(tree.getroot(), encoding="unicode"),
        "goal_locations": tuple(v for xy in goals for v in xy),
        "reset_locations": tuple(v for xy in resets for v in xy),
    }
