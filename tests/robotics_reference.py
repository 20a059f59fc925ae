"""gymnasium-robotics' tasks side by side with envpool's, for tests/test_robotics_*.py:
env i of ``envpool.make(id, num_envs=n, seed=s)`` is
``gymnasium.make(id)`` reset with seed ``s + i``, both stepped with the same random
actions (some past the action bounds); every observation key, reward, termination,
truncation and info value the reference gives must be equal, bit for bit, over whole
episodes and through autoresets (the reference resets without a seed, continuing its
generator, as the pool's env does).

gymnasium-robotics 1.4.2 under mujoco 3.17 stops in four joint-type checks of
``gymnasium_robotics/utils/mujoco_utils.py`` (``assert joint_type in (mjJNT_HINGE,
mjJNT_SLIDE)``: the tuple's enums compare unequal to numpy's int32 from the left), which
Fetch, the Hand and Kitchen reach. ``reference`` rewrites those four asserts as
``joint_type == mjJNT_HINGE or joint_type == mjJNT_SLIDE`` (numpy's int32 on the left,
which compares equal), the whole patch (envpool/bench/robotics_peer.py, which the
benchmarks' gymnasium peers use too), and runs the module's own code otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import warnings
from typing import Any

import numpy as np
import pytest

import envpool

SLOW = os.environ.get("ENVPOOL_SLOW") == "1"


def reference(task: str, **options: Any) -> Any:
    import gymnasium

    from envpool.bench import robotics_peer

    robotics_peer.register()
    # maze.py (the v3 mazes) writes its model to the fixed path
    # <tempfile.gettempdir()>/ant_maze.xml: tests in parallel processes would load each
    # other's mazes. Each process gets its own temporary folder while it makes one.
    saved = tempfile.tempdir
    tempfile.tempdir = _own_temp_dir()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return gymnasium.make(task, **options)
    finally:
        tempfile.tempdir = saved


_TEMP_DIRS: dict[int, str] = {}


def _own_temp_dir() -> str:
    if os.getpid() not in _TEMP_DIRS:
        _TEMP_DIRS[os.getpid()] = tempfile.mkdtemp(prefix="gymnasium-robotics-reference-")
    return _TEMP_DIRS[os.getpid()]


def _same_obs(obs: Any, i: int, r_obs: Any, where: str) -> None:
    """Env i's observation (a dict's every key, nested dicts' too, or one array) equals
    the reference's."""
    if isinstance(r_obs, dict):
        assert set(obs) == set(r_obs), f"{where}: keys {sorted(obs)} != {sorted(r_obs)}"
        for key, value in r_obs.items():
            if isinstance(value, dict):
                _same_obs(obs[key], i, value, f"{where} {key}")
                continue
            np.testing.assert_array_equal(obs[key][i], value, err_msg=f"{where} {key}")
    else:
        np.testing.assert_array_equal(obs[i], r_obs, err_msg=where)


# Under numpy 1.x, the Ant's control cost (AntMaze's info "reward_ctrl") is promoted to
# float64 by gymnasium's ``weight * np.sum(np.square(action))``; envpool keeps numpy 2's
# float32 (as the MuJoCo family does, docs/mujoco.md), so there it agrees to float32's
# rounding, not bit for bit.
NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"
FLOAT32_UNDER_NUMPY_1 = ("reward_ctrl",)


def _same_info(info: dict[str, Any], i: int, r_info: dict[str, Any], where: str) -> None:
    for key, value in r_info.items():
        assert key in info, f"{where}: info has no {key!r}"
        if isinstance(value, list):  # Kitchen's task names: a bool per task here
            from envpool.families.robotics.kitchen_tasks import KITCHEN_TASKS

            ours = {name for name, on in zip(KITCHEN_TASKS, info[key][i], strict=True) if on}
            assert ours == set(value), f"{where} info {key}: {ours} != {value}"
            continue
        if NUMPY_1 and key in FLOAT32_UNDER_NUMPY_1:
            assert abs(info[key][i] - value) <= 1e-6 * max(1.0, abs(value)), where
            continue
        assert info[key][i] == value, f"{where} info {key}: {info[key][i]} != {value}"


def compare(task: str, steps: int, num_envs: int = 2, seed: int = 3, **options: Any) -> list[Any]:
    """Steps the pool and gymnasium-robotics side by side; returns the observations of the
    steps, one dict of batched arrays per step, with the episode ends marked."""
    env = envpool.make(task, num_envs=num_envs, seed=seed, **options)
    refs = [reference(task, **options) for _ in range(num_envs)]
    obs, info = env.reset()
    for i, ref in enumerate(refs):
        r_obs, r_info = ref.reset(seed=seed + i)
        _same_obs(obs, i, r_obs, f"{task} reset")
        _same_info(info, i, r_info, f"{task} reset env {i}")
    ended = [False] * num_envs
    trace = []
    rng = np.random.default_rng(seed)
    bound = float(env.single_action_space.high.max())
    shape = (num_envs, *env.single_action_space.shape)
    for t in range(steps):
        action = rng.uniform(-1.2 * bound, 1.2 * bound, shape).astype(np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        for i, ref in enumerate(refs):
            where = f"{task} env {i} step {t}"
            if ended[i]:
                r_obs, r_info = ref.reset()
                r_reward, r_terminated, r_truncated = 0.0, False, False
            else:
                r_obs, r_reward, r_terminated, r_truncated, r_info = ref.step(action[i])
            _same_obs(obs, i, r_obs, where)
            assert reward[i] == r_reward, where
            assert (terminated[i], truncated[i]) == (r_terminated, r_truncated), where
            _same_info(info, i, r_info, where)
            ended[i] = bool(r_terminated or r_truncated)
        trace.append({**(obs if isinstance(obs, dict) else {"obs": obs}), "ended": np.array(ended)})
    env.close()
    return trace


def episode_ends(trace: list[Any]) -> int:
    return int(sum(step["ended"].sum() for step in trace))


_FRAME = """
import sys
import numpy as np
import gymnasium as gym
from envpool.bench import robotics_peer
robotics_peer.register()  # gymnasium-robotics with its four joint-type checks patched
env = gym.make(sys.argv[1], render_mode="rgb_array", width=96, height=72)
env.reset(seed=int(sys.argv[2]))
for action in np.load(sys.argv[3]):
    env.step(action)
np.save(sys.argv[4], env.render())
"""


def render_both(task: str, folder: Any, seed: int = 4, steps: int = 5) -> tuple[Any, Any]:
    """The frame of env 0 of a pool and of gymnasium-robotics' env (96x72) after the same
    seed and actions; the reference draws in its own process (two OpenGL stacks in one
    process are not supported). Skips where no offscreen OpenGL is found, unless
    ENVPOOL_REQUIRE_RENDER is set."""
    env = envpool.make(task, num_envs=1, seed=seed, render_mode="rgb_array", width=96, height=72)
    env.reset()
    shape = env.single_action_space.shape
    actions = np.random.default_rng(0).uniform(-1, 1, (steps, *shape)).astype(np.float32)
    for action in actions:
        env.step(action[None])
    try:
        ours = np.stack(env.render())[0]
    except RuntimeError as exc:
        if "EGL" in str(exc) and not os.environ.get("ENVPOOL_REQUIRE_RENDER"):
            pytest.skip(f"no offscreen OpenGL here: {exc}")
        raise
    finally:
        env.close()
    np.save(os.path.join(folder, "actions.npy"), actions)
    out = os.path.join(folder, "frame.npy")
    subprocess.run(
        [sys.executable, "-c", _FRAME, task, str(seed), os.path.join(folder, "actions.npy"), out],
        check=True,
        cwd=folder,
        env={**os.environ, "MUJOCO_GL": "egl"},
        capture_output=True,
    )
    theirs = np.load(out)
    assert ours.shape == theirs.shape == (72, 96, 3)
    return ours, theirs
