"""Step 8 HalfCheetahs in envpool, then replay env 0's episode in gymnasium from its qpos0/qvel0.

Every reset row carries the initial MuJoCo state (info["qpos0"], info["qvel0"]), so any
episode can be reproduced in gymnasium's own env; the two agree to the last bit.
With an offscreen OpenGL context (EGL), the pool also renders a batch of frames.
"""

from __future__ import annotations

import numpy as np

import envpool


def main(steps: int = 200) -> None:
    env = envpool.make_gymnasium("HalfCheetah-v5", num_envs=8, seed=0)
    obs, info = env.reset()
    qpos0, qvel0 = info["qpos0"][0].copy(), info["qvel0"][0].copy()
    rng = np.random.default_rng(0)
    actions, observations = [], []
    for _ in range(steps):
        action = rng.uniform(-1, 1, size=(8, 6)).astype(np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        actions.append(action[0])
        observations.append(obs[0].copy())
    env.close()

    import gymnasium as gym

    replay = gym.make("HalfCheetah-v5").unwrapped
    replay.reset(seed=0)
    replay.set_state(qpos0, qvel0)
    worst = max(
        np.abs(replay.step(a)[0] - o).max() for a, o in zip(actions, observations, strict=True)
    )
    print(f"replayed {steps} steps of env 0 in gymnasium: largest observation difference {worst}")

    try:
        frames = envpool.make_gymnasium(
            "HalfCheetah-v5", num_envs=4, render_mode="rgb_array", width=160, height=120
        )
        frames.reset(seed=0)
        print("rendered a batch of frames:", np.stack(frames.render()).shape)
    except RuntimeError as exc:  # no EGL / OpenGL driver on this machine
        print("rendering skipped:", exc)


if __name__ == "__main__":
    main()
