"""Replay an envpool LunarLander episode in gymnasium from its seed alone.

envpool's toy-text and Box2D envs draw their random numbers exactly as gymnasium's
env.np_random does, so env i of a pool made with seed s is gymnasium's env after
reset(seed=s + i): same terrain, same initial push, same engine dispersion.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

import envpool

SEED, NUM_ENVS, STEPS = 7, 4, 150

env = envpool.make("LunarLander-v3", num_envs=NUM_ENVS, seed=SEED, enable_wind=True)
obs, _ = env.reset()
rng = np.random.default_rng(0)
actions = rng.integers(0, 4, size=(STEPS, NUM_ENVS))
trajectory = [obs[2]]
for a in actions:
    obs, reward, terminated, truncated, _ = env.step(a)
    trajectory.append(obs[2])
    if terminated[2] or truncated[2]:
        break
env.close()

# Env 2 of the pool, replayed in gymnasium from seed SEED + 2.
ref = gym.make("LunarLander-v3", enable_wind=True)
ref_obs, _ = ref.reset(seed=SEED + 2)
assert np.array_equal(ref_obs, trajectory[0])
for t, a in enumerate(actions[: len(trajectory) - 1]):
    ref_obs, *_ = ref.step(a[2])
    assert np.array_equal(ref_obs, trajectory[t + 1]), f"step {t}"
print(f"env 2 of the pool replayed in gymnasium bit for bit over {len(trajectory) - 1} steps")

# Toy text: FrozenLake's slippery moves replay the same way, and render_mode="ansi"
# gives gymnasium's text.
lake = envpool.make("FrozenLake-v1", num_envs=2, seed=SEED, render_mode="ansi")
lake.reset()
lake.step(np.array([2, 1]))
print(lake.render()[0])
