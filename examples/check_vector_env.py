"""Check that VectorEnvs follow gymnasium's vector API with envpool.testing.check_vector_env."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorWrapper

import envpool
from envpool.testing import ConformanceError, check_vector_env

# envpool pools, one per autoreset mode; short episodes so the autoreset check sees some end
for mode in ("next_step", "same_step", "disabled"):
    pool = envpool.make("CartPole-v1", num_envs=4, max_episode_steps=20, autoreset_mode=mode)
    print(check_vector_env(pool))


# any other VectorEnv, here gymnasium's own
def make_pendulum() -> gym.Env:
    return gym.make("Pendulum-v1", max_episode_steps=20)


gym_env = SyncVectorEnv([make_pendulum] * 2, autoreset_mode=AutoresetMode.SAME_STEP)
report = check_vector_env(gym_env)
print(f"gymnasium SyncVectorEnv: passed {report.passed}, skipped {report.skipped}")


class ForgetsAutoresetMode(VectorWrapper):
    """A VectorEnv that does not say how it resets ended envs."""

    @property
    def metadata(self) -> dict[str, Any]:
        return {}


try:
    check_vector_env(ForgetsAutoresetMode(envpool.make("CartPole-v1", num_envs=2)))
except ConformanceError as err:
    print(f"caught, as expected: {err}")
