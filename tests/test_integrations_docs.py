"""Every ```python snippet in docs/integrations.md runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "integrations.md"


def snippets() -> list[tuple[str, str]]:
    """(the section heading, the code) of each ```python block."""
    found = []
    heading = ""
    for block in re.split(r"^(## .*)$", DOC.read_text(), flags=re.M):
        if block.startswith("## "):
            heading = block[3:].strip()
            continue
        for code in re.findall(r"^```python\n(.*?)^```", block, flags=re.M | re.S):
            found.append((heading, code))
    return found


def test_each_library_has_a_snippet() -> None:
    headings = {heading for heading, _ in snippets()}
    assert {"Stable-Baselines3", "Tianshou", "TorchRL"} <= headings


@pytest.mark.parametrize(
    ("heading", "code"),
    [pytest.param(h, c, id=f"{h}-{i}") for i, (h, c) in enumerate(snippets())],
)
def test_snippet_runs(heading: str, code: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),  # import the installed envpool, not the source folder
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    assert done.returncode == 0, f"{heading}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
