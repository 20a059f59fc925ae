"""`envpool bench`: env steps per second of envpool and of the peers installed beside it.

    from envpool.bench import Settings, run, format_report
    report = run(Settings(tasks=["CartPole-v1"], num_envs=[8, 64], seconds=1.0))
    print(format_report(report))

The peers are the ones importable in this Python: a plain for-loop over gymnasium
envs, gymnasium's SyncVectorEnv and AsyncVectorEnv, gymnasium's own numpy
vectorisation where it has one (CartPole), ale-py's AtariVectorEnv for Atari,
procgen's own ProcgenGym3Env for Procgen (where procgen imports), and, given another
Python that has it, the original EnvPool (run in a subprocess).
"""

from __future__ import annotations

from envpool.bench.engines import Case, Engine, TaskInfo, task_info, timed
from envpool.bench.report import check_plotting, format_report, write_json, write_plot
from envpool.bench.runner import (
    DEFAULT_NUM_ENVS,
    DEFAULT_SECONDS,
    DEFAULT_TASKS,
    Measurement,
    Report,
    Settings,
    Skipped,
    run,
)

__all__ = [
    "DEFAULT_NUM_ENVS",
    "DEFAULT_SECONDS",
    "DEFAULT_TASKS",
    "Case",
    "Engine",
    "Measurement",
    "Report",
    "Settings",
    "Skipped",
    "TaskInfo",
    "check_plotting",
    "format_report",
    "run",
    "task_info",
    "timed",
    "write_json",
    "write_plot",
]
