"""Which of the original EnvPool's test files are run, where they are found, and
which of their tests are left out.

The files are not part of this repository, and the envpool==1.2.5 wheel on PyPI
does not contain them (it has no *_test.py file; there is no sdist either).
They are read from a checkout of the original's repository (or a folder holding
the four files) named by ENVPOOL_ORIGINAL_TESTS_DIR, and checked against the
hashes below: the EnvPool 1.2.x versions, as at commit ORIGINAL_COMMIT.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

ORIGINAL_COMMIT = "9cbcd267d6ae04eef1865e061b6a2bc356c36d0b"
TESTS_DIR_VAR = "ENVPOOL_ORIGINAL_TESTS_DIR"
REQUIRE_VAR = "ENVPOOL_REQUIRE_ORIGINAL_TESTS"
MIGRATION_DOC = Path(__file__).resolve().parents[2] / "docs" / "migration.md"
NOT_PROVIDED_SECTION = "### Running code written for the original EnvPool"


@dataclass(frozen=True)
class OriginalTestFile:
    repo_path: str
    """Its path in the original's repository."""
    sha256: str

    @property
    def name(self) -> str:
        return Path(self.repo_path).name


ORIGINAL_TEST_FILES = (
    OriginalTestFile(
        "envpool/classic_control/classic_control_test.py",
        "0ecf5cdec61d760f59a4c245e27be9bc12b167d1f15cdecbfd92b81b27d432fc",
    ),
    OriginalTestFile(
        "envpool/atari/api_test.py",
        "ab39745916f6bef14ca144c2868feb432f69aad62987f59a5876e1fcd066ffcb",
    ),
    OriginalTestFile(
        "envpool/atari/atari_envpool_test.py",
        "68a3f2357528d0375e06d009342bd3302f6d8b7194e1d6404044bcf2dcc3677a",
    ),
    OriginalTestFile(
        "envpool/mujoco/gym/mujoco_gym_align_test.py",
        "cc068590b534be81e72bbad1d17fbf0f7f2db095bf88b39a8c3693a7099524bf",
    ),
)


class MissingOriginalTestsError(Exception):
    """The original test files are not available on this machine."""


class WrongOriginalTestsError(Exception):
    """A file was found but is not the pinned version."""


def find_original_file(test_file: OriginalTestFile) -> Path:
    """The file in ENVPOOL_ORIGINAL_TESTS_DIR (at its repository path or at the top)."""
    root = os.environ.get(TESTS_DIR_VAR)
    if not root:
        raise MissingOriginalTestsError(
            f"{TESTS_DIR_VAR} is not set: point it at a checkout of the original EnvPool "
            f"(commit {ORIGINAL_COMMIT[:12]}) or at a folder with its test files"
        )
    for candidate in (Path(root) / test_file.repo_path, Path(root) / test_file.name):
        if candidate.is_file():
            digest = hashlib.sha256(candidate.read_bytes()).hexdigest()
            if digest != test_file.sha256:
                raise WrongOriginalTestsError(
                    f"{candidate} has sha256 {digest}, not the pinned {test_file.sha256} "
                    f"(the original's {test_file.repo_path} at {ORIGINAL_COMMIT[:12]})"
                )
            return candidate
    raise MissingOriginalTestsError(f"{test_file.name} is not in {root}")


def not_provided_test_ids() -> list[str]:
    """The original tests of features envpool does not provide: every `file.py::Class::test`
    named in docs/migration.md's section on running code written for the original."""
    text = MIGRATION_DOC.read_text(encoding="utf-8")
    section = text[text.index(NOT_PROVIDED_SECTION) + len(NOT_PROVIDED_SECTION) :]
    next_heading = re.search(r"^#{1,3} ", section, re.M)
    if next_heading is not None:
        section = section[: next_heading.start()]
    return re.findall(r"`(\w+_test\.py::\w+::\w+)`", section)
