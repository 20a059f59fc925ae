"""Smoke test of an installed envpool wheel: .ci/smoke_wheels runs it in a fresh
virtual env, from a folder outside the checkout.

Usage: python smoke_wheel.py CHECKOUT_ROOT
"""

import importlib
import os
import sys
import sysconfig

import numpy as np


def _under(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return os.path.commonpath([path, folder]) == folder


def main() -> None:
    checkout = sys.argv[1]
    import envpool

    site = sysconfig.get_paths()["purelib"]
    if not _under(envpool.__file__, site) or _under(envpool.__file__, checkout):
        raise SystemExit(f"envpool imported from {envpool.__file__}, not from {site}")
    # Every extension module of the wheel loads (_mujoco and _dmc link the
    # mujoco wheel's libmujoco, _atari and _box2d carry ALE and Box2D).
    from envpool.bindings import EXTENSION_MODULES

    for name in EXTENSION_MODULES:
        module = importlib.import_module(f"envpool.{name}")
        if not _under(module.__file__, site):
            raise SystemExit(f"envpool.{name} loaded from {module.__file__}")

    # CartPole (classic control), Pong (ALE inside the wheel), HalfCheetah
    # (MuJoCo from its wheel), LunarLander (Box2D inside the wheel).
    for task, num_envs, steps in (
        ("CartPole-v1", 4, 100),
        ("Pong-v5", 2, 20),
        ("HalfCheetah-v5", 2, 50),
        ("LunarLander-v3", 2, 50),
    ):
        env = envpool.make(task, num_envs=num_envs, seed=0)
        obs, _ = env.reset()
        if obs.shape[0] != num_envs:
            raise SystemExit(f"{task}: reset returned a batch of shape {obs.shape}")
        total = np.zeros(num_envs)
        for _ in range(steps):
            obs, reward, _, _, _ = env.step(env.action_space.sample())
            total += reward
        env.close()
        if not np.all(np.isfinite(total)):
            raise SystemExit(f"{task}: non-finite rewards {total}")
        print(f"  {task}: obs {obs.shape} {obs.dtype}, {steps} steps, return {total.round(2)}")
    where = os.path.dirname(envpool.__file__)
    print(f"smoke test passed: envpool {envpool.__version__} from {where}")


if __name__ == "__main__":
    main()
