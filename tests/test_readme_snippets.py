"""Every ```python snippet in README.md runs as pasted, on its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import run_python

README = Path(__file__).resolve().parent.parent / "README.md"


def snippets() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(), flags=re.M | re.S)


def test_the_quick_start_has_its_three_loops() -> None:
    assert len(snippets()) >= 3


@pytest.mark.parametrize("code", snippets(), ids=lambda code: code.splitlines()[-1][:40])
def test_snippet_runs_as_pasted(code: str) -> None:
    done = run_python(code)  # a fresh interpreter, outside the checkout
    assert done.returncode == 0, f"{code}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


def test_ci_runs_the_readmes_test_command() -> None:
    """.ci/run must run the README's one-line test command, character for character."""
    commands = re.findall(r"^```bash\n(pip install .*&& pytest)\n```", README.read_text(), re.M)
    assert len(commands) == 1, commands
    ci = (README.parent / ".ci" / "run").read_text()
    assert any(line.strip() == commands[0] for line in ci.splitlines()), commands[0]
