"""An async rollout loop: 16 envs, and each recv() returns the first 4 to finish."""

from __future__ import annotations

import numpy as np

import envpool


def policy(obs: np.ndarray) -> np.ndarray:
    """Push the cart toward the side the pole leans to."""
    return (obs[:, 2] > 0).astype(np.int64)


def main(batches: int = 2000) -> None:
    env = envpool.make("CartPole-v1", num_envs=16, batch_size=4, seed=0)
    env.async_reset()
    episodes, steps = 0, 0
    for _ in range(batches):
        obs, reward, terminated, truncated, info = env.recv()
        episodes += int((terminated | truncated).sum())
        steps += len(obs)
        env.send(policy(obs), info["env_id"])
    env.close()
    print(f"{steps} env steps, {episodes} episodes finished")


if __name__ == "__main__":
    main()
