"""The one check every robotics task's option converter makes first: options the task
fixes (its model file, what gymnasium-robotics' constructor sets) are refused by name."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def refuse_fixed(options: dict[str, Any], names: Iterable[str], fixed_by: str) -> None:
    """A ValueError for the first of ``names`` the user passed: "<name> is fixed by
    <fixed_by>; leave it out"."""
    for name in names:
        if name in options:
            raise ValueError(f"{name} is fixed by {fixed_by}; leave it out")
