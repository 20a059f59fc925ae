"""MuJoCo env steps/s: envpool against gymnasium, the original EnvPool and raw mj_step.

It takes gymnasium's MuJoCo tasks (e.g. HalfCheetah-v5), the DeepMind Control
Suite tasks (e.g. CheetahRun-v1) and gymnasium-robotics' PointMaze tasks (e.g.
PointMaze_Medium-v3). For a DMC task the reference peer is dm_control
itself (its envs stepped in a Python loop) instead of gymnasium, the model file is
the one envpool writes from the installed dm_control, and frame_skip is the task's
physics steps per control step. For a PointMaze task the reference peer is the
faster (in each round) of gymnasium's SyncVectorEnv and AsyncVectorEnv over
``gymnasium.make`` of gymnasium-robotics' env (the original EnvPool has no such
task), the model is the maze's MJCF text envpool writes in memory (the task's
``model_xml``), frame_skip is 1 and the ceilings reset every time-limit steps
(600 for Medium). Its physics is small (a ball among boxes, a few microseconds an
env step), so a peer's per-step Python costs weigh much more than in the other tasks.

    python benchmarks/bench_mujoco.py [--tasks HalfCheetah-v5 Ant-v5 Hopper-v5]
        [--num-envs 8] [--num-threads 2] [--batch-size 4] [--seconds 3] [--rounds 3]
        [--peer-python /path/to/python] [--json out.json]

Every engine steps --num-envs copies of a task with the same kind of pre-drawn
uniform random actions: envpool in sync mode and async (--batch-size envs per
recv), gymnasium's SyncVectorEnv over gymnasium.make envs, and, with
--peer-python, the original EnvPool from another Python (sync and async, in a
subprocess).

The ceiling is raw MuJoCo on one core, one MjModel/MjData from gymnasium's model
file, the loop running in C; one env step is frame_skip physics steps, and the
data is reset every 1000 env steps (the tasks' time limit; a PointMaze task's own time
limit). It is measured two ways:

- rollout: ``mujoco.rollout.rollout`` over one 1000-step episode per call, with a
  fresh uniform random ctrl every env step, as the envs get. envpool's fraction
  of the ceiling is taken of this rate times --num-threads.
- mj_step: ``mujoco.mj_step(model, data, nstep=frame_skip * 100)`` with ctrl set
  to a random action before each call, so a ctrl is held for 100 env steps. The
  states this drives the models into differ (HalfCheetah lies on its back under
  a held torque, with more contacts), so it can be slower than rollout.

Neither includes the mj_rnePostConstraint the envs call once per env step
(about 1% of a step). Both run with libmujoco's ``mjcb_time`` callback cleared,
as envpool is measured: importing the mujoco Python package installs that timer
callback, a global of the shared library, which costs about 10% of mj_step in
every user of the process (envpool included); envpool alone does not import the
package. The gymnasium peers run as their users get them, with the callback set.

A PointMaze env step does more than mj_step: gymnasium-robotics clips the ball's
velocity through ``set_state``, which calls mj_forward, before each mj_step (and
envpool does the same, to match it). For PointMaze a third row times that work,
mj_forward + mj_step + mj_rnePostConstraint with a random ctrl per env step, in a
Python loop (callback cleared too): a lower bound of its rate in C, as the loop's
binding calls cost about a microsecond of its ~6 us.

Each round measures every engine and the ceiling once per task; the tables show
the median over the rounds with the range, and ratios are the medians of the
ratios within a round (the machine is shared and noisy, so compare within a run).
`envpool bench --task HalfCheetah-v5` (or PointMaze_Medium-v3) compares more sizes and peers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from envpool.bench import engines as eng
from envpool.bench.report import finish_script_run
from envpool.bench.runner import versions

DEFAULT_TASKS = ("HalfCheetah-v5", "Ant-v5", "Hopper-v5")
HELD_ENV_STEPS = 100
"""K: env steps per call of the mj_step ceiling, all with one ctrl (frame_skip * K mj_steps)."""
EPISODE = 1000
"""Env steps between resets of the ceilings' MjData (the tasks' time limit)."""

ENVPOOL = "envpool"
ORIGINAL = "original EnvPool"
GYM_SYNC = "gymnasium SyncVectorEnv"
GYM_ASYNC = "gymnasium AsyncVectorEnv"
DM_LOOP = "dm_control for-loop"
REFERENCE = {"mujoco": (GYM_SYNC,), "dmc": (DM_LOOP,), "robotics": (GYM_SYNC, GYM_ASYNC)}
"""The peers each family's tasks are compared with besides the original EnvPool (the
faster of them in each round); a family's tasks run only its own of these."""
IN_MEMORY = "in memory: the task's model_xml"
"""TaskRun.xml_file of a model envpool writes in memory (PointMaze's maze)."""
ROLLOUT = "MuJoCo rollout, random ctrl per env step"
HELD = f"MuJoCo mj_step, ctrl held {HELD_ENV_STEPS} env steps"
ENV_WORK = "mj_forward + mj_step + mj_rnePostConstraint per env step, Python loop"
CEILINGS = (ROLLOUT, HELD, ENV_WORK)


@dataclass
class TaskRun:
    """The measurements of one task: engine -> mode ("sync" / "async") -> one rate per round."""

    task: str
    frame_skip: int
    xml_file: str
    family: str = "mujoco"
    episode: int = EPISODE
    """Env steps between resets of the ceilings' MjData (the task's time limit)."""
    rates: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def add(self, engine: str, mode: str, rate: float) -> None:
        self.rates.setdefault(engine, {}).setdefault(mode, []).append(rate)

    def best(self, engine: str, round_: int) -> float | None:
        """The engine's faster mode in one round."""
        found = [r[round_] for r in self.rates.get(engine, {}).values() if len(r) > round_]
        return max(found) if found else None


def mujoco_model(task_id: str) -> tuple[str, int]:
    """The model file (in gymnasium's assets, or written from dm_control's; IN_MEMORY for
    PointMaze's maze) and the physics steps per env step of envpool's `task_id`."""
    import mujoco

    import envpool
    from envpool.families.mujoco.tasks import assets_dir

    config = envpool.make_spec(task_id).config
    if eng.task_family(task_id) == "robotics":
        # the mazes' models are written in memory; Fetch's and Adroit's are files
        model = str(config.get("model_file") or IN_MEMORY)
        return model, int(config["frame_skip"])  # PointMaze 1, Fetch 20, others 5
    if eng.task_family(task_id) == "dmc":
        path = str(config["model_file"])
        timestep = mujoco.MjModel.from_xml_path(path).opt.timestep
        return path, round(float(config["control_timestep"]) / timestep)
    return os.path.join(assets_dir(), str(config["xml_file"])), int(config["frame_skip"])


def task_run(task_id: str) -> TaskRun:
    """An empty TaskRun of envpool's `task_id`: its model, frame_skip, family and the
    ceilings' episode (PointMaze's time limit; EPISODE for the others)."""
    import envpool

    xml_file, frame_skip = mujoco_model(task_id)
    family = eng.task_family(task_id)
    episode = EPISODE
    if family == "robotics":
        episode = int(envpool.make_spec(task_id).config["max_episode_steps"])
    return TaskRun(task_id, frame_skip, xml_file, family, episode)


def load_model(run: TaskRun) -> Any:
    """The task's MjModel, from its file or from the MJCF text envpool writes in memory."""
    import mujoco

    import envpool

    if run.xml_file == IN_MEMORY:
        config = envpool.make_spec(run.task).config
        model = mujoco.MjModel.from_xml_string(str(config["model_xml"]))
        # the agent starts on the maze's first start cell, as an episode does (its
        # model's own origin may be inside a wall: AntMaze_UMaze's centre cell is one)
        model.qpos0[:2] = list(config["reset_locations"])[:2]
        return model
    return mujoco.MjModel.from_xml_path(run.xml_file)


def raw_rollout(task: TaskRun, seconds: float) -> float:
    """Env steps/s of one thread running whole episodes with mujoco.rollout."""
    import mujoco
    from mujoco import rollout

    model = load_model(task)
    frame_skip, episode = task.frame_skip, task.episode
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    initial = np.empty((1, mujoco.mj_stateSize(model, spec)))
    mujoco.mj_getState(model, data, initial[0], spec)
    rng = np.random.default_rng(0)
    low, high = model.actuator_ctrlrange.T
    controls = [  # one action per env step, held for its frame_skip physics steps
        np.repeat(rng.uniform(low, high, size=(episode, model.nu)), frame_skip, axis=0)[None]
        for _ in range(4)
    ]
    nstep = episode * frame_skip
    state = np.empty((1, nstep, initial.shape[1]))
    sensordata = np.empty((1, nstep, model.nsensordata))
    calls = 0

    def run(k: int) -> int:
        nonlocal calls
        for _ in range(k):
            rollout.rollout(
                model,
                data,
                initial,
                controls[calls % len(controls)],
                state=state,
                sensordata=sensordata,
            )
            calls += 1
        return k * episode

    with eng.mujoco_timer_off():  # as in a C program: no data.timer profiling
        return eng.timed(run, seconds)


def raw_mj_step(task: TaskRun, seconds: float) -> float:
    """Env steps/s of one thread calling mj_step(nstep=frame_skip * K), one ctrl per call."""
    import mujoco

    model = load_model(task)
    frame_skip, episode = task.frame_skip, task.episode
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    rng = np.random.default_rng(0)
    low, high = model.actuator_ctrlrange.T.copy()
    k = HELD_ENV_STEPS
    since_reset = 0

    def run(calls: int) -> int:
        nonlocal since_reset
        for _ in range(calls):
            data.ctrl[:] = rng.uniform(low, high)
            mujoco.mj_step(model, data, nstep=frame_skip * k)
            since_reset += k
            if since_reset >= episode:
                mujoco.mj_resetData(model, data)
                mujoco.mj_forward(model, data)
                since_reset = 0
        return calls * k

    with eng.mujoco_timer_off():  # as in a C program: no data.timer profiling
        return eng.timed(run, seconds)


def raw_env_work(task: TaskRun, seconds: float) -> float:
    """Env steps/s of one thread doing a PointMaze env step's physics in a Python loop:
    mj_forward (gymnasium-robotics' set_state), mj_step, mj_rnePostConstraint, with a
    fresh random ctrl each step."""
    import mujoco

    model = load_model(task)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    low, high = model.actuator_ctrlrange.T
    controls = np.random.default_rng(0).uniform(low, high, size=(task.episode, model.nu))

    def run(k: int) -> int:
        for _ in range(k):
            for ctrl in controls:
                data.ctrl[:] = ctrl
                mujoco.mj_forward(model, data)
                mujoco.mj_step(model, data)
                mujoco.mj_rnePostConstraint(model, data)
            mujoco.mj_resetData(model, data)
        return k * task.episode

    with eng.mujoco_timer_off():
        return eng.timed(run, seconds)


CEILING_RUNS = {ROLLOUT: raw_rollout, HELD: raw_mj_step, ENV_WORK: raw_env_work}
CEILING_FAMILIES = {ENV_WORK: ("robotics",)}
"""The ceilings measured for some families only (the others: for every task)."""


def ceilings_for(run: TaskRun) -> list[str]:
    """The ceilings of `run`: the env-work row is PointMaze's step (AntMaze's is its Ant's
    frame_skip mj_steps, which the other rows already time)."""
    return [
        c
        for c in CEILINGS
        if run.family in CEILING_FAMILIES.get(c, (run.family,))
        and (c != ENV_WORK or run.task.startswith("PointMaze"))
    ]


def _median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def _rate(xs: Sequence[float] | None) -> str:
    # envpool.bench is this envpool's: bench_jax's peer worker runs the original's
    from envpool.bench.report import rate_with_range

    return rate_with_range(xs)


def _ratio_over_rounds(pairs: Sequence[tuple[float | None, float | None]]) -> float | None:
    ratios = [a / b for a, b in pairs if a and b]
    return _median(ratios) if ratios else None


def _x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def envpool_vs(run: TaskRun, peer: str, rounds: int) -> float | None:
    """Median over rounds of envpool's best mode / the peer's best mode."""
    return _ratio_over_rounds([(run.best(ENVPOOL, i), run.best(peer, i)) for i in range(rounds)])


def reference_best(run: TaskRun, round_: int) -> float | None:
    """The fastest of the task family's reference peers (REFERENCE) in one round."""
    found = [x for name in REFERENCE[run.family] if (x := run.best(name, round_)) is not None]
    return max(found) if found else None


def envpool_vs_reference(run: TaskRun, rounds: int) -> float | None:
    """Median over rounds of envpool's best mode / the fastest reference peer's."""
    return _ratio_over_rounds(
        [(run.best(ENVPOOL, i), reference_best(run, i)) for i in range(rounds)]
    )


def ceiling_fraction(run: TaskRun, ceiling: str, threads: int, rounds: int) -> float | None:
    """Median over rounds of envpool's best mode / (threads x the one-core ceiling)."""
    core = run.rates.get(ceiling, {}).get("one core", [])
    pairs = [(run.best(ENVPOOL, i), threads * core[i]) for i in range(min(len(core), rounds))]
    return _ratio_over_rounds(pairs)


def task_table(run: TaskRun, args: argparse.Namespace, original_name: str) -> list[str]:
    n, t, b, r = args.num_envs, args.num_threads, args.batch_size, args.rounds
    lines = [
        f"{run.task}: {n} envs, {t} threads, frame_skip {run.frame_skip}, ceilings reset "
        f"every {run.episode} env steps; env steps/s, median of {r} round(s) of "
        f"{args.seconds:g} s (range)",
        "",
        f"| engine | sync | async (batch_size {b}) | envpool (best mode) / this |",
        "|---|---:|---:|---:|",
    ]
    for name, label in (
        (ENVPOOL, ENVPOOL),
        (ORIGINAL, original_name),
        (GYM_SYNC, GYM_SYNC),
        (GYM_ASYNC, GYM_ASYNC),
        (DM_LOOP, DM_LOOP),
    ):
        if name not in run.rates:
            continue
        modes = run.rates[name]
        ratio = "" if name == ENVPOOL else _x(envpool_vs(run, name, r))
        lines.append(
            f"| {label} | {_rate(modes.get('sync'))} | {_rate(modes.get('async'))} | {ratio} |"
        )
    if len(REFERENCE[run.family]) > 1:
        best = [x for i in range(r) if (x := reference_best(run, i)) is not None]
        label = "the faster gymnasium vector env in each round"
        lines.append(f"| {label} | {_rate(best)} | | {_x(envpool_vs_reference(run, r))} |")
    for name in CEILINGS:
        core = run.rates.get(name, {}).get("one core")
        if core:
            total = _rate([t * c for c in core])
            fraction = _pct(ceiling_fraction(run, name, t, r))
            per_core = f"{_median(core):,.0f}"
            lines.append(f"| {name} ({t} x one core: {per_core}) | {total} | | {fraction} |")
    for name, reason in run.skipped.items():
        lines.append(f"note: {name} left out: {reason}")
    return lines


def summary_table(runs: list[TaskRun], args: argparse.Namespace, original_name: str) -> list[str]:
    t, r = args.num_threads, args.rounds
    lines = [
        f"| task | envpool sync | envpool async | {original_name} (best mode) "
        f"| reference peer ({GYM_SYNC}, {DM_LOOP}, or for PointMaze the faster of "
        f"{GYM_SYNC} and {GYM_ASYNC}) "
        "| envpool / original | envpool / reference | MuJoCo per core (rollout) "
        f"| envpool / {t}-core ceiling |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        ours = run.rates.get(ENVPOOL, {})
        orig_best = [x for i in range(r) if (x := run.best(ORIGINAL, i)) is not None]
        ref_best = [x for i in range(r) if (x := reference_best(run, i)) is not None]
        cells = [
            run.task,
            _rate(ours.get("sync")),
            _rate(ours.get("async")),
            _rate(orig_best),
            _rate(ref_best),
            _x(envpool_vs(run, ORIGINAL, r)),
            _x(envpool_vs_reference(run, r)),
            _rate(run.rates.get(ROLLOUT, {}).get("one core")),
            _pct(ceiling_fraction(run, ROLLOUT, t, r)),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _measure(engine: eng.Engine, case: eng.Case, run: TaskRun, mode: str) -> None:
    """Adds the engine's rate on `case` to `run`, or notes why it cannot run."""
    name = engine.name
    if name in run.skipped:
        return
    try:
        rate = engine.measure(case)
    except eng.CannotRunError as exc:
        run.skipped[name] = str(exc)
        print(f"note: {run.task}: {name} left out: {exc}", file=sys.stderr)
        return
    run.add(name, mode, rate)
    print(f"  {run.task} {name} {mode}: {rate:,.0f} steps/s", file=sys.stderr, flush=True)


def runs_on(engine: eng.Engine, run: TaskRun, info: eng.TaskInfo) -> bool:
    """Whether `engine` is measured on `run`'s task: a reference peer (gymnasium's vector
    envs, dm_control's loop) only on its family's tasks (REFERENCE), the rest where they apply."""
    reference_peers = {name for names in REFERENCE.values() for name in names}
    if engine.name in reference_peers and engine.name not in REFERENCE[run.family]:
        return False
    return engine.applies(info)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tasks", nargs="+", default=list(DEFAULT_TASKS))
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-threads", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4, help="async batch size (0: no async)")
    parser.add_argument("--seconds", type=float, default=3.0, help="timed seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over every engine and task")
    parser.add_argument("--peer-python", help="a Python with the original EnvPool installed")
    parser.add_argument("--no-peers", action="store_true", help="envpool and the ceiling only")
    parser.add_argument("--json", help="write every round's numbers to this file")
    args = parser.parse_args(argv)
    n, t, b, s = args.num_envs, args.num_threads, args.batch_size, args.seconds

    from envpool.registry import get_task

    runs: list[TaskRun] = []
    infos: dict[str, eng.TaskInfo] = {}
    for task_id in args.tasks:
        try:
            if eng.task_family(task_id) not in REFERENCE:
                raise ValueError("neither a MuJoCo, a DMC nor a gymnasium-robotics task")
            get_task(task_id).load()
        except (ImportError, ValueError) as exc:
            print(f"note: {task_id} left out: {exc}", file=sys.stderr)
            continue
        runs.append(task_run(task_id))
        infos[task_id] = eng.task_info(task_id)
    if not runs:
        print("no task to measure", file=sys.stderr)
        return 1

    original = eng.OriginalEnvpoolEngine(args.peer_python) if args.peer_python else None
    gym_sync = eng.SyncVectorEngine()
    gym_async = eng.AsyncVectorEngine()
    dm_loop = eng.DmControlLoopEngine()
    ours = eng.EnvpoolEngine()
    # (engine, batch_size, mode), measured in this order in every round
    plan: list[tuple[eng.Engine, int | None, str]] = [(ours, None, "sync")]
    if 0 < b < n:
        plan.append((ours, b, "async"))
    if not args.no_peers:
        if original is not None:
            plan.append((original, None, "sync"))
            if 0 < b < n:
                plan.append((original, b, "async"))
        plan.append((gym_sync, None, "sync"))
        plan.append((gym_async, None, "sync"))  # all envs each step: the sync column
        plan.append((dm_loop, None, "sync"))
    for run in runs:
        for peer in (gym_sync, gym_async, dm_loop):
            if not runs_on(peer, run, infos[run.task]):
                continue
            reason = peer.unavailable(infos[run.task])
            if reason:
                run.skipped[peer.name] = reason

    load_before = os.getloadavg()
    for i in range(args.rounds):
        print(f"round {i + 1}/{args.rounds}", file=sys.stderr, flush=True)
        for run in runs:
            for engine, batch, mode in plan:
                if not runs_on(engine, run, infos[run.task]):
                    continue
                _measure(engine, eng.Case(infos[run.task], n, batch, t, s), run, mode)
            for name in ceilings_for(run):
                rate = CEILING_RUNS[name](run, s)
                run.add(name, "one core", rate)
                print(f"  {run.task} {name}, one core: {rate:,.0f} steps/s", file=sys.stderr)
    load_after = os.getloadavg()

    original_name = ORIGINAL
    if original is not None and original.version:
        original_name = f"{ORIGINAL} {original.version}"
    print()
    for run in runs:
        print("\n".join(task_table(run, args, original_name)))
        print()
    print(f"Summary ({n} envs, {t} threads, async batch_size {b}; median (range) of env steps/s):")
    print()
    print("\n".join(summary_table(runs, args, original_name)))
    print()
    vers = versions()
    if original is not None and original.version:
        vers[ORIGINAL] = original.version
    loads = (load_before[0], load_after[0])
    finish_script_run(args.json, vars(args), vers, loads, ("tasks", [asdict(r) for r in runs]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
