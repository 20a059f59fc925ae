"""mpe2's scenarios (mpe2 1.1.1), each a multi-agent task: ``envpool.make`` gives a
``MultiAgentEnvPool`` (envpool/multi_agent.py). Every scenario ends its episodes itself
after ``max_cycles`` steps (truncation), so the tasks have no separate time limit."""

from __future__ import annotations

from envpool.registry import register_family, task

_MODULE = "envpool._mpe2"

TABLE = [
    task("Simple-v3", f"{_MODULE}:Simple", render_fps=10),
    task("SimpleSpread-v3", f"{_MODULE}:SimpleSpread", render_fps=10),
]
register_family("mpe2", TABLE)
