"""What check_vector_env found: the error it raises and the report it returns."""

from __future__ import annotations

from dataclasses import dataclass, field


class ConformanceError(AssertionError):
    """A VectorEnv broke gymnasium's vector API contract.

    ``check`` names the group of checks that failed (e.g. ``"autoreset"``); the
    message says what the env did and what a conforming env does instead.
    """

    def __init__(self, check: str, problem: str) -> None:
        super().__init__(f"[{check}] {problem}")
        self.check = check
        self.problem = problem


class CheckSkippedError(Exception):
    """Raised inside a check that could not run; the reason goes into the report."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str
    """"passed" or "skipped" (a failure raises ConformanceError instead)."""
    detail: str


@dataclass
class ConformanceReport:
    """Which checks ran and passed, and which were skipped and why."""

    env: str
    num_envs: int = 0
    autoreset_mode: str = "unknown"
    results: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> list[str]:
        return [r.name for r in self.results if r.status == "passed"]

    @property
    def skipped(self) -> dict[str, str]:
        return {r.name: r.detail for r in self.results if r.status == "skipped"}

    def __str__(self) -> str:
        lines = [f"{self.env}: num_envs={self.num_envs}, autoreset_mode={self.autoreset_mode}"]
        lines += [f"  {r.status:<7} {r.name}: {r.detail}" for r in self.results]
        return "\n".join(lines)
