"""`envpool tune TASK`: which threads, batch size and thread sharing run TASK fastest here.

    from envpool.tune import tune
    report = tune("Pong-v5", num_envs=8, budget=60)
    print(report.format_table())
    print(report.make_call)          # envpool.make("Pong-v5", num_envs=8, ...)

The candidates (``candidates()``) are every combination of

- num_threads: 1, 2, 4, ... up to min(num_envs, CPUs this process may use), and that
  number itself;
- batch_size: num_envs (sync: ``env.step``), and num_envs/2, /4, /8 (async:
  ``env.send`` / ``env.recv``);
- threads of the pool's own (``num_threads=t``) or a shared ThreadPool of t threads
  (``thread_pool=envpool.make_thread_pool(num_threads=t)``), the latter when this envpool has
  ``make_thread_pool``.

The search (``successive_halving()``) splits the time budget evenly over its rounds:
every candidate is measured briefly, the better half again for longer, and so on
until ``FINAL_SIZE`` are left; those are measured ``REPEATS`` times in turn and ranked
by the median. Every rate is env steps per second (an async recv returns batch_size
envs, a sync step all of them), with pre-drawn random actions, as `envpool bench`
counts them. The scheduler, the ranking and the reports take an injected measure
function, so they are tested without timing anything.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

DEFAULT_NUM_ENVS = 8
DEFAULT_BUDGET = 60.0
"""Seconds the search may take (pools opened and warmed up included)."""
FINAL_SIZE = 3
"""Candidates left for the final round."""
REPEATS = 3
"""Measurements of each finalist in the final round, in turn; ranked by their median."""
ETA = 2
"""Each round keeps 1/ETA of the candidates (rounded up)."""
MIN_SECONDS = 0.1
"""Shortest timed measurement, whatever the budget."""
CLOSE = 0.05
"""Finalists within this fraction of the pick are called a tie in the report."""

Measure = Callable[["Candidate", float], float]
"""measure(candidate, seconds): env steps per second of candidate over about `seconds`."""


@dataclass(frozen=True, order=True)
class Candidate:
    """One configuration of a pool of num_envs envs."""

    num_envs: int
    batch_size: int
    """num_envs: sync (env.step); less: async (env.send / env.recv)."""
    num_threads: int
    """make()'s num_threads, or the shared ThreadPool's number of threads."""
    shared: bool = False
    """Run on a shared ``envpool.make_thread_pool(num_threads=...)``, not threads of its own."""

    @property
    def is_async(self) -> bool:
        return self.batch_size < self.num_envs

    @property
    def mode(self) -> str:
        return "async" if self.is_async else "sync"

    @property
    def label(self) -> str:
        threads = f"shared pool of {self.num_threads}" if self.shared else f"{self.num_threads}"
        return f"{self.mode} batch {self.batch_size}, threads {threads}"

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "num_envs": self.num_envs,
            "batch_size": self.batch_size,
            "num_threads": self.num_threads,
            "shared": self.shared,
        }


def make_call(task_id: str, candidate: Candidate) -> str:
    """The ``envpool.make(...)`` line that opens `candidate`'s pool of `task_id`."""
    args = [json.dumps(task_id), f"num_envs={candidate.num_envs}"]
    if candidate.is_async:
        args.append(f"batch_size={candidate.batch_size}")
    if candidate.shared:
        args.append(f"thread_pool=envpool.make_thread_pool(num_threads={candidate.num_threads})")
    else:
        args.append(f"num_threads={candidate.num_threads}")
    return f"envpool.make({', '.join(args)})"


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask), else os.cpu_count()."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def default_threads(num_envs: int, cpus: int) -> list[int]:
    """1, 2, 4, ... up to min(num_envs, cpus), and that number itself."""
    top = max(1, min(num_envs, cpus))
    out = [t for t in (2**k for k in range(top.bit_length())) if t <= top]
    if out[-1] != top:
        out.append(top)
    return out


def default_batch_sizes(num_envs: int) -> list[int]:
    """num_envs (sync), then num_envs/2, /4, /8 (async), rounded down, distinct, >= 1."""
    out = [num_envs]
    for div in (2, 4, 8):
        b = num_envs // div
        if b >= 1 and b not in out:
            out.append(b)
    return out


def shared_available() -> bool:
    """Whether this envpool can share a thread pool between pools (envpool.make_thread_pool)."""
    import envpool

    return hasattr(envpool, "make_thread_pool")


def candidates(
    num_envs: int,
    threads: Sequence[int] | None = None,
    batch_sizes: Sequence[int] | None = None,
    shared: bool = True,
    cpus: int | None = None,
) -> list[Candidate]:
    """Every combination of threads x batch sizes x (own threads, and shared if `shared`).

    threads defaults to default_threads(num_envs, cpus), batch_sizes to
    default_batch_sizes(num_envs); cpus to usable_cpus(). Sync candidates come first,
    then async by falling batch size.
    """
    if num_envs < 1:
        raise ValueError(f"num_envs must be >= 1, got {num_envs}")
    cpus = usable_cpus() if cpus is None else cpus
    ts = sorted(set(threads)) if threads else default_threads(num_envs, cpus)
    bs = sorted(set(batch_sizes), reverse=True) if batch_sizes else default_batch_sizes(num_envs)
    for t in ts:
        if t < 1:
            raise ValueError(f"num_threads must be >= 1, got {t}")
    for b in bs:
        if not 1 <= b <= num_envs:
            raise ValueError(f"batch sizes must be in [1, num_envs={num_envs}], got {b}")
    sharing = (False, True) if shared else (False,)
    return [Candidate(num_envs, b, t, s) for b in bs for s in sharing for t in ts]


def round_sizes(count: int, final_size: int = FINAL_SIZE, eta: int = ETA) -> list[int]:
    """Candidates in each round: count, then 1/eta of the previous (rounded up), down to
    final_size; the last is the final round. E.g. 16 -> [16, 8, 4, 3]."""
    if count < 1:
        raise ValueError("no candidates")
    sizes = [count]
    while sizes[-1] > final_size:
        sizes.append(max(final_size, math.ceil(sizes[-1] / eta)))
    return sizes


@dataclass
class Run:
    """One measurement of a candidate."""

    round: int
    """0-based; the last round is the final one."""
    seconds: float
    """Timed seconds asked for (a warm-up and, the first time, opening the pool come on top)."""
    steps_per_second: float


@dataclass
class Result:
    """A candidate with its measurements; ranked by the round it reached, then its rate."""

    candidate: Candidate
    runs: list[Run] = field(default_factory=list)

    @property
    def last_round(self) -> int:
        return max(r.round for r in self.runs) if self.runs else -1

    @property
    def steps_per_second(self) -> float:
        """The median of its measurements in the last (longest) round it reached."""
        last = self.last_round
        rates = [r.steps_per_second for r in self.runs if r.round == last]
        return statistics.median(rates) if rates else 0.0

    @property
    def batches_per_second(self) -> float:
        """recv() or step() calls per second."""
        return self.steps_per_second / self.candidate.batch_size

    def spread(self) -> float:
        """(max - min) / median of the last round's rates: 0 for one measurement."""
        last = self.last_round
        rates = [r.steps_per_second for r in self.runs if r.round == last]
        if len(rates) < 2 or statistics.median(rates) <= 0:
            return 0.0
        return (max(rates) - min(rates)) / statistics.median(rates)


@dataclass
class Search:
    """What successive_halving() found: results best first (rank()), the plan and the time."""

    results: list[Result]
    round_sizes: list[int]
    seconds_per_round: list[float]
    """Timed seconds of each measurement in each round (the final one's per repeat)."""
    repeats: int
    seconds_taken: float

    @property
    def pick(self) -> Result:
        return self.results[0]


def rank(results: Sequence[Result]) -> list[Result]:
    """Best first: the furthest round reached, then the higher steps/s in that round."""
    return sorted(results, key=lambda r: (-r.last_round, -r.steps_per_second))


def successive_halving(
    items: Sequence[Candidate],
    measure: Measure,
    budget: float,
    *,
    final_size: int = FINAL_SIZE,
    repeats: int = REPEATS,
    eta: int = ETA,
    min_seconds: float = MIN_SECONDS,
    clock: Callable[[], float] = time.perf_counter,
    on_start: Callable[[Candidate, int], None] | None = None,
    on_done: Callable[[Candidate, int, float], None] | None = None,
    release: Callable[[Candidate], None] | None = None,
) -> Search:
    """Measures `items` within about `budget` seconds (by `clock`) and ranks them.

    Rounds have round_sizes(len(items)) candidates; each round gets an equal share of
    what is left of the budget, divided over its measurements. The time a measurement
    takes beyond the seconds asked for (warm-up, opening a pool) is learnt from the
    rounds before (except the first, which opens every pool) and allowed for. Every
    measurement is at least min_seconds, so a budget too small for the candidates is
    overrun. A round keeps the better 1/eta of its candidates; the final round
    measures each finalist `repeats` times, in turn, and ranks them by the median.
    on_start(c, round) and on_done(c, round, rate) report progress; release(c) is
    called when c is dropped or the search ends.
    """
    if not items:
        raise ValueError("no candidates to measure")
    if len(set(items)) != len(items):
        raise ValueError("duplicate candidates")
    if budget <= 0:
        raise ValueError(f"budget must be > 0, got {budget}")
    if repeats < 1 or eta < 2 or final_size < 1:
        raise ValueError("need repeats >= 1, eta >= 2 and final_size >= 1")
    sizes = round_sizes(len(items), final_size, eta)
    results = {c: Result(c) for c in items}
    alive = list(items)
    started = clock()
    overhead = 1.25  # elapsed / timed seconds: timed()'s warm-up is 20% (learnt below)
    per_round: list[float] = []
    for index, size in enumerate(sizes):
        final = index == len(sizes) - 1
        runs = size * (repeats if final else 1)
        left = budget - (clock() - started)
        share = left / (len(sizes) - index)
        seconds = max(min_seconds, share / (runs * overhead))
        per_round.append(seconds)
        round_started = clock()
        order = [c for _ in range(repeats) for c in alive] if final else alive
        for c in order:
            if on_start is not None:
                on_start(c, index)
            rate = float(measure(c, seconds))
            results[c].runs.append(Run(index, seconds, rate))
            if on_done is not None:
                on_done(c, index, rate)
        elapsed = clock() - round_started
        if index > 0 and elapsed > 0:  # round 1 also opened every pool: not typical
            overhead = max(1.0, elapsed / (runs * seconds))
        if not final:
            keep = {r.candidate for r in rank([results[c] for c in alive])[: sizes[index + 1]]}
            dropped = [c for c in alive if c not in keep]
            alive = [c for c in alive if c in keep]
            if release is not None:
                for c in dropped:
                    release(c)
    if release is not None:
        for c in alive:
            release(c)
    return Search(
        results=rank(list(results.values())),
        round_sizes=sizes,
        seconds_per_round=per_round,
        repeats=repeats,
        seconds_taken=clock() - started,
    )


class PoolMeasurer:
    """measure(candidate, seconds) on real pools of `task_id`, kept open between rounds.

    A pool is opened (and its ThreadPool made) on its first measurement and closed
    by release() or close(); actions are pre-drawn at random, as `envpool bench` does.
    """

    def __init__(self, task_id: str) -> None:
        from envpool.bench.engines import task_info

        self.task = task_info(task_id)
        self._open: dict[Candidate, tuple[Any, Callable[[int], int]]] = {}

    def _start(self, c: Candidate) -> tuple[Any, Callable[[int], int]]:
        import envpool
        from envpool.bench.engines import Case, envpool_loop

        kwargs: dict[str, Any] = {"num_envs": c.num_envs, "seed": 0}
        if c.is_async:
            kwargs["batch_size"] = c.batch_size
        if c.shared:
            kwargs["thread_pool"] = envpool.make_thread_pool(num_threads=c.num_threads)
        else:
            kwargs["num_threads"] = c.num_threads
            if shared_available():
                kwargs["thread_pool"] = False  # not a process-wide default pool
        env = envpool.make(self.task.task_id, **kwargs)
        case = Case(self.task, c.num_envs, c.batch_size, c.num_threads, 0.0)
        return env, envpool_loop(env, case)

    def measure(self, c: Candidate, seconds: float) -> float:
        from envpool.bench.engines import mujoco_timer_off, timed

        if c not in self._open:
            self._open[c] = self._start(c)
        with mujoco_timer_off():
            return timed(self._open[c][1], seconds)

    def release(self, c: Candidate) -> None:
        opened = self._open.pop(c, None)
        if opened is not None:
            opened[0].close()

    def close(self) -> None:
        for c in list(self._open):
            self.release(c)

    def __enter__(self) -> PoolMeasurer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class TuneReport:
    """What `envpool tune` found for one task."""

    task_id: str
    num_envs: int
    budget: float
    search: Search
    notes: list[str]
    machine: dict[str, Any]
    versions: dict[str, str]
    frame_skip: int = 1

    @property
    def pick(self) -> Result:
        return self.search.pick

    @property
    def make_call(self) -> str:
        return make_call(self.task_id, self.pick.candidate)

    def ties(self, close: float = CLOSE) -> list[int]:
        """Ranks (1-based) of the other finalists within `close` of the pick's steps/s."""
        best = self.pick.steps_per_second
        last = self.pick.last_round
        return [
            i + 1
            for i, r in enumerate(self.search.results[1:], start=1)
            if r.last_round == last and r.steps_per_second >= (1 - close) * best
        ]

    def format_table(self) -> str:
        """The ranked table: one line per candidate."""
        best = self.pick.steps_per_second or 1.0
        sizes = self.search.round_sizes
        header = ("rank", "mode", "threads", "batch", "shared", "steps/s", "batches/s", "vs best")
        rows = [(*header, "reached")]
        for i, r in enumerate(self.search.results, start=1):
            c = r.candidate
            if r.last_round == len(sizes) - 1:
                reached = f"final, median of {sum(x.round == r.last_round for x in r.runs)}"
            else:
                reached = f"round {r.last_round + 1} of {len(sizes)}"
            rows.append(
                (
                    str(i),
                    c.mode,
                    str(c.num_threads),
                    str(c.batch_size),
                    "yes" if c.shared else "no",
                    f"{r.steps_per_second:,.0f}",
                    f"{r.batches_per_second:,.0f}",
                    f"{100 * r.steps_per_second / best:.0f}%",
                    reached,
                )
            )
        widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
        right = {0, 2, 3, 5, 6, 7}
        lines = []
        for row in rows:
            cells = [
                cell.rjust(w) if k in right else cell.ljust(w)
                for k, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines)

    def format(self) -> str:
        """Header, table, the pick and its make() line, and the notes."""
        s = self.search
        c = self.pick.candidate
        m = self.machine
        plan = " -> ".join(map(str, s.round_sizes))
        lines = [
            f"envpool tune {self.task_id}: {self.num_envs} envs, {len(s.results)} candidates, "
            f"rounds of {plan} ({s.repeats} runs each in the final), "
            f"{s.seconds_taken:.0f} s of a {self.budget:g} s budget",
            f"{m['cpus']} CPUs ({m['cpu']}), {usable_cpus()} usable; Python {m['python']}",
            "",
            self.format_table(),
            "",
            f"best: {c.mode}, batch_size {c.batch_size}, "
            + (
                f"a shared ThreadPool of {c.num_threads} threads"
                if c.shared
                else f"{c.num_threads} threads of its own"
            )
            + f": {self.pick.steps_per_second:,.0f} env steps/s"
            + (
                f" ({self.pick.steps_per_second * self.frame_skip:,.0f} frames/s)"
                if self.frame_skip > 1
                else ""
            ),
            "",
            f"    env = {self.make_call}",
        ]
        if c.is_async:
            lines += [
                "    env.async_reset()",
                '    obs, rew, term, trunc, info = env.recv(); env.send(actions, info["env_id"])',
            ]
        ties = self.ties()
        notes = list(self.notes)
        if ties:
            notes.append(
                f"rank {', '.join(map(str, ties))} {'is' if len(ties) == 1 else 'are'} within "
                f"{100 * CLOSE:.0f}% of the best: about as good on this machine"
            )
        if notes:
            lines.append("")
            lines += [f"note: {n}" for n in notes]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        s = self.search
        ranked = []
        for i, r in enumerate(s.results, start=1):
            ranked.append(
                {
                    "rank": i,
                    **r.candidate.to_json(),
                    "make": make_call(self.task_id, r.candidate),
                    "steps_per_second": r.steps_per_second,
                    "batches_per_second": r.batches_per_second,
                    "relative_to_best": r.steps_per_second / (self.pick.steps_per_second or 1.0),
                    "last_round": r.last_round,
                    "runs": [
                        {"round": x.round, "seconds": x.seconds, "steps_per_second": rate}
                        for x in r.runs
                        for rate in (x.steps_per_second,)
                    ],
                }
            )
        return {
            "task": self.task_id,
            "num_envs": self.num_envs,
            "budget": self.budget,
            "seconds_taken": s.seconds_taken,
            "machine": {**self.machine, "usable_cpus": usable_cpus()},
            "versions": self.versions,
            "frame_skip": self.frame_skip,
            "search": {
                "method": "successive halving",
                "round_sizes": s.round_sizes,
                "seconds_per_round": s.seconds_per_round,
                "final_repeats": s.repeats,
                "keep_fraction": 1 / ETA,
            },
            "notes": self.notes,
            "pick": {**ranked[0], "make": self.make_call},
            "candidates": ranked,
        }


def write_json(report: TuneReport, path: str) -> None:
    with open(path, "w") as f:
        json.dump(report.to_json(), f, indent=2)
        f.write("\n")


def tune(
    task_id: str,
    num_envs: int = DEFAULT_NUM_ENVS,
    budget: float = DEFAULT_BUDGET,
    threads: Sequence[int] | None = None,
    batch_sizes: Sequence[int] | None = None,
    shared: bool = True,
    progress: bool = True,
    out: TextIO = sys.stderr,
    measure: Measure | None = None,
) -> TuneReport:
    """Searches the candidates() of `task_id` at `num_envs` envs within about `budget` s.

    shared=False leaves out the shared-ThreadPool candidates (they are left out with a
    note anyway where this envpool has no make_thread_pool). measure defaults to real
    pools (PoolMeasurer); progress shows a bar on stderr, notes go to `out`.
    """
    from envpool.bench.engines import task_info
    from envpool.bench.runner import Progress, machine, versions

    notes: list[str] = []
    if shared and not shared_available():
        shared = False
        notes.append("shared thread pools left out: this envpool has no envpool.make_thread_pool")
    items = candidates(num_envs, threads, batch_sizes, shared)
    sizes = round_sizes(len(items))
    total = sum(sizes[:-1]) + sizes[-1] * REPEATS
    bar = Progress(total, out, enabled=progress)
    info = task_info(task_id)

    def on_start(c: Candidate, index: int) -> None:
        bar.start(f"round {index + 1}/{len(sizes)}: {c.label}")

    def on_done(c: Candidate, index: int, rate: float) -> None:
        bar.finish(f"round {index + 1}/{len(sizes)}: {c.label}", f"{rate:,.0f} steps/s")

    with contextlib.ExitStack() as stack:
        stack.callback(bar.close)
        release: Callable[[Candidate], None] | None = None
        if measure is None:
            measurer = stack.enter_context(PoolMeasurer(task_id))
            measure, release = measurer.measure, measurer.release
        search = successive_halving(
            items, measure, budget, on_start=on_start, on_done=on_done, release=release
        )
    if search.seconds_taken > 1.25 * budget:
        notes.append(
            f"took {search.seconds_taken:.0f} s: a budget of {budget:g} s is too small for "
            f"{len(items)} candidates (each is measured for at least {MIN_SECONDS} s, after "
            "opening its pool and a warm-up); give a larger --budget or fewer --threads / "
            "--batch-sizes"
        )
    return TuneReport(
        task_id=task_id,
        num_envs=num_envs,
        budget=budget,
        search=search,
        notes=notes,
        machine=machine(),
        versions=versions(),
        frame_skip=info.frame_skip,
    )


def parse_list(text: str) -> list[int]:
    """``"1,2,4"`` -> [1, 2, 4] (ValueError on anything else)."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts:
        raise ValueError(f"expected a comma-separated list of integers, got {text!r}")
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"expected a comma-separated list of integers, got {text!r}") from None
