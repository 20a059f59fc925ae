"""Conformance checks for any gymnasium VectorEnv (envpool's or another library's).

    from envpool.testing import check_vector_env
    report = check_vector_env(env, max_steps=500)
    print(report)

check_vector_env raises ConformanceError (an AssertionError) at the first breach of
gymnasium's vector API contract and otherwise returns a ConformanceReport listing
the checks that passed and those skipped, with the reason.
"""

from __future__ import annotations

from envpool.testing.checker import CHECKS, check_vector_env
from envpool.testing.report import CheckResult, ConformanceError, ConformanceReport

__all__ = ["CHECKS", "CheckResult", "ConformanceError", "ConformanceReport", "check_vector_env"]
