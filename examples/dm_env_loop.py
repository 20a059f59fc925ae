"""A dm_env loop: four Pendulums until one episode ends, then the next episodes start."""

from __future__ import annotations

import numpy as np

import envpool


def main() -> None:
    env = envpool.make_dm("Pendulum-v1", num_envs=4, seed=0)
    spec = env.action_spec()
    ts = env.reset()
    total = np.zeros(4)
    while not ts.last().any():  # Pendulum truncates after 200 steps
        action = np.random.uniform(spec.minimum, spec.maximum, size=(4, *spec.shape))
        ts = env.step(action.astype(spec.dtype))
        total += ts.reward
    print("returns", np.round(total, 1), "discount at the end", ts.discount)
    ts = env.step(np.zeros((4, 1), dtype=np.float32))  # the step after LAST starts anew
    assert (ts.step_type == 0).all()
    env.close()


if __name__ == "__main__":
    main()
