"""Building a subset of the families (ENVPOOL_FAMILIES, cmake/families.cmake).

This suite's own install has every family; a build without some is imitated here by
making ``envpool.registry.built_families`` answer as such an install's ``_core`` does.
A real subset build is tested by CI's ``families`` step: it builds classic control alone
and runs this file against it with ENVPOOL_EXPECT_FAMILIES set (test_real_subset_build).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import envpool
from envpool import cli, registry
from envpool.bindings import extension

REPO = Path(__file__).resolve().parents[1]


def _cmake_families() -> list[str]:
    text = (REPO / "cmake" / "families.cmake").read_text()
    found = re.search(r"set\(ENVPOOL_ALL_FAMILIES\s+([^)]*)\)", text)
    assert found, "cmake/families.cmake lost its ENVPOOL_ALL_FAMILIES list"
    return found.group(1).split()


def test_the_family_lists_agree() -> None:
    """CMake's list, the registry's and the family folders name the same families."""
    folders = sorted(
        p.name for p in (REPO / "envpool" / "families").iterdir() if (p / "tasks.py").is_file()
    )
    assert list(registry.BUILTIN_FAMILIES) == folders
    assert sorted(_cmake_families()) == folders
    assert set(registry.BUILTIN_FAMILIES) <= set(registry.list_families())


@pytest.mark.skipif(
    "ENVPOOL_EXPECT_FAMILIES" in os.environ, reason="a subset build: test_real_subset_build"
)
def test_this_install_has_every_family() -> None:
    assert ",".join(registry.BUILTIN_FAMILIES) == extension("_core").BUILT_FAMILIES
    assert registry.built_families() == registry.BUILTIN_FAMILIES


@pytest.fixture
def classic_control_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "built_families", lambda: ("classic_control",))


def test_make_of_a_family_not_built_names_it_and_the_command(classic_control_only) -> None:
    with pytest.raises(ImportError) as raised:
        envpool.make("Pong-v5", num_envs=1)
    message = str(raised.value)
    assert "'atari' family" in message
    assert 'ENVPOOL_FAMILIES="atari,classic_control" pip install ' in message
    # the pool of a built family still works, and so does the same call again
    with envpool.make("CartPole-v1", num_envs=2) as env:
        env.reset(seed=0)
    with pytest.raises(ImportError, match="'mujoco' family"):
        envpool.make_dm("HalfCheetah-v5", num_envs=1)


def test_lists_leave_out_families_not_built(classic_control_only, capsys) -> None:
    ids = envpool.list_all_envs()
    assert "CartPole-v1" in ids
    assert not any(i.startswith(("Pong", "HalfCheetah", "MiniGrid")) for i in ids)
    assert cli.main(["list", "--families"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"atari\s+\d+\s+.*\(not built\)", out)
    assert not re.search(r"classic_control.*\(not built\)", out)
    assert "to build them: ENVPOOL_FAMILIES=" in out
    assert cli.main(["list", "--family", "atari"]) == 1
    assert "not built in this install" in capsys.readouterr().err


def test_build_command_names_the_source_folder() -> None:
    command = registry.build_command(["mujoco", "atari", "mujoco"])
    assert command.startswith('ENVPOOL_FAMILIES="atari,mujoco" pip install ')
    source = extension("_core").SOURCE_DIR
    if (Path(source) / "pyproject.toml").is_file():
        assert command.endswith(source)


@pytest.mark.skipif(
    "ENVPOOL_EXPECT_FAMILIES" not in os.environ,
    reason="runs against a subset build (CI's families step sets ENVPOOL_EXPECT_FAMILIES)",
)
def test_real_subset_build() -> None:
    expected = tuple(sorted(os.environ["ENVPOOL_EXPECT_FAMILIES"].split(",")))
    assert registry.built_families() == expected
    for family in registry.BUILTIN_FAMILIES:
        task_id = registry.list_families()[family][0]
        if family in expected:
            with envpool.make(task_id, num_envs=1) as env:
                env.reset(seed=0)
        else:
            with pytest.raises(ImportError, match=f"'{family}' family"):
                envpool.make(task_id, num_envs=1)


def test_an_unknown_family_stops_the_configure(tmp_path: Path) -> None:
    """A misspelt family stops CMake's configure at once, naming it and the families."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("no cmake on PATH")
    command = [cmake, "-S", str(REPO), "-B", str(tmp_path), "-DENVPOOL_BUILD_PYTHON=OFF"]
    done = subprocess.run(
        [*command, "-DENVPOOL_FAMILIES=classic_control,atarii"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    message = " ".join(done.stderr.split())
    assert "no family 'atarii'" in message
    assert "the families are atari, box2d, classic_control" in message
