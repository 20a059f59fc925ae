"""`envpool tune`: candidates, the successive-halving scheduler, ranking, reports and the CLI.

The scheduler is driven by fake measure functions and a fake clock, so nothing here
depends on timing; one tiny real run checks that the command's output holds together.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool import tune
from envpool.tune import Candidate, Result, Run


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def fake_measure(
    rates: dict[Candidate, float],
    clock: FakeClock,
    open_cost: float = 0.5,
    noise: Callable[[Candidate, int], float] | None = None,
) -> tuple[Callable[[Candidate, float], float], dict[Candidate, int]]:
    """A measure() returning rates[c] (times noise(c, call)), advancing the clock as a real
    one would: the timed seconds, a 20% warm-up, and open_cost the first time."""
    calls: dict[Candidate, int] = {}

    def measure(c: Candidate, seconds: float) -> float:
        calls[c] = calls.get(c, 0) + 1
        clock.now += 1.2 * seconds + (open_cost if calls[c] == 1 else 0.0)
        return rates[c] * (noise(c, calls[c]) if noise else 1.0)

    return measure, calls


def grid(num_envs: int = 8, cpus: int = 2) -> list[Candidate]:
    return tune.candidates(num_envs, cpus=cpus)


# --- candidates --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("num_envs", "cpus", "expected"),
    [(8, 2, [1, 2]), (8, 16, [1, 2, 4, 8]), (8, 6, [1, 2, 4, 6]), (1, 4, [1]), (3, 16, [1, 2, 3])],
)
def test_default_threads(num_envs: int, cpus: int, expected: list[int]) -> None:
    assert tune.default_threads(num_envs, cpus) == expected


@pytest.mark.parametrize(
    ("num_envs", "expected"),
    [(8, [8, 4, 2, 1]), (1, [1]), (2, [2, 1]), (6, [6, 3, 1]), (64, [64, 32, 16, 8])],
)
def test_default_batch_sizes(num_envs: int, expected: list[int]) -> None:
    assert tune.default_batch_sizes(num_envs) == expected


def test_candidates_cover_the_grid() -> None:
    items = grid(8, cpus=2)
    assert len(items) == 2 * 4 * 2  # threads x batch sizes x (own, shared)
    assert len(set(items)) == len(items)
    assert {(c.num_threads, c.batch_size, c.shared) for c in items} == {
        (t, b, s) for t in (1, 2) for b in (8, 4, 2, 1) for s in (False, True)
    }
    assert all(c.num_envs == 8 for c in items)
    assert [c.mode for c in items[:4]] == ["sync"] * 4  # sync first
    assert not items[0].is_async and items[-1].is_async


def test_candidates_restricted_and_checked() -> None:
    items = tune.candidates(16, threads=[4, 2, 4], batch_sizes=[16, 8], shared=False, cpus=64)
    assert [(c.batch_size, c.num_threads, c.shared) for c in items] == [
        (16, 2, False),
        (16, 4, False),
        (8, 2, False),
        (8, 4, False),
    ]
    with pytest.raises(ValueError, match="batch sizes"):
        tune.candidates(4, batch_sizes=[8])
    with pytest.raises(ValueError, match="num_threads"):
        tune.candidates(4, threads=[0])
    with pytest.raises(ValueError, match="num_envs"):
        tune.candidates(0)


def test_parse_list() -> None:
    assert tune.parse_list("1,2, 4") == [1, 2, 4]
    assert tune.parse_list("8") == [8]
    for bad in ("", "a,b", "1.5"):
        with pytest.raises(ValueError, match="comma-separated"):
            tune.parse_list(bad)


# --- make(...) line ----------------------------------------------------------------------


def test_make_call_text() -> None:
    assert (
        tune.make_call("Pong-v5", Candidate(8, 8, 2))
        == 'envpool.make("Pong-v5", num_envs=8, num_threads=2)'
    )
    assert tune.make_call("Pong-v5", Candidate(8, 4, 2, shared=True)) == (
        'envpool.make("Pong-v5", num_envs=8, batch_size=4, '
        "thread_pool=envpool.make_thread_pool(num_threads=2))"
    )


@pytest.mark.parametrize(
    "candidate",
    [
        Candidate(4, 4, 2),
        Candidate(4, 2, 1),
        Candidate(4, 2, 2, shared=True),
        Candidate(4, 4, 3, shared=True),
    ],
)
def test_make_call_opens_that_pool(candidate: Candidate) -> None:
    if candidate.shared and not tune.shared_available():
        pytest.skip("no envpool.make_thread_pool")
    env = eval(tune.make_call("CartPole-v1", candidate), {"envpool": envpool})
    try:
        assert env.num_envs == 4
        assert env.config["batch_size"] == candidate.batch_size
        if candidate.shared:  # the thread pool's threads, and the caller's in sync mode
            assert env.num_threads == candidate.num_threads + (0 if candidate.is_async else 1)
        else:
            assert env.config["num_threads"] == candidate.num_threads
    finally:
        env.close()


# --- the scheduler -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "expected"),
    [(16, [16, 8, 4, 3]), (32, [32, 16, 8, 4, 3]), (7, [7, 4, 3]), (5, [5, 3]), (3, [3]), (1, [1])],
)
def test_round_sizes(count: int, expected: list[int]) -> None:
    assert tune.round_sizes(count) == expected


def test_successive_halving_finds_the_best_and_keeps_the_plan() -> None:
    items = grid(8, cpus=2)
    rates = {c: 1000.0 + 37 * i for i, c in enumerate(items)}  # the last one is best
    best = max(items, key=rates.__getitem__)
    clock = FakeClock()
    measure, calls = fake_measure(rates, clock)
    released: list[Candidate] = []
    search = tune.successive_halving(items, measure, 60.0, clock=clock, release=released.append)
    assert search.pick.candidate == best
    assert search.round_sizes == [16, 8, 4, 3]
    # every candidate once in round 0; the finalists once per round and 3 times in the final
    assert sorted(calls.values()) == [1] * 8 + [2] * 4 + [3] + [6] * 3
    assert sorted(released) == sorted(items)  # each released once
    # the finalists are the three best, ranked by rate; then by the round reached
    assert [r.candidate for r in search.results[:3]] == sorted(items, key=rates.get)[::-1][:3]
    reached = [r.last_round for r in search.results]
    assert reached == sorted(reached, reverse=True)
    # measurements grow longer round by round until the final splits its share in 3
    s = search.seconds_per_round
    assert s[0] < s[1] < s[2]
    assert s[3] > s[0]
    # within the budget (the fake clock), and most of it used
    assert 0.9 * 60 <= search.seconds_taken <= 1.05 * 60


def test_successive_halving_budget_overrun_is_bounded_by_min_seconds() -> None:
    items = grid(8, cpus=2)
    clock = FakeClock()
    measure, calls = fake_measure(dict.fromkeys(items, 1.0), clock, open_cost=0.0)
    search = tune.successive_halving(items, measure, 0.5, clock=clock, min_seconds=0.1)
    assert search.seconds_per_round == [0.1] * 4
    assert sum(calls.values()) == 16 + 8 + 4 + 3 * 3
    assert search.seconds_taken == pytest.approx(1.2 * 0.1 * 37)


def test_final_round_takes_the_median() -> None:
    """One lucky measurement of a finalist does not make it the pick."""
    items = tune.candidates(4, threads=[1], batch_sizes=[4, 2, 1], shared=False)
    a, b, c = items
    rates = {a: 100.0, b: 95.0, c: 90.0}
    clock = FakeClock()

    def noise(cand: Candidate, call: int) -> float:
        return 1.5 if cand == c and call == 2 else 1.0  # c spikes once

    measure, _ = fake_measure(rates, clock, noise=noise)
    search = tune.successive_halving(items, measure, 10.0, clock=clock)
    assert search.round_sizes == [3]
    assert [r.candidate for r in search.results] == [a, b, c]
    assert search.results[2].spread() == pytest.approx(0.5)  # 90, 135, 90


def test_noisy_rates_still_pick_a_near_best() -> None:
    """With +-10% noise on every measurement the pick is one of the truly good ones."""
    items = grid(8, cpus=4)  # 24 candidates
    rng = np.random.default_rng(1)
    rates = {c: float(v) for c, v in zip(items, rng.uniform(1, 10, len(items)), strict=True)}
    top = max(rates.values())
    noise_rng = np.random.default_rng(2)
    for _ in range(20):
        clock = FakeClock()
        measure, _ = fake_measure(
            rates, clock, noise=lambda c, k: float(noise_rng.uniform(0.9, 1.1))
        )
        search = tune.successive_halving(items, measure, 60.0, clock=clock)
        assert rates[search.pick.candidate] >= 0.8 * top


def test_one_candidate_and_bad_arguments() -> None:
    (only,) = tune.candidates(1, shared=False, cpus=1)
    clock = FakeClock()
    measure, calls = fake_measure({only: 5.0}, clock)
    search = tune.successive_halving([only], measure, 3.0, clock=clock)
    assert search.pick.candidate == only and calls[only] == 3
    with pytest.raises(ValueError, match="no candidates"):
        tune.successive_halving([], measure, 1.0)
    with pytest.raises(ValueError, match="duplicate"):
        tune.successive_halving([only, only], measure, 1.0)
    with pytest.raises(ValueError, match="budget"):
        tune.successive_halving([only], measure, 0.0)


def test_rank_prefers_the_furthest_round() -> None:
    far = Result(Candidate(8, 8, 1), [Run(0, 1, 50.0), Run(1, 2, 60.0)])
    near = Result(Candidate(8, 4, 1), [Run(0, 1, 90.0)])
    faster_far = Result(Candidate(8, 2, 1), [Run(0, 1, 70.0), Run(1, 2, 80.0)])
    assert [r.candidate for r in tune.rank([near, far, faster_far])] == [
        faster_far.candidate,
        far.candidate,
        near.candidate,
    ]
    assert far.steps_per_second == 60.0
    assert faster_far.batches_per_second == 40.0
    repeated = Result(Candidate(8, 8, 1), [Run(2, 1, 30.0), Run(2, 1, 10.0), Run(2, 1, 20.0)])
    assert repeated.steps_per_second == 20.0 and repeated.spread() == 1.0


# --- reports -----------------------------------------------------------------------------


def _report(tmp_path: Path, **kwargs: object) -> tune.TuneReport:
    items = tune.candidates(8, shared=tune.shared_available())
    rates = {c: 1000.0 * (c.batch_size + c.num_threads) + (50 if c.shared else 0) for c in items}
    measure, _ = fake_measure(rates, FakeClock(), open_cost=0.0)

    def real_time_free(c: Candidate, seconds: float) -> float:
        return measure(c, 0.0)

    return tune.tune(
        "CartPole-v1", num_envs=8, budget=0.5, progress=False, measure=real_time_free, **kwargs
    )


def test_report_table_make_line_and_json(tmp_path: Path) -> None:
    report = _report(tmp_path)
    items = tune.candidates(8)
    best = report.pick.candidate
    assert best.batch_size == 8 and best.num_threads == max(c.num_threads for c in items)
    assert best.shared == tune.shared_available()
    text = report.format()
    table = report.format_table().splitlines()
    assert table[0].split()[:8] == [
        "rank",
        "mode",
        "threads",
        "batch",
        "shared",
        "steps/s",
        "batches/s",
        "vs",
    ]
    assert len(table) == 1 + len(items)
    assert table[1].split()[0] == "1" and "100%" in table[1]
    assert f"    env = {report.make_call}" in text
    assert report.make_call == tune.make_call("CartPole-v1", best)

    path = tmp_path / "tune.json"
    tune.write_json(report, str(path))
    data = json.loads(path.read_text())
    assert data["task"] == "CartPole-v1" and data["num_envs"] == 8 and data["budget"] == 0.5
    assert {"cpus", "cpu", "python", "usable_cpus"} <= set(data["machine"])
    assert data["search"]["round_sizes"] == tune.round_sizes(len(items))
    assert len(data["candidates"]) == len(items)
    assert [c["rank"] for c in data["candidates"]] == list(range(1, len(items) + 1))
    assert data["pick"] == data["candidates"][0]
    assert data["pick"]["make"] == report.make_call
    assert data["pick"]["relative_to_best"] == 1.0
    for cand in data["candidates"]:
        assert cand["runs"] and all(r["steps_per_second"] > 0 for r in cand["runs"])
        assert cand["mode"] == ("sync" if cand["batch_size"] == 8 else "async")


def test_ties_are_noted(tmp_path: Path) -> None:
    a, b, c = tune.candidates(4, threads=[1], batch_sizes=[4, 2, 1], shared=False)
    rates = {a: 100.0, b: 97.0, c: 50.0}
    measure, _ = fake_measure(rates, FakeClock(), open_cost=0.0)
    report = tune.tune(
        "CartPole-v1",
        num_envs=4,
        threads=[1],
        batch_sizes=[4, 2, 1],
        shared=False,
        progress=False,
        budget=1.0,
        measure=lambda cand, s: measure(cand, 0.0),
    )
    assert report.ties() == [2]
    assert "rank 2 is within 5% of the best" in report.format()
    assert "env.async_reset()" not in report.format()  # the pick is sync


def test_async_pick_shows_the_loop(tmp_path: Path) -> None:
    items = tune.candidates(4, threads=[1], batch_sizes=[4, 2], shared=False)
    rates = {c: 10.0 if c.is_async else 1.0 for c in items}
    report = tune.tune(
        "CartPole-v1",
        num_envs=4,
        threads=[1],
        batch_sizes=[4, 2],
        shared=False,
        progress=False,
        budget=1.0,
        measure=lambda c, s: rates[c],
    )
    assert report.pick.candidate.is_async
    text = report.format()
    assert 'envpool.make("CartPole-v1", num_envs=4, batch_size=2, num_threads=1)' in text
    assert "env.async_reset()" in text and 'info["env_id"]' in text


def test_shared_left_out_with_a_note_without_make_thread_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(envpool, "make_thread_pool", raising=False)
    assert not tune.shared_available()
    report = _report(tmp_path)
    assert not any(r.candidate.shared for r in report.search.results)
    assert any("shared thread pools left out" in n for n in report.notes)
    assert "note: shared thread pools left out" in report.format()


@pytest.mark.skipif(not tune.shared_available(), reason="no envpool.make_thread_pool")
def test_shared_included_when_available(tmp_path: Path) -> None:
    report = _report(tmp_path)
    assert any(r.candidate.shared for r in report.search.results)
    assert not report.notes
    report = _report(tmp_path, shared=False)
    assert not any(r.candidate.shared for r in report.search.results)


# --- real pools --------------------------------------------------------------------------


def test_pool_measurer_on_real_pools() -> None:
    items = [Candidate(4, 4, 1), Candidate(4, 2, 2)]
    if tune.shared_available():
        items += [Candidate(4, 4, 2, True), Candidate(4, 2, 1, True)]
    with tune.PoolMeasurer("CartPole-v1") as m:
        for c in items:
            assert m.measure(c, 0.02) > 0
            assert m.measure(c, 0.02) > 0  # the open pool goes on
        m.release(items[0])
        m.release(items[0])  # twice is harmless
        assert m.measure(items[0], 0.02) > 0  # reopened


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "envpool", "tune", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),
    )


def test_cli_tiny_run(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    done = _cli("CartPole-v1", "--num-envs", "4", "--budget", "2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    lines = done.stdout.splitlines()
    assert lines[0].startswith("envpool tune CartPole-v1: 4 envs, ")
    header = next(i for i, line in enumerate(lines) if line.startswith("rank"))
    rows = lines[header + 1 : header + 1 + len(data["candidates"])]
    assert [int(r.split()[0]) for r in rows] == list(range(1, len(rows) + 1))
    assert f"    env = {data['pick']['make']}" in lines
    assert data["pick"]["make"].startswith('envpool.make("CartPole-v1", num_envs=4')
    assert data["pick"]["steps_per_second"] > 0
    assert f"wrote {out}" in done.stdout
    env = eval(data["pick"]["make"], {"envpool": envpool})  # the advice runs
    env.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("NoSuchTask-v0",), "unknown task id"),
        (("CartPole-v1", "--batch-sizes", "9"), "--batch-sizes 9 is larger"),
        (("CartPole-v1", "--threads", "0"), "must be >= 1"),
        (("CartPole-v1", "--threads", "two"), "comma-separated"),
        (("CartPole-v1", "--budget", "0"), "positive"),
        (("CartPole-v1", "--json", "/no/such/folder/x.json"), "does not exist"),
    ],
)
def test_cli_bad_arguments(args: tuple[str, ...], message: str) -> None:
    done = _cli(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_help_names_the_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "envpool", "tune", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    for option in ("--num-envs", "--budget", "--threads", "--batch-sizes", "--no-shared", "--json"):
        assert option in done.stdout
