"""gymnasium-robotics 1.4.2 as a peer and reference on envpool's mujoco (3.17).

Its Fetch, Shadow Hand and Kitchen envs stop there in four joint-type asserts of
``gymnasium_robotics/utils/mujoco_utils.py``: ``joint_type in (mjJNT_HINGE, mjJNT_SLIDE)``
compares mujoco's enums to numpy's int32 from the left, which is False. ``register``
rewrites those four asserts as ``joint_type == mjJNT_HINGE or joint_type == mjJNT_SLIDE``
(numpy's value on the left, which compares equal), the whole patch, runs the module's own
code otherwise, and registers gymnasium-robotics' ids in gymnasium (its import's notice
about its Adroit tasks, printed to stderr, kept out of the output)."""

from __future__ import annotations

import contextlib
import importlib
import io

_JOINT_CHECK = "assert joint_type in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE)"
_JOINT_CHECK_FIXED = (
    "assert joint_type == mujoco.mjtJoint.mjJNT_HINGE or joint_type == mujoco.mjtJoint.mjJNT_SLIDE"
)


def patch_joint_checks() -> None:
    """Rewrites the four joint-type asserts (once per process)."""
    mujoco_utils = importlib.import_module("gymnasium_robotics.utils.mujoco_utils")
    if getattr(mujoco_utils, "_envpool_patched", False):
        return
    path = str(mujoco_utils.__file__)
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if source.count(_JOINT_CHECK) != 4:
        raise RuntimeError("gymnasium-robotics' joint-type checks are not the four expected")
    code = compile(source.replace(_JOINT_CHECK, _JOINT_CHECK_FIXED), path, "exec")
    exec(code, mujoco_utils.__dict__)  # gymnasium-robotics' own code, patched
    mujoco_utils._envpool_patched = True  # type: ignore[attr-defined]


def register() -> None:
    """gymnasium-robotics' ids registered in gymnasium, its joint checks patched."""
    import gymnasium as gym

    with contextlib.redirect_stderr(io.StringIO()):
        gym_robotics = importlib.import_module("gymnasium_robotics")
        patch_joint_checks()
    gym.register_envs(gym_robotics)
