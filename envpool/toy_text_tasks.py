"""gymnasium's toy-text tasks (Blackjack, FrozenLake, CliffWalking, Taxi), served by ``envpool._core``.

Time limits, default options and frame rates are gymnasium 1.4's.
"""

from __future__ import annotations

from envpool.registry import register

_CORE = "envpool._core"
_FPS = 4  # gymnasium's metadata["render_fps"] for every toy-text task
