"""MuJoCo env steps/s: envpool against gymnasium, the original EnvPool and raw mj_step.

It takes gymnasium's MuJoCo tasks (e.g. HalfCheetah-v5) and the DeepMind Control
Suite tasks (e.g. CheetahRun-v1). For a DMC task the reference peer is dm_control
itself (its envs stepped in a Python loop) instead of gymnasium, the model file is
the one envpool writes from the installed dm_control, and frame_skip is the task's
physics steps per control step.

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
data is reset every 1000 env steps (the tasks' time limit). It is measured two ways:

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
package. The gymnasium peer runs as its users get it, with the callback set.

Each round measures every engine and the ceiling once per task; the tables show
the median over the rounds with the range, and ratios are the medians of the
ratios within a round (the machine is shared and noisy, so compare within a run).
`envpool bench --task HalfCheetah-v5` compares more sizes and peers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

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
DM_LOOP = "dm_control for-loop"
REFERENCE = {"mujoco": GYM_SYNC, "dmc": DM_LOOP}
"""The peer each family's tasks are compared with besides the original EnvPool."""
ROLLOUT = "MuJoCo rollout, random ctrl per env step"
HELD = f"MuJoCo mj_step, ctrl held {HELD_ENV_STEPS} env steps"
CEILINGS = (ROLLOUT, HELD)


@dataclass
class TaskRun:
    """The measurements of one task: engine -> mode ("sync" / "async") -> one rate per round."""

    task: str
    frame_skip: int
    xml_file: str
    family: str = "mujoco"
    rates: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)

    def add(self, engine: str, mode: str, rate: float) -> None:
        self.rates.setdefault(engine, {}).setdefault(mode, []).append(rate)

    def best(self, engine: str, round_: int) -> float | None:
        """The engine's faster mode in one round."""
        found = [r[round_] for r in self.rates.get(engine, {}).values() if len(r) > round_]
        return max(found) if found else None


def mujoco_model(task_id: str) -> tuple[str, int]:
    """The model file (in gymnasium's assets, or written from dm_control's) and the
    physics steps per env step of envpool's `task_id`."""
    import mujoco

    import envpool
    from envpool.families.mujoco.tasks import assets_dir

    config = envpool.make_spec(task_id).config
    if eng.task_family(task_id) == "dmc":
        path = str(config["model_file"])
        timestep = mujoco.MjModel.from_xml_path(path).opt.timestep
        return path, round(float(config["control_timestep"]) / timestep)
    return os.path.join(assets_dir(), str(config["xml_file"])), int(config["frame_skip"])


def raw_rollout(xml_path: str, frame_skip: int, seconds: float) -> float:
    """Env steps/s of one thread running whole episodes with mujoco.rollout."""
    import mujoco
    from mujoco import rollout

    model = mujoco.MjModel.from_xml_path(xml_path)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    initial = np.empty((1, mujoco.mj_stateSize(model, spec)))
    mujoco.mj_getState(model, data, initial[0], spec)
    rng = np.random.default_rng(0)
    low, high = model.actuator_ctrlrange.T
    controls = [  # one action per env step, held for its frame_skip physics steps
        np.repeat(rng.uniform(low, high, size=(EPISODE, model.nu)), frame_skip, axis=0)[None]
        for _ in range(4)
    ]
    nstep = EPISODE * frame_skip
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
        return k * EPISODE

    with eng.mujoco_timer_off():  # as in a C program: no data.timer profiling
        return eng.timed(run, seconds)


def raw_mj_step(xml_path: str, frame_skip: int, seconds: float) -> float:
    """Env steps/s of one thread calling mj_step(nstep=frame_skip * K), one ctrl per call."""
    import mujoco

    model = mujoco.MjModel.from_xml_path(xml_path)
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
            if since_reset >= EPISODE:
                mujoco.mj_resetData(model, data)
                mujoco.mj_forward(model, data)
                since_reset = 0
        return calls * k

    with eng.mujoco_timer_off():  # as in a C program: no data.timer profiling
        return eng.timed(run, seconds)


CEILING_RUNS = {ROLLOUT: raw_rollout, HELD: raw_mj_step}


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


def ceiling_fraction(run: TaskRun, ceiling: str, threads: int, rounds: int) -> float | None:
    """Median over rounds of envpool's best mode / (threads x the one-core ceiling)."""
    core = run.rates.get(ceiling, {}).get("one core", [])
    pairs = [(run.best(ENVPOOL, i), threads * core[i]) for i in range(min(len(core), rounds))]
    return _ratio_over_rounds(pairs)


def task_table(run: TaskRun, args: argparse.Namespace, original_name: str) -> list[str]:
    n, t, b, r = args.num_envs, args.num_threads, args.batch_size, args.rounds
    lines = [
        f"{run.task}: {n} envs, {t} threads, frame_skip {run.frame_skip}; env steps/s, "
        f"median of {r} round(s) of {args.seconds:g} s (range)",
        "",
        f"| engine | sync | async (batch_size {b}) | envpool (best mode) / this |",
        "|---|---:|---:|---:|",
    ]
    for name, label in (
        (ENVPOOL, ENVPOOL),
        (ORIGINAL, original_name),
        (GYM_SYNC, GYM_SYNC),
        (DM_LOOP, DM_LOOP),
    ):
        if name not in run.rates:
            continue
        modes = run.rates[name]
        ratio = "" if name == ENVPOOL else _x(envpool_vs(run, name, r))
        lines.append(
            f"| {label} | {_rate(modes.get('sync'))} | {_rate(modes.get('async'))} | {ratio} |"
        )
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
        f"| reference peer ({GYM_SYNC} or {DM_LOOP}) "
        "| envpool / original | envpool / reference | MuJoCo per core (rollout) "
        f"| envpool / {t}-core ceiling |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for run in runs:
        ours = run.rates.get(ENVPOOL, {})
        orig_best = [x for i in range(r) if (x := run.best(ORIGINAL, i)) is not None]
        cells = [
            run.task,
            _rate(ours.get("sync")),
            _rate(ours.get("async")),
            _rate(orig_best),
            _rate(run.rates.get(REFERENCE[run.family], {}).get("sync")),
            _x(envpool_vs(run, ORIGINAL, r)),
            _x(envpool_vs(run, REFERENCE[run.family], r)),
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
                raise ValueError("neither a MuJoCo nor a DMC task")
            get_task(task_id).load()
        except (ImportError, ValueError) as exc:
            print(f"note: {task_id} left out: {exc}", file=sys.stderr)
            continue
        xml_path, frame_skip = mujoco_model(task_id)
        runs.append(TaskRun(task_id, frame_skip, xml_path, eng.task_family(task_id)))
        infos[task_id] = eng.task_info(task_id)
    if not runs:
        print("no task to measure", file=sys.stderr)
        return 1

    original = eng.OriginalEnvpoolEngine(args.peer_python) if args.peer_python else None
    gym_sync = eng.SyncVectorEngine()
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
        plan.append((dm_loop, None, "sync"))
    for run in runs:
        for peer in (gym_sync, dm_loop):
            reason = peer.unavailable(infos[run.task])
            if reason and peer.applies(infos[run.task]):
                run.skipped[peer.name] = reason

    load_before = os.getloadavg()
    for i in range(args.rounds):
        print(f"round {i + 1}/{args.rounds}", file=sys.stderr, flush=True)
        for run in runs:
            for engine, batch, mode in plan:
                if not engine.applies(infos[run.task]):
                    continue
                _measure(engine, eng.Case(infos[run.task], n, batch, t, s), run, mode)
            for name, measure in CEILING_RUNS.items():
                rate = measure(run.xml_file, run.frame_skip, s)
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
