"""The search behind `envpool tune`: the candidate settings (``candidates()``), the
successive-halving schedule (``round_sizes()``, ``successive_halving()``) and the ranking.

The measure function is injected, so all of this is tested without timing anything;
``envpool.tune`` measures real pools with it.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

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
