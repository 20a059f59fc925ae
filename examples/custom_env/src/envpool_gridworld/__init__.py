"""An example envpool env package: GridWorld, built in C++ against the installed envpool.

envpool finds it through the ``envpool.envs`` entry point, which calls
:func:`register_envs`; ``envpool.make("GridWorld-v0")`` then works without importing
this package.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ENTRY_POINT", "TASKS", "register_envs"]

ENTRY_POINT = "envpool_gridworld._gridworld:GridWorld"

# task id -> (max_episode_steps, option overrides)
TASKS: dict[str, tuple[int, dict[str, Any]]] = {
    "GridWorld-v0": (100, {}),
    "GridWorldSlippery-v0": (100, {"slip_prob": 0.2}),
}

_registered = False


def register_envs() -> None:
    """Registers the GridWorld tasks with envpool; later calls do nothing."""
    global _registered
    if _registered:
        return
    import envpool

    for task_id, (max_episode_steps, options) in TASKS.items():
        envpool.register(task_id, ENTRY_POINT, max_episode_steps=max_episode_steps, **options)
    _registered = True
