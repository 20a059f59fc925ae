"""Checks what envpool's own modules cost to compile against the budget in
.ci/build_budget.json (issue #40: a first install stays within minutes).

    python .ci/build_budget.py build/compile-times.jsonl [--budget .ci/build_budget.json]

The log is written by `benchmarks/build_time.py --launch` as the compiler launcher of
CI's tests step (in front of ccache): one line per compile, with its CPU time. Each
module's compiles are summed and compared with its budget, in CPU seconds of the
machine the budget was measured on; a module over budget fails the check with its
units and their times. Machines differ in speed, so the budget is scaled by the
same build's compile CPU of ALE and Box2D (others' code at pinned versions, which
changes only with the machine) against theirs on the budget's machine. A module whose
compiles came from ccache (under a fifth of its budget: nothing was compiled) is not
checked; when ALE and Box2D came from ccache, the budget is not scaled.

After a change that is meant to cost more, measure a cold build
(benchmarks/build_time.py) and raise the module's number in the budget file, saying
why in the commit.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_of(output: str) -> str | None:
    found = re.search(r"CMakeFiles/(_\w+)\.dir/", output)
    return found.group(1) if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--budget", type=Path, default=ROOT / ".ci" / "build_budget.json")
    args = parser.parse_args()
    budget = json.loads(args.budget.read_text())
    limits: dict[str, float] = budget["cpu_seconds"]
    units: dict[str, list[tuple[float, str]]] = defaultdict(list)
    reference = 0.0
    for line in args.log.read_text().splitlines():
        _, _, cpu, output = json.loads(line)
        module = module_of(output)
        if module is not None:
            units[module].append((cpu, output))
        elif "ale-build" in output or "box2d_engine" in output:
            reference += cpu
    scale = 1.0
    if reference > budget["reference_cpu_seconds"] / 5:
        scale = reference / budget["reference_cpu_seconds"]
        print(
            f"build budget: ALE and Box2D took {reference:.0f} s of CPU here, "
            f"{budget['reference_cpu_seconds']:.0f} s on the budget's machine: budgets x{scale:.2f}"
        )
    else:
        print("build budget: ALE and Box2D came from ccache (or were not built): budgets unscaled")
    limits = {name: limit * scale for name, limit in limits.items()}
    failed = []
    for module, compiled in sorted(units.items()):
        total = sum(cpu for cpu, _ in compiled)
        limit = limits.get(module)
        if limit is None:
            failed.append(
                f"{module}: no budget in {args.budget.name} (add one: its cold CPU "
                f"seconds were {total:.0f})"
            )
            continue
        status = "ok"
        if total < limit / 5:
            status = "from ccache, not checked"
        elif total > limit:
            status = "OVER BUDGET"
            listing = ", ".join(f"{Path(o).name} {c:.0f} s" for c, o in sorted(compiled)[::-1])
            failed.append(
                f"{module}: {total:.0f} s of CPU to compile, over its budget of "
                f"{limit:.0f} s ({listing})"
            )
        print(f"build budget: {module:<18} {total:6.1f} s CPU of {limit:5.0f}  {status}")
    missing = sorted(set(limits) - set(units))
    if missing:
        print(f"build budget: not compiled in this build: {', '.join(missing)}")
    if failed:
        print(
            "\nbuild budget: these modules compile much slower than budgeted "
            f"({args.budget.relative_to(ROOT)}):"
        )
        for line in failed:
            print(f"  {line}")
        print(
            "A module's budget is its cold -O2 compile on 2 cores (benchmarks/build_time.py) "
            "with 40% headroom; raise it only for a change meant to cost more."
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
