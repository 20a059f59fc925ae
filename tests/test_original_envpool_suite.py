"""The original EnvPool's own test files pass against this envpool, unchanged,
except the tests of the features that docs/migration.md lists as not provided.

The files make their pools with ``envpool.registration``'s functions, which
default to ``original_api=True``. Each file runs in a pytest of its own, in a
scratch folder, with a conftest.py that only stands in for the module-level
imports of the left-out features (tests/original_envpool/run_dir_conftest.py).
Where the files come from: tests/original_envpool/sources.py. Without them the
tests skip, unless ENVPOOL_REQUIRE_ORIGINAL_TESTS=1 makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from original_envpool.sources import (
    ORIGINAL_TEST_FILES,
    REQUIRE_VAR,
    MissingOriginalTestsError,
    OriginalTestFile,
    WrongOriginalTestsError,
    find_original_file,
    not_provided_test_ids,
)

RUN_DIR_CONFTEST = Path(__file__).parent / "original_envpool" / "run_dir_conftest.py"
RUN_TIMEOUT_S = 1800


def _original_or_skip(test_file: OriginalTestFile) -> Path:
    try:
        return find_original_file(test_file)
    except MissingOriginalTestsError as exc:
        if os.environ.get(REQUIRE_VAR) == "1":
            pytest.fail(f"{exc} ({REQUIRE_VAR}=1 requires them)")
        pytest.skip(str(exc))
    except WrongOriginalTestsError as exc:
        pytest.fail(str(exc))


def _outcomes(junit_xml: Path) -> dict[str, str]:
    """test id -> "passed", "failed", "error" or "skipped", from pytest's JUnit report."""
    outcomes = {}
    for case in ElementTree.parse(junit_xml).iter("testcase"):
        test_id = f"{case.get('classname')}::{case.get('name')}"
        outcome = "passed"
        for kind in ("failure", "error", "skipped"):
            if case.find(kind) is not None:
                outcome = "failed" if kind == "failure" else kind
        outcomes[test_id] = outcome
    return outcomes


def test_not_provided_list_is_in_the_migration_guide() -> None:
    left_out = not_provided_test_ids()
    assert left_out, "docs/migration.md names no left-out original test"
    names = {f.name for f in ORIGINAL_TEST_FILES}
    assert {test_id.split("::")[0] for test_id in left_out} <= names


@pytest.mark.parametrize("test_file", ORIGINAL_TEST_FILES, ids=lambda f: f.name)
def test_original_test_file_passes(test_file: OriginalTestFile, tmp_path: Path) -> None:
    source = _original_or_skip(test_file)
    code = source.read_text(encoding="utf-8")
    left_out = [t for t in not_provided_test_ids() if t.startswith(f"{test_file.name}::")]
    for test_id in left_out:
        _, class_name, test_name = test_id.split("::")
        assert f"class {class_name}(" in code and f"def {test_name}(" in code, (
            f"docs/migration.md leaves out {test_id}, which {test_file.name} does not have"
        )
    shutil.copy(source, tmp_path / test_file.name)
    shutil.copy(RUN_DIR_CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    report = tmp_path / "report.xml"
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    args += [f"--junitxml={report}", test_file.name]
    for test_id in left_out:
        args += ["--deselect", test_id]
    done = subprocess.run(
        args,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
    )
    outcomes = _outcomes(report) if report.is_file() else {}
    not_passed = {t: o for t, o in outcomes.items() if o != "passed"}
    all_passed = done.returncode == 0 and bool(outcomes) and not not_passed
    output = done.stdout[-8000:] + done.stderr[-2000:]
    assert all_passed, f"{test_file.name}: {not_passed or 'no test ran'}\n{output}"
    print(f"{test_file.name}: {len(outcomes)} passed, {len(left_out)} left out")
