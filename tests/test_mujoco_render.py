"""Batched rgb_array rendering of the MuJoCo tasks (EGL offscreen OpenGL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import envpool


def _render_or_skip(env: object) -> np.ndarray:
    try:
        frames = env.render()  # type: ignore[attr-defined]
        assert isinstance(frames, tuple)  # gymnasium's VectorEnv.render returns a tuple
        return np.stack(frames)
    except RuntimeError as exc:
        if "EGL" in str(exc) and not os.environ.get("ENVPOOL_REQUIRE_RENDER"):
            pytest.skip(f"no offscreen OpenGL here: {exc}")
        raise


def test_render_batch_shape_and_content() -> None:
    env = envpool.make_gymnasium(
        "Hopper-v5", num_envs=3, seed=0, render_mode="rgb_array", width=64, height=48
    )
    env.reset()
    frames = _render_or_skip(env)
    assert frames.shape == (3, 48, 64, 3) and frames.dtype == np.uint8
    assert frames.std() > 10  # a scene, not a blank buffer
    only = env.render(env_id=[1])
    np.testing.assert_array_equal(only[0], frames[1])
    for _ in range(20):
        env.step(np.full((3, 3), [1.0, -1.0, 1.0], dtype=np.float32))
    moved = np.stack(env.render())
    assert np.abs(moved.astype(int) - frames.astype(int)).mean() > 0.5
    env.close()


GYMNASIUM_FRAME = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import gymnasium as gym
    task, qpos, qvel = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
    g = gym.make(task, render_mode="rgb_array", width=80, height=60).unwrapped
    g.reset(seed=0)
    g.set_state(np.array(qpos), np.array(qvel))
    np.save(sys.argv[4], g.render())
    """
)


@pytest.mark.parametrize("task", ["HalfCheetah-v5", "Walker2d-v5"])
def test_render_matches_gymnasium(task: str, tmp_path: Path) -> None:
    env = envpool.make_gymnasium(task, num_envs=1, render_mode="rgb_array", width=80, height=60)
    _, info = env.reset(seed=5)
    ours = _render_or_skip(env)[0].astype(int)
    # gymnasium draws in its own process: two OpenGL stacks in one process
    # (PyOpenGL's and envpool's) are not something either supports.
    out = tmp_path / "frame.npy"
    qpos, qvel = (json.dumps(info[k][0].tolist()) for k in ("qpos0", "qvel0"))
    subprocess.run(
        [sys.executable, "-c", GYMNASIUM_FRAME, task, qpos, qvel, str(out)],
        check=True,
        cwd=tmp_path,
        env={**os.environ, "MUJOCO_GL": "egl"},
        capture_output=True,
    )
    theirs = np.load(out).astype(int)
    assert ours.shape == theirs.shape
    # The same camera, scene and renderer: the same picture.
    assert np.abs(ours - theirs).mean() < 1.0


def test_render_without_egl_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "libEGL.so.1").write_bytes(b"not a library")
    script = textwrap.dedent(
        """
        import numpy as np, envpool
        env = envpool.make_gymnasium("HalfCheetah-v5", num_envs=2, render_mode="rgb_array")
        env.reset(seed=0)
        try:
            env.render()
        except RuntimeError as exc:
            print("ERROR", exc)
        env.step(np.zeros((2, 6), np.float32))
        print("STILL STEPS")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env={**os.environ, "LD_LIBRARY_PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "ERROR" in done.stdout and "libEGL.so.1" in done.stdout
    assert "apt-get install libegl1" in done.stdout
    assert "STILL STEPS" in done.stdout


def test_render_needs_rgb_array_mode_and_sane_size() -> None:
    env = envpool.make_gymnasium("InvertedPendulum-v5", num_envs=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        env.render()
    with pytest.raises(ValueError, match="width"):
        envpool.make_gymnasium("InvertedPendulum-v5", num_envs=1, width=0)
