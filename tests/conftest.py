"""Helpers shared by the Python API tests: timeouts for calls that could hang,
subprocess runs for checks that involve interpreter exit or fork, and a quick
"does this pool still step correctly" check used after every rejected call."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

# env.xla()'s tests import jax at the top: without jax (the numpy 1.26 CI pass
# uninstalls it, as jax needs numpy 2) the file is not collected at all.
collect_ignore = [] if importlib.util.find_spec("jax") else ["test_xla.py"]

# A generous bound for calls that must return at once: a hang fails the test
# instead of stalling the run.
CALL_TIMEOUT_S = 20.0
SUBPROCESS_TIMEOUT_S = 60.0


def call_with_timeout(fn: Callable[[], Any], timeout: float = CALL_TIMEOUT_S) -> Any:
    """Runs ``fn`` in a daemon thread; returns its result or re-raises its exception.

    Fails the test if ``fn`` does not return within ``timeout`` seconds.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn()
        except BaseException as exc:  # re-raised in the calling thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        pytest.fail(f"call did not return within {timeout} s (hang)")
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def run_python(code: str, timeout: float = SUBPROCESS_TIMEOUT_S) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter; fails the test if it does not exit in time.

    The interpreter runs in its own process group, so a hang also takes down
    any process it forked. It starts outside the source tree, so that it
    imports the installed envpool rather than the uncompiled source folder.
    """
    env = dict(os.environ, PYTHONFAULTHANDLER="1")
    args = [sys.executable, "-c", textwrap.dedent(code)]
    with subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
        start_new_session=True,
    ) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            stdout, stderr = proc.communicate()
            pytest.fail(f"subprocess did not exit within {timeout} s (hang); stderr: {stderr}")
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr)


def valid_actions(space: Any, n: int, seed: int = 0) -> np.ndarray:
    """``n`` stacked valid single-env actions for ``space``."""
    space.seed(seed)
    return np.stack([np.asarray(space.sample()) for _ in range(n)])


def assert_steps_ok(env: Any, env_id: Any = None) -> tuple:
    """Steps a sync gymnasium pool once with valid actions and checks the result."""
    ids = np.arange(env.num_envs) if env_id is None else np.asarray(env_id)
    actions = valid_actions(env.single_action_space, len(ids))
    obs, reward, terminated, truncated, info = call_with_timeout(
        lambda: env.step(actions, env_id=env_id)
    )
    n = len(ids)
    assert obs.shape == (n, *env.single_observation_space.shape)
    assert obs.dtype == env.single_observation_space.dtype
    assert np.all(np.isfinite(obs))
    assert reward.shape == (n,)
    assert terminated.shape == (n,) and terminated.dtype == np.bool_
    assert truncated.shape == (n,) and truncated.dtype == np.bool_
    np.testing.assert_array_equal(info["env_id"], ids)
    assert np.all(info["elapsed_step"] >= 0)
    return obs, reward, terminated, truncated, info


@pytest.fixture(scope="session")
def fault_env_dir() -> Any:
    """The folder of the test-only fault-injection env module, built on first use;
    task "Fault-v0" is registered in this interpreter."""
    import fault_env

    module_dir = fault_env.build()
    fault_env.register(module_dir)
    return module_dir
