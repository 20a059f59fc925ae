"""Runs the cases of a benchmark: every task x num_envs x engine, with a progress bar."""

from __future__ import annotations

import contextlib
import io
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO

from envpool.bench.engines import (
    PEERS,
    CannotRunError,
    Case,
    Engine,
    EnvpoolEngine,
    OriginalEnvpoolEngine,
    TaskInfo,
    task_info,
)
from envpool.procgen_runtime import ProcgenUnavailableError

DEFAULT_TASKS = ("CartPole-v1", "Pong-v5")
DEFAULT_NUM_ENVS = {
    "classic": (8, 64, 256),
    "atari": (4, 8, 16),
    "mujoco": (8, 16, 32),
    "box2d": (8, 16, 32),
    "dmc": (8, 16, 32),
    "minigrid": (8, 64, 256),
    "mpe2": (8, 32, 128),
    "procgen": (8, 32, 128),
    "robotics": (8, 32, 128),
}
DEFAULT_SECONDS = 1.0
REPORTED_PACKAGES = (
    "envpool",
    "numpy",
    "gymnasium",
    "ale-py",
    "opencv-python-headless",
    "mujoco",
    "gymnasium-robotics",
    "minigrid",
    "mpe2",
    "pettingzoo",
    "supersuit",
)
"""The packages whose versions a report records (those installed)."""


@dataclass
class Settings:
    """What `envpool bench` measures."""

    tasks: Sequence[str] = DEFAULT_TASKS
    num_envs: Sequence[int] | None = None
    """None: DEFAULT_NUM_ENVS for each task's family."""
    batch_size: int | None = None
    num_threads: int | None = None
    seconds: float = DEFAULT_SECONDS
    peers: bool = True
    peer_python: str | None = None
    peer_names: Sequence[str] | None = None
    """Which in-process peers to run, by engine name (None: all that apply)."""

    def num_envs_for(self, task: TaskInfo) -> tuple[int, ...]:
        if self.num_envs:
            return tuple(self.num_envs)
        return DEFAULT_NUM_ENVS[task.family]


@dataclass
class Measurement:
    task: str
    engine: str
    num_envs: int
    batch_size: int
    """Envs stepped per call: num_envs in sync mode."""
    num_threads: int | None
    steps_per_second: float
    frames_per_second: float | None
    """Emulator frames per second (steps x frame_skip) for Atari tasks, else None."""
    agent_steps_per_second: float | None = None
    """Agent steps per second (steps x agents per env) for multi-agent tasks, else None."""


@dataclass
class Skipped:
    task: str
    engine: str
    reason: str
    num_envs: list[int] = field(default_factory=list)
    """The sizes skipped; empty when the engine was skipped for the whole task."""


@dataclass
class Report:
    settings: dict[str, Any]
    measurements: list[Measurement]
    skipped: list[Skipped]
    frame_skip: dict[str, int]
    versions: dict[str, str]
    seconds_taken: float
    agents: dict[str, int] = field(default_factory=dict)
    """Agents per env of each multi-agent task."""

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": self.settings,
            "versions": self.versions,
            "machine": machine(),
            "frame_skip": self.frame_skip,
            "agents": self.agents,
            "results": [asdict(m) for m in self.measurements],
            "skipped": [asdict(s) for s in self.skipped],
            "seconds_taken": self.seconds_taken,
        }


def machine() -> dict[str, Any]:
    import os
    import platform

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def versions() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for name in REPORTED_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


class Progress:
    """A tqdm bar when tqdm is installed, else one plain line per finished case (stderr).

    Notes (skipped engines) go to `out` in both cases, above the bar.
    """

    def __init__(self, total: int, out: TextIO, enabled: bool = True) -> None:
        self.total, self.done, self.out = total, 0, out
        self.bar: Any = None
        self.enabled = enabled
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        tqdm.monitor_interval = 0  # no monitor thread: AsyncVectorEnv forks
        self.bar = tqdm(total=total, unit="run", file=sys.stderr, leave=False, dynamic_ncols=True)

    def start(self, label: str) -> None:
        if self.bar is not None:
            self.bar.set_description_str(label)

    def finish(self, label: str, result: str) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.set_postfix_str(result, refresh=False)
            self.bar.update(1)
        elif self.enabled:
            width = len(str(self.total))
            print(f"[{self.done:>{width}}/{self.total}] {label}: {result}", file=sys.stderr)

    def note(self, message: str) -> None:
        if self.bar is not None:
            self.bar.write(message, file=self.out)
        else:
            print(message, file=self.out, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def engines_for(settings: Settings) -> list[Engine]:
    engines: list[Engine] = [EnvpoolEngine()]
    if settings.peers:
        names = settings.peer_names
        engines.extend(p for p in PEERS if names is None or p.name in names)
    if settings.peer_python:
        engines.append(OriginalEnvpoolEngine(settings.peer_python))
    return engines


def run(settings: Settings, out: TextIO = sys.stdout, progress: bool = True) -> Report:
    """Measures every case of `settings`; one-line notes about skipped engines go to `out`."""
    started = time.perf_counter()
    tasks: list[TaskInfo] = []
    skipped: list[Skipped] = []
    for task_id in settings.tasks:
        try:
            tasks.append(task_info(task_id))
        except ProcgenUnavailableError as exc:  # procgen's game library cannot be had here
            skipped.append(Skipped(task_id, "envpool", str(exc)))
    engines = engines_for(settings)
    cases: list[tuple[Engine, Case]] = []
    for task in tasks:
        usable = []
        for engine in engines:
            if not engine.applies(task):
                continue
            reason = engine.unavailable(task)
            if reason:
                skipped.append(Skipped(task.task_id, engine.name, reason))
            else:
                usable.append(engine)
        too_many: dict[tuple[str, str], list[int]] = {}
        for n in settings.num_envs_for(task):  # sizes outside, so one size's runs are close
            for engine in usable:
                limit = engine.too_many(n)
                if limit:
                    too_many.setdefault((engine.name, limit), []).append(n)
                    continue
                batch = settings.batch_size if engine.async_capable else None
                cases.append((engine, Case(task, n, batch, settings.num_threads, settings.seconds)))
        skipped.extend(Skipped(task.task_id, e, r, ns) for (e, r), ns in too_many.items())

    bar = Progress(len(cases), out, enabled=progress)
    grouped: dict[tuple[str, str, str], list[str]] = {}  # one line per task and reason
    for s in skipped:
        grouped.setdefault((s.task, _sizes(s.num_envs), s.reason), []).append(s.engine)
    for (task_id, sizes, reason), names in grouped.items():
        bar.note(f"note: {task_id}: {', '.join(names)} skipped{sizes}: {reason}")
    measurements: list[Measurement] = []
    failed: dict[tuple[str, str], Skipped] = {}  # a peer that failed once is not run again
    try:
        for engine, case in cases:
            label = f"{case.task.task_id} {case.num_envs} envs: {engine.name}"
            bar.start(label)
            key = (case.task.task_id, engine.name)
            if key in failed:
                failed[key].num_envs.append(case.num_envs)
                bar.finish(label, "skipped")
                continue
            try:
                # A peer's own prints (minigrid's "Sampling rejected" lines while it
                # generates BabyAI levels) would break up the tables: kept out of them.
                with (
                    contextlib.redirect_stdout(io.StringIO())
                    if engine.peer
                    else contextlib.nullcontext()
                ):
                    rate = engine.measure(case)
            except Exception as exc:
                if not isinstance(exc, CannotRunError) and not engine.peer:
                    raise
                reason = str(exc) if isinstance(exc, CannotRunError) else _describe(exc)
                failed[key] = Skipped(case.task.task_id, engine.name, reason, [case.num_envs])
                skipped.append(failed[key])
                bar.note(f"note: {label} failed, so it is left out: {reason}")
                bar.finish(label, "skipped")
                continue
            frames = rate * case.task.frame_skip if case.task.is_atari else None
            agents = len(case.task.agents)
            measurements.append(
                Measurement(
                    case.task.task_id,
                    engine.name,
                    case.num_envs,
                    case.rows,
                    case.num_threads,
                    rate,
                    frames,
                    rate * agents if agents else None,
                )
            )
            bar.finish(label, f"{rate:,.0f} steps/s")
    finally:
        bar.close()

    vers = versions()
    for engine in engines:
        if isinstance(engine, OriginalEnvpoolEngine) and engine.version:
            vers["original EnvPool"] = engine.version
    return Report(
        settings={
            "tasks": list(settings.tasks),
            "num_envs": {t.task_id: list(settings.num_envs_for(t)) for t in tasks},
            "batch_size": settings.batch_size,
            "num_threads": settings.num_threads,
            "seconds": settings.seconds,
            "peers": settings.peers,
            "peer_python": settings.peer_python,
        },
        measurements=measurements,
        skipped=skipped,
        frame_skip={t.task_id: t.frame_skip for t in tasks},
        versions=vers,
        seconds_taken=time.perf_counter() - started,
        agents={t.task_id: len(t.agents) for t in tasks if t.is_multi_agent},
    )


def _describe(exc: BaseException) -> str:
    """A peer's failure in one line: its type and the first line of its message."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def _sizes(num_envs: list[int]) -> str:
    if not num_envs:
        return ""
    return f" at num_envs {', '.join(map(str, num_envs))}"
