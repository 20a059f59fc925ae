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
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from envpool.tune_search import (  # noqa: F401  (also envpool.tune's names)
    CLOSE,
    ETA,
    FINAL_SIZE,
    MIN_SECONDS,
    REPEATS,
    Candidate,
    Measure,
    Result,
    Run,
    Search,
    candidates,
    default_batch_sizes,
    default_threads,
    make_call,
    rank,
    round_sizes,
    shared_available,
    successive_halving,
    usable_cpus,
)

DEFAULT_NUM_ENVS = 8
DEFAULT_BUDGET = 60.0
"""Seconds the search may take (pools opened and warmed up included)."""


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
