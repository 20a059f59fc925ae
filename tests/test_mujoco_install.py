"""How the MuJoCo tasks find their library and models, and what a wrong install says."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import tomllib

import envpool
from envpool import mujoco_runtime
from envpool.registry import get_task

ROOT = Path(__file__).resolve().parent.parent


def test_one_mujoco_version_everywhere() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pin = f"mujoco=={mujoco_runtime.MUJOCO_VERSION}"
    assert pin in pyproject["build-system"]["requires"]
    assert pin in pyproject["project"]["dependencies"]
    cmake = (ROOT / "third_party/mujoco/mujoco.cmake").read_text()
    assert f"set(ENVPOOL_MUJOCO_VERSION {mujoco_runtime.MUJOCO_VERSION})" in cmake
    assert metadata.version("mujoco") == mujoco_runtime.MUJOCO_VERSION
    envpool.make_spec("Hopper-v5")  # loads the module
    from envpool import _mujoco

    assert _mujoco.MUJOCO_VERSION == mujoco_runtime.MUJOCO_VERSION


def test_no_model_files_in_the_repository() -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "*.xml", "*.mjb", "*.stl"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    assert tracked.stdout.strip() == ""
    assets = get_task("Ant-v5").default_options()["assets_dir"]
    assert Path(assets, "ant.xml").is_file()
    assert Path(assets).is_relative_to(Path(metadata.distribution("gymnasium").locate_file("")))


def test_the_extension_finds_libmujoco_without_ld_library_path(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    script = "import envpool._mujoco as m; print(m.MUJOCO_VERSION)"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    # The RUNPATH ($ORIGIN/../mujoco) alone resolves the library: nothing was preloaded.
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == mujoco_runtime.MUJOCO_VERSION


@pytest.mark.parametrize("installed", [None, "3.3.0"])
def test_wrong_mujoco_names_the_version_needed(
    monkeypatch: pytest.MonkeyPatch, installed: str | None
) -> None:
    def fake_version(name: str) -> str:
        if name != "mujoco":
            return metadata.version(name)
        if installed is None:
            raise metadata.PackageNotFoundError(name)
        return installed

    monkeypatch.setattr(mujoco_runtime.metadata, "version", fake_version)
    needed = re.escape(f"pip install mujoco=={mujoco_runtime.MUJOCO_VERSION}")
    with pytest.raises(ImportError, match=needed):
        mujoco_runtime.load_library()


def test_bad_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        envpool.make("Hopper-v5", num_envs=1, xml_file="no_such_model.xml")
    broken = tmp_path / "broken.xml"
    broken.write_text("<mujoco><worldbody><body></mujoco>")
    with pytest.raises(ValueError, match="MuJoCo could not load"):
        envpool.make("Hopper-v5", num_envs=1, xml_file=str(broken))
