"""The three autoreset modes, a masked reset, and per-env options, on CartPole and Pendulum."""

from __future__ import annotations

import numpy as np

import envpool


def same_step() -> None:
    """Ended envs come back already reset; the last observation is in info["final_obs"]."""
    env = envpool.make("CartPole-v1", num_envs=4, autoreset_mode="same_step", seed=0)
    env.reset()
    for _ in range(100):
        obs, reward, terminated, truncated, info = env.step(np.ones(4, dtype=np.int64))
        done = terminated | truncated
        if done.any():
            final = info["final_obs"][info["_final_obs"]]
            print("same_step: envs", np.flatnonzero(done), "ended; final pole angles", final[:, 2])
            break
    env.close()


def disabled() -> None:
    """Nothing resets by itself: reset just the ended envs with a mask."""
    env = envpool.make("CartPole-v1", num_envs=4, autoreset_mode="disabled", seed=0)
    env.reset()
    resets = 0
    for _ in range(100):
        obs, reward, terminated, truncated, info = env.step(np.zeros(4, dtype=np.int64))
        done = terminated | truncated
        if done.any():
            obs, info = env.reset(options={"reset_mask": done})
            resets += int(done.sum())
    print(f"disabled: {resets} masked resets in 100 steps")
    env.close()


def per_env_options() -> None:
    """One Pendulum per gravity value, stepped together."""
    gravities = [2.0, 5.0, 9.81, 15.0]
    env = envpool.make("Pendulum-v1", num_envs=4, g=gravities, seed=0)
    env.reset()
    total = np.zeros(4)
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(np.zeros((4, 1), dtype=np.float32))
        total += reward
    returns = {g: round(float(r), 1) for g, r in zip(gravities, total, strict=True)}
    print("per-env g -> return with zero torque:", returns)
    env.close()


if __name__ == "__main__":
    same_step()
    disabled()
    per_env_options()
