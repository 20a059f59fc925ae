"""Builds the test-only fault-injection env (cpp/tests/fault_env.h) as a Python
module against the installed envpool, the way an out-of-tree env package builds,
and registers it as task "Fault-v0". The build is cached under build/ by a hash
of its inputs, so the second pytest run of a CI job reuses it."""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import envpool
from envpool import build_paths

REPO = Path(__file__).resolve().parents[1]
SOURCES = REPO / "cpp" / "tests"
TASK_ID = "Fault-v0"
DICT_TASK_ID = "FaultDict-v0"  # the same env with a dict observation
TEXT_TASK_IDS = {"FaultText-v0": "TextEnv", "FaultTextDict-v0": "TextDictEnv"}  # text_env.h
AGENTS_TASK_ID = "FaultAgents-v0"  # two agents (fault_agents_env.h)
MODULE = "envpool_fault_env"


def _inputs_hash() -> str:
    digest = hashlib.sha256()
    header_root = Path(build_paths.include_dir())
    files = [*sorted(SOURCES.rglob("*.h")), *sorted(SOURCES.rglob("*.cc"))]
    files += [SOURCES / "python_module" / "CMakeLists.txt", *sorted(header_root.rglob("*.h"))]
    for path in files:
        digest.update(str(path.name).encode())
        digest.update(path.read_bytes())
    digest.update(envpool.__version__.encode())
    digest.update(sysconfig.get_config_var("EXT_SUFFIX").encode())
    return digest.hexdigest()[:16]


def build() -> Path:
    """Builds the module if needed; returns the folder that holds it."""
    out = REPO / "build" / "test-fault-env" / _inputs_hash()
    out.mkdir(parents=True, exist_ok=True)
    # one build at a time: pytest-xdist's workers may all ask for it at once
    with open(out.parent / f"{out.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_into(out)
    return out


def _build_into(out: Path) -> None:
    import pybind11

    cmake = shutil.which("cmake")
    if cmake is None:
        raise RuntimeError("the fault-injection tests need cmake: pip install -e '.[test]'")
    if not list(out.glob(f"{MODULE}*.so")):
        cmd = [
            cmake,
            "-S",
            str(SOURCES / "python_module"),
            "-B",
            str(out),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython_EXECUTABLE={sys.executable}",
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
            f"-Denvpool_DIR={build_paths.cmake_dir()}",
            f"-DCMAKE_LIBRARY_OUTPUT_DIRECTORY={out}",
        ]
        jobs = str(os.cpu_count() or 2)
        for step in (cmd, [cmake, "--build", str(out), "-j", jobs]):
            done = subprocess.run(step, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"building the fault env failed:\n{done.stdout}\n{done.stderr}")


def prelude(module_dir: Path) -> str:
    """Python source that makes "Fault-v0" available in a fresh interpreter."""
    return (
        f"import sys; sys.path.insert(0, {str(module_dir)!r})\n"
        "import envpool\n"
        f"envpool.register({TASK_ID!r}, '{MODULE}:FaultEnv')\n"
        f"envpool.register({DICT_TASK_ID!r}, '{MODULE}:FaultDictEnv')\n"
        + "".join(
            f"envpool.register({task!r}, '{MODULE}:{cls}')\n" for task, cls in TEXT_TASK_IDS.items()
        )
        + f"envpool.register({AGENTS_TASK_ID!r}, '{MODULE}:FaultAgentsEnv')\n"
    )


def register(module_dir: Path) -> None:
    """Registers "Fault-v0" in this interpreter (once)."""
    if str(module_dir) not in sys.path:
        sys.path.insert(0, str(module_dir))
    importlib.import_module(MODULE)
    if TASK_ID not in envpool.list_all_envs():
        envpool.register(TASK_ID, f"{MODULE}:FaultEnv")
    if DICT_TASK_ID not in envpool.list_all_envs():
        envpool.register(DICT_TASK_ID, f"{MODULE}:FaultDictEnv")
    for task, cls in TEXT_TASK_IDS.items():
        if task not in envpool.list_all_envs():
            envpool.register(task, f"{MODULE}:{cls}")
    if AGENTS_TASK_ID not in envpool.list_all_envs():
        envpool.register(AGENTS_TASK_ID, f"{MODULE}:FaultAgentsEnv")
