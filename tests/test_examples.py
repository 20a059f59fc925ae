"""Every example in examples/ runs to completion."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# distributed_cartpole.py starts Ray, which listens on the network: it runs only in a
# loopback-only network namespace, from tests/test_distributed.py.
IN_NETNS_ONLY = {"distributed_cartpole.py"}
# Examples that drive a training library or train: CI runs them once (marker "integration").
TRAINING_LIBRARY_EXAMPLES = {
    "tianshou_cartpole.py",
    "torchrl_rollout.py",
    "cleanrl_style_ppo_atari.py",
    "minigrid_doorkey_ppo.py",
    "procgen_ppo.py",
    "fetch_her.py",
}
# Examples that need jax, which needs numpy >= 2 (marker "jax"; the numpy 1.26 CI run
# leaves them out).
JAX_EXAMPLES = {"ppo_jax_xla.py"}
# Examples that need procgen's game library, fetched from procgen's wheel on first use
# (envpool/procgen_runtime.py): skipped, with the reason, where it cannot be had.
PROCGEN_EXAMPLES = {"procgen_ppo.py"}
# Arguments for a CI-sized run; tests/test_xla.py runs the full ones with ENVPOOL_SLOW=1.
EXAMPLE_ARGS = {
    "ppo_jax_xla.py": ["--smoke"],
    "minigrid_doorkey_ppo.py": ["--smoke"],
    "procgen_ppo.py": ["--smoke"],
    "fetch_her.py": ["--smoke"],
}
EXAMPLES = sorted(
    p
    for p in (Path(__file__).resolve().parent.parent / "examples").glob("*.py")
    if p.name not in IN_NETNS_ONLY
)


def test_examples_exist() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(
            p,
            id=p.name,
            marks=[
                *([pytest.mark.integration] if p.name in TRAINING_LIBRARY_EXAMPLES else []),
                *([pytest.mark.jax] if p.name in JAX_EXAMPLES else []),
            ],
        )
        for p in EXAMPLES
    ],
)
def test_example_runs(script: Path) -> None:
    if script.name in PROCGEN_EXAMPLES:
        from envpool import procgen_runtime

        try:
            procgen_runtime.library()
        except procgen_runtime.ProcgenUnavailableError as error:
            pytest.skip(f"procgen's library cannot be had: {error}")
    done = subprocess.run(
        [sys.executable, str(script), *EXAMPLE_ARGS.get(script.name, [])],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),  # import the installed envpool, not the source folder
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "an example should report what it did"
