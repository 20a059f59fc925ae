"""TorchRL's MultiThreadedEnv builds and drives envpool pools itself
(``envpool.make(task_id=..., env_type="gym", gym_reset_return_info=True,
max_num_players=1)``, ``env.config["num_envs"]``, ``env.spec.*_space``,
``reset(ids)``, ``step(actions)``); these tests run it unmodified."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torchrl")
import torch
from tensordict.nn import TensorDictModule
from torchrl.envs import MultiThreadedEnv
from torchrl.envs.utils import RandomPolicy, check_env_specs, step_mdp

import envpool

pytestmark = pytest.mark.integration

TASKS = ["CartPole-v1", "Pong-v5", "HalfCheetah-v5"]
CARTPOLE_START_BOUND = 0.05  # CartPole starts every state variable in [-0.05, 0.05]


class PoleAngleRule(torch.nn.Module):
    """Pushes the cart towards the side the pole leans to."""

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        return (observation[..., 2] > 0).long()


def make_env(task: str, num_workers: int = 2, seed: int = 0) -> MultiThreadedEnv:
    return MultiThreadedEnv(num_workers, task, create_env_kwargs={"seed": seed})


@pytest.fixture(scope="module", autouse=True)
def _one_torch_thread() -> None:
    torch.set_num_threads(1)


@pytest.mark.parametrize("task", TASKS)
def test_specs_match_the_pool_and_pass_torchrl_checks(task: str) -> None:
    env = make_env(task)
    pool_spec = envpool.make_spec(task)
    assert env.batch_size == torch.Size([2])
    observation = env.observation_spec["observation"]
    assert observation.shape == (2, *pool_spec.observation_space.shape)
    assert (
        observation.dtype == torch.from_numpy(np.zeros(0, pool_spec.observation_space.dtype)).dtype
    )
    assert env.action_spec.shape[0] == 2
    check_env_specs(env)
    env.close()


@pytest.mark.parametrize("task", TASKS)
def test_rollout_matches_the_pool_stepped_directly(task: str) -> None:
    # MultiThreadedEnv passes actions and results through unchanged: the same
    # actions on a pool made with the same seed give the same transitions.
    env = make_env(task, seed=5)
    env.set_seed(5)
    rollout = env.rollout(60, RandomPolicy(env.action_spec), break_when_any_done=False)
    env.close()
    assert rollout.batch_size == torch.Size([2, 60])
    pool = envpool.make(task, env_type="gym", num_envs=2, seed=5)
    obs, _ = pool.reset()
    np.testing.assert_array_equal(rollout["observation"][:, 0].numpy(), obs)
    for t in range(60):
        obs, reward, terminated, truncated, _ = pool.step(rollout["action"][:, t].numpy())
        step = rollout["next"][:, t]
        np.testing.assert_array_equal(step["observation"].numpy(), obs)
        np.testing.assert_array_equal(step["reward"].numpy(), reward)
        np.testing.assert_array_equal(step["terminated"].numpy(), terminated)
        np.testing.assert_array_equal(step["truncated"].numpy(), truncated)
    pool.close()


def test_cartpole_policy_rollout_runs_through_episode_ends() -> None:
    env = make_env("CartPole-v1", num_workers=3)
    policy = TensorDictModule(PoleAngleRule(), in_keys=["observation"], out_keys=["action"])
    rollout = env.rollout(600, policy, break_when_any_done=False)
    assert rollout.batch_size == torch.Size([3, 600])
    np.testing.assert_array_equal(
        rollout["action"].numpy(), (rollout["observation"][..., 2] > 0).long().numpy()
    )
    done = rollout["next", "done"]
    assert done.sum() >= 3  # every worker ended an episode (500 steps at most)
    # The pool restarts an env on the step after its episode ended (torchrl
    # skips its own reset): that step's observation is a fresh start.
    worker, t = torch.nonzero(done[:, :-1], as_tuple=True)
    fresh = rollout["next", "observation"][worker, t + 1]
    assert (fresh.abs() <= CARTPOLE_START_BOUND).all()
    env.close()


def test_rollout_stops_at_the_first_episode_end_by_default() -> None:
    env = make_env("CartPole-v1", num_workers=2)
    rollout = env.rollout(1000, RandomPolicy(env.action_spec))
    assert rollout.shape[1] < 500  # random play drops the pole long before the time limit
    assert rollout["next", "done"][:, -1].any()
    env.close()


def test_partial_reset_restarts_only_the_masked_workers() -> None:
    # torchrl resets the workers flagged in "_reset" with reset(ids); the result must
    # match a pool stepped directly through the same actions and the same reset.
    env = make_env("CartPole-v1", num_workers=3, seed=9)
    pool = envpool.make("CartPole-v1", env_type="gym", num_envs=3, seed=9)
    pool.reset()
    td = env.rand_step(env.reset())
    pool.step(td["action"].numpy())
    td = step_mdp(td)
    td["_reset"] = torch.tensor([False, True, False])
    after = env.reset(td)
    fresh, _ = pool.reset(np.array([1]))
    np.testing.assert_array_equal(after["observation"][1].numpy(), fresh[0])
    assert (after["observation"][1].abs() <= CARTPOLE_START_BOUND).all()
    assert torch.equal(after["observation"][[0, 2]], td["observation"][[0, 2]])
    stepped = env.rand_step(after)
    obs, *_ = pool.step(stepped["action"].numpy())
    np.testing.assert_array_equal(stepped["next", "observation"].numpy(), obs)
    pool.close()
    env.close()


def test_set_seed_rebuilds_the_pool_with_that_seed() -> None:
    env = make_env("CartPole-v1", num_workers=2, seed=0)
    env.set_seed(123)
    first = env.reset()["observation"].numpy()
    pool = envpool.make("CartPole-v1", env_type="gym", num_envs=2, seed=123)
    np.testing.assert_array_equal(first, pool.reset()[0])
    pool.close()
    env.close()
