"""check_vector_env: runs every group of checks on one VectorEnv and reports."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from envpool.testing.checks_api import (
    check_metadata,
    check_reset,
    check_spaces,
    check_step,
    describe_info,
)
from envpool.testing.checks_autoreset import check_autoreset
from envpool.testing.checks_reset_mask import check_reset_mask
from envpool.testing.checks_seed import check_determinism, check_seed_influence
from envpool.testing.report import (
    CheckResult,
    CheckSkippedError,
    ConformanceError,
    ConformanceReport,
)
from envpool.testing.session import Session

CHECKS = (
    "spaces",
    "metadata",
    "reset",
    "step",
    "determinism",
    "seed",
    "autoreset",
    "reset_mask",
    "info",
    "close",
)


def check_vector_env(
    env: Any,
    *,
    seed: int = 0,
    max_steps: int = 1000,
    trajectory_steps: int = 5,
    skip: Collection[str] = (),
    close: bool = True,
) -> ConformanceReport:
    """Checks that ``env`` follows gymnasium's VectorEnv contract; raises on the first breach.

    seed: the seed the checks reset with (another one, seed + 10007, is compared with it).
    max_steps: how many steps of sampled actions the autoreset check takes at most while
    waiting for every env to end an episode; if none ends, that check is reported as
    skipped (cap the episodes, e.g. with max_episode_steps, to have it run).
    trajectory_steps: the length of the runs compared for determinism.
    skip: names from CHECKS to leave out (each is reported as skipped), except "spaces"
    and "metadata", which every other check needs. Skipping "info" also stops the
    validation of the info dicts that every reset and step gets.
    close: close the env twice at the end (the last check); False leaves it open.

    Returns a ConformanceReport of the checks that passed and those skipped, with why.
    Raises ConformanceError (an AssertionError) naming the check, what the env did and
    what a conforming env does. The env is left in whatever state the failure found it.
    """
    unknown = sorted(set(skip) - set(CHECKS[2:]))
    if unknown:
        raise ValueError(f"skip={unknown}: the checks that can be skipped are {CHECKS[2:]}")
    report = ConformanceReport(env=_short_repr(env))

    def run(name: str, check: Callable[[], str]) -> None:
        if name in skip:
            report.results.append(CheckResult(name, "skipped", "left out by skip="))
            return
        try:
            report.results.append(CheckResult(name, "passed", check()))
        except CheckSkippedError as why:
            report.results.append(CheckResult(name, "skipped", str(why)))

    # the spaces and metadata are needed by every later check, so they always run
    report.results.append(CheckResult("spaces", "passed", check_spaces(env)))
    session = Session(env, int(env.num_envs), seed, check_info="info" not in skip)
    report.num_envs = session.num_envs
    session.mode, detail = check_metadata(env)
    report.autoreset_mode = session.mode.name
    report.results.append(CheckResult("metadata", "passed", detail))

    run("reset", lambda: check_reset(session))
    run("step", lambda: check_step(session))
    reproducible: dict[str, Any] = {}

    def determinism() -> str:
        detail, reproducible["actions"], reproducible["run_a"] = check_determinism(
            session, trajectory_steps
        )
        return detail

    run("determinism", determinism)
    if reproducible:
        run("seed", lambda: check_seed_influence(session, **reproducible))
    else:
        run("seed", _needs_determinism)
    run("autoreset", lambda: check_autoreset(session, max_steps))
    run("reset_mask", lambda: check_reset_mask(session, bool(reproducible), max_steps))
    run("info", lambda: describe_info(session))
    if close:
        run("close", lambda: _check_close_twice(env))
    else:
        report.results.append(CheckResult("close", "skipped", "close=False: the env is open"))
    return report


def _needs_determinism() -> str:
    raise CheckSkippedError("needs the determinism check, which was skipped")


def _check_close_twice(env: Any) -> str:
    for attempt in ("first", "second"):
        try:
            env.close()
        except Exception as exc:
            raise ConformanceError(
                "close",
                f"the {attempt} env.close() raised {type(exc).__name__}: {exc}; close() must "
                "be safe to call again on a closed VectorEnv (it is also called at exit)",
            ) from exc
    return "close() twice did not raise"


def _short_repr(env: Any) -> str:
    text = repr(env)
    return text if len(text) <= 120 else text[:117] + "..."
