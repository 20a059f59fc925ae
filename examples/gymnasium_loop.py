"""A gymnasium vector loop over 8 CartPoles, with episode statistics from gymnasium's wrapper."""

from __future__ import annotations

import numpy as np
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import envpool


def main(steps: int = 2000) -> None:
    env = RecordEpisodeStatistics(envpool.make("CartPole-v1", num_envs=8, seed=0))
    obs, info = env.reset()
    returns = []
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
        if "episode" in info:
            returns.extend(info["episode"]["r"][info["_episode"]])
    env.close()
    print(f"{len(returns)} episodes, mean return {np.mean(returns):.1f} (random policy)")


if __name__ == "__main__":
    main()
