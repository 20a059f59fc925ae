"""CarRacing-v3 in envpool: 96x96 frames equal to gymnasium's, and rgb_array renders.

Each env of the pool drives the track gymnasium builds after reset(seed=s + i);
the observation is the frame gymnasium draws (road, grass, car, indicator bars and
score), pixel for pixel. With render_mode="rgb_array", render() gives the 600x400
view with skid marks, as gymnasium's env.render() does.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium as gym
import numpy as np

import envpool

SEED, NUM_ENVS, STEPS = 3, 2, 60

env = envpool.make("CarRacing-v3", num_envs=NUM_ENVS, seed=SEED, render_mode="rgb_array")
ref = gym.make("CarRacing-v3", render_mode="rgb_array")  # replays env 1 of the pool
obs, _ = env.reset()
ref_obs, _ = ref.reset(seed=SEED + 1)
assert obs.shape == (NUM_ENVS, 96, 96, 3) and np.array_equal(obs[1], ref_obs)

total = np.zeros(NUM_ENVS)
for t in range(STEPS):
    # Full throttle, then a hard left with the brake on: the tyres leave skid marks.
    action = np.array([-1.0, 0.0, 0.8] if t >= 40 else [0.0, 1.0, 0.0], dtype=np.float32)
    obs, reward, terminated, truncated, info = env.step(np.stack([action] * NUM_ENVS))
    ref_obs, ref_reward, *_ = ref.step(action)
    assert np.array_equal(obs[1], ref_obs), f"frame differs at step {t}"
    assert reward[1] == ref_reward
    total += reward

frames = env.render()
assert frames[1].shape == (400, 600, 3) and np.array_equal(frames[1], ref.render())
print(f"{STEPS} steps: returns {np.round(total, 2)}; every frame equal to gymnasium's")
env.close()
ref.close()
