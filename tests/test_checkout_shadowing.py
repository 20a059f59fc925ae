"""Python started in a source checkout imports the source folder `envpool/`, which has no
compiled extension; the error must say so and what to do."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import envpool

SCRIPT = """
import sys
# As with a regular (not editable) install: no editable-install import hook.
sys.meta_path = [f for f in sys.meta_path if "ScikitBuild" not in type(f).__name__]
import envpool
print(envpool.__file__)
for task in ("CartPole-v1", "Hopper-v5"):
    try:
        envpool.make(task).close()
        print("made", task)
    except ImportError as exc:
        print("ImportError:", exc)
"""


def test_running_from_a_checkout_says_what_to_do(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    package = Path(envpool.__file__).parent
    shutil.copytree(package, checkout / "envpool", ignore=shutil.ignore_patterns("*.so", "*.pyd"))
    (checkout / "pyproject.toml").write_text("[project]\nname = 'envpool'\n")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=checkout, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert Path(lines[0]).is_relative_to(checkout)  # the checkout shadows the installed package
    errors = [line for line in lines[1:] if line.startswith("ImportError")]
    assert len(errors) == 2, done.stdout
    for error in errors:
        assert "source checkout" in error and "pip install -e ." in error and "cd .." in error
