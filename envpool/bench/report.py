"""The outputs of `envpool bench`: a Markdown table, a JSON file and a PNG plot."""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Sequence
from typing import Any

from envpool.bench.runner import Measurement, Report, machine, versions

PLOT_HINT = 'pip install "envpool[bench]"'


def format_ratio(x: float) -> str:
    """A speed-up: 2 decimals below 10x, 1 from there."""
    return f"{x:.1f}x" if x >= 10 else f"{x:.2f}x"


def markdown_table(
    header: Sequence[str], rows: list[list[str]], left: frozenset[int] = frozenset({0})
) -> list[str]:
    """A Markdown table padded to line up in a terminal; the columns in `left` left-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w + 2) if i in left else "-" * (w + 1) + ":" for i, w in enumerate(widths)]
    return [line(header), "|" + "|".join(rule) + "|", *(line(r) for r in rows)]


def format_report(report: Report) -> str:
    """One table per task: steps/s (and frames/s for Atari) of each engine, and envpool's ratio."""
    out: list[str] = []
    settings = report.settings
    mode = "sync"
    if settings["batch_size"]:
        mode = f"batch_size {settings['batch_size']} (async where num_envs is larger)"
    threads = settings["num_threads"] or "default"
    for task in settings["tasks"]:
        rows_of = [m for m in report.measurements if m.task == task]
        if not rows_of:
            continue
        frame_skip = report.frame_skip.get(task, 1)
        atari = any(m.frames_per_second is not None for m in rows_of)
        agents = report.agents.get(task, 0)
        title = f"{task}: env steps/s, {settings['seconds']:g} s per run, envpool {mode}"
        title += f", num_threads {threads}"
        if atari:
            title += f"; frames/s = steps/s x frame_skip {frame_skip}"
        if agents:
            title += f"; agent steps/s = steps/s x {agents} agents"
        header = ["num_envs", "engine", "steps/s"]
        if atari:
            header.append("frames/s")
        if agents:
            header.append("agent steps/s")
        header.append("envpool speed-up")
        rows: list[list[str]] = []
        best: list[str] = []
        for n in sorted({m.num_envs for m in rows_of}):
            group = [m for m in rows_of if m.num_envs == n]
            ours = next((m for m in group if m.engine == "envpool"), None)
            for m in group:
                row = [str(n), m.engine, f"{m.steps_per_second:,.0f}"]
                if atari:
                    row.append(f"{m.frames_per_second or 0:,.0f}")
                if agents:
                    row.append(f"{m.agent_steps_per_second or 0:,.0f}")
                if ours is None or m is ours:
                    row.append("")
                else:
                    row.append(format_ratio(ours.steps_per_second / m.steps_per_second))
                rows.append(row)
            peers = [m for m in group if m is not ours]
            if ours is not None and peers:
                top = max(peers, key=lambda m: m.steps_per_second)
                best.append(
                    f"{n} envs {format_ratio(ours.steps_per_second / top.steps_per_second)} "
                    f"({top.engine})"
                )
        out.append(title)
        out.extend(markdown_table(header, rows, left=frozenset({1})))
        if best:
            out.append("envpool / best peer: " + "; ".join(best))
        out.append("")
    return "\n".join(out).rstrip("\n")


def write_json(report: Report, path: str) -> None:
    with open(path, "w") as f:
        json.dump(report.to_json(), f, indent=2)
        f.write("\n")


def rate_with_range(rates: Sequence[float] | None) -> str:
    """A cell of the benchmark scripts' tables: the median rate and, for several rounds,
    their range in thousands; "-" for none."""
    if not rates:
        return "-"
    if len(rates) == 1:
        return f"{rates[0]:,.0f}"
    return f"{statistics.median(rates):,.0f} ({min(rates) / 1e3:,.1f}k-{max(rates) / 1e3:,.1f}k)"


def add_run_arguments(
    parser: argparse.ArgumentParser, tasks: list[str], rounds: int, threads: bool = True
) -> None:
    """The options every scaling script in benchmarks/ takes: the tasks, (with ``threads``)
    the thread counts and envs per thread, the seconds a round, the rounds and --json."""
    parser.add_argument("--tasks", nargs="+", default=tasks)
    if threads:
        parser.add_argument("--threads", type=int, nargs="+", default=None)
        parser.add_argument("--envs-per-thread", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--json", help="write the results here")


def write_results_json(path: str, args: Any, results: Any, **extra: Any) -> None:
    """A scaling script's JSON: the machine, the versions, its arguments, ``extra`` and
    its results."""
    out = {"machine": machine(), "versions": versions(), **extra, "args": vars(args)}
    with open(path, "w") as f:
        json.dump({**out, "results": results}, f, indent=2)


def finish_script_run(
    json_path: str | None,
    settings: dict[str, Any],
    versions: dict[str, str],
    loads: tuple[float, float],
    results: tuple[str, list[Any]],
) -> None:
    """The closing lines of a benchmark script in benchmarks/: the machine, the versions
    and the 1-minute load averages before and after the run (``loads``), printed; with
    ``json_path``, all of it and ``results`` (a key and its rows) written there as JSON."""
    info = machine()
    print(
        f"{info['cpus']} CPUs ({info['cpu']}), Python {info['python']}; "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
    )
    load_before, load_after = loads
    print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after")
    if json_path:
        key, rows = results
        out: dict[str, Any] = {
            "settings": settings,
            "machine": info,
            "versions": versions,
            "load_average_before_after": [load_before, load_after],
            key: rows,
        }
        with open(json_path, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")


def check_plotting() -> str | None:
    """None when matplotlib can be imported, else the message saying how to get it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return f"--plot needs matplotlib, which is not installed: {PLOT_HINT}"
    return None


def write_plot(report: Report, path: str) -> None:
    """A PNG: steps/s against num_envs, one panel per task, one line per engine."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import EngFormatter, LogLocator, NullLocator

    names = list(dict.fromkeys(m.engine for m in report.measurements))
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    tasks = [t for t in report.settings["tasks"] if any(m.task == t for m in report.measurements)]
    fig, axes = plt.subplots(
        1, max(1, len(tasks)), figsize=(6 * max(1, len(tasks)), 4.5), squeeze=False
    )
    for ax, task in zip(axes[0], tasks, strict=False):
        rows = [m for m in report.measurements if m.task == task]
        engines: dict[str, list[Measurement]] = {}
        for m in rows:
            engines.setdefault(m.engine, []).append(m)
        for name, ms in engines.items():
            ms.sort(key=lambda m: m.num_envs)
            style: dict[str, Any] = {"linewidth": 2.5} if name == "envpool" else {}
            ax.plot(
                [m.num_envs for m in ms],
                [m.steps_per_second for m in ms],
                marker="o",
                label=name,
                color=colours[name],
                **style,
            )
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        sizes = sorted({m.num_envs for m in rows})
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.xaxis.set_minor_locator(NullLocator())
        rates = [m.steps_per_second for m in rows]
        subs = (1.0, 2.0, 5.0) if max(rates) > 20 * min(rates) else tuple(range(1, 10))
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=subs))
        ax.yaxis.set_major_formatter(EngFormatter(sep=""))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_xlabel("num_envs")
        ax.set_ylabel("env steps / s")
        skip = report.frame_skip.get(task, 1)
        ax.set_title(task + (f" (frames/s = {skip} x steps/s)" if skip > 1 else ""))
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize="small")
    machine = report.to_json()["machine"]
    fig.suptitle(
        f"envpool bench, {machine['cpus']} CPUs, {report.settings['seconds']:g} s per run",
        fontsize="medium",
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
