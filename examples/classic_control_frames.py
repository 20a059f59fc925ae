"""Classic-control frames from a pool: one video array per env, equal to gymnasium's.

With render_mode="rgb_array", render() returns each env's frame as gymnasium's
env.render() draws it. Here a CartPole pool's frames are gathered into one
(steps, 400, 600, 3) uint8 array per env (what imageio or moviepy write as a video),
and env 0's are checked against gymnasium started from the same state.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium as gym
import numpy as np

import envpool

NUM_ENVS, STEPS = 4, 40

env = envpool.make("CartPole-v1", num_envs=NUM_ENVS, seed=0, render_mode="rgb_array")
ref = gym.make("CartPole-v1", render_mode="rgb_array")
obs, info = env.reset()
ref.reset(seed=0)
ref.unwrapped.state = info["state"][0]  # replay env 0 in gymnasium (docs/api.md)

videos = [[frame] for frame in env.render()]
for _ in range(STEPS):
    actions = (obs[:, 2] > 0).astype(np.int64)  # push towards the side the pole leans to
    obs, reward, terminated, truncated, info = env.step(actions)
    ref.step(actions[0])
    for video, frame in zip(videos, env.render(), strict=True):
        video.append(frame)
    assert np.array_equal(videos[0][-1], ref.render()), "env 0's frame differs"
    if terminated[0] or truncated[0]:
        break

clips = [np.stack(video) for video in videos]
print(f"{len(clips)} clips of shape {clips[0].shape}; env 0's frames equal gymnasium's")
env.close()
ref.close()
