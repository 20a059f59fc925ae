"""mpe2's scenarios (mpe2 1.1.1), each a multi-agent task: ``envpool.make`` gives a
``MultiAgentEnvPool`` (envpool/multi_agent.py). Every scenario ends its episodes itself
after ``max_cycles`` steps (truncation), so the tasks have no separate time limit."""

from __future__ import annotations

from envpool.registry import register_family, task

_MODULE = "envpool._mpe2"

# task id -> the module's class; each scenario's mpe2 module is its snake_case name
# with the id's version (simple_speaker_listener_v4)
_SCENARIOS = {
    "Simple-v3": "Simple",
    "SimpleAdversary-v3": "SimpleAdversary",
    "SimpleCrypto-v3": "SimpleCrypto",
    "SimplePush-v3": "SimplePush",
    "SimpleReference-v3": "SimpleReference",
    "SimpleSpeakerListener-v4": "SimpleSpeakerListener",
    "SimpleSpread-v3": "SimpleSpread",
}

TABLE = [task(task_id, f"{_MODULE}:{cls}", render_fps=10) for task_id, cls in _SCENARIOS.items()]
register_family("mpe2", TABLE)
