"""Tianshou 2.x drives an envpool pool as its own vector env: its Collector steps the
ready envs with ``step(act, env_ids)`` and resets only the finished ones with
``reset(env_id=ids)``; its VectorEnvNormObs wrapper and high-level EnvPoolFactory
call the pool the same way."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("tianshou")
import gymnasium as gym
from tianshou.algorithm.algorithm_base import Policy
from tianshou.data import Batch, Collector, CollectStats, VectorReplayBuffer
from tianshou.env import VectorEnvNormObs
from tianshou.highlevel.env import (
    EnvFactoryRegistered,
    EnvPoolFactory,
    VectorEnvType,
)

import envpool
from envpool.gymnasium_env import GymnasiumEnvPool

pytestmark = pytest.mark.integration

CARTPOLE_START_BOUND = 0.05  # CartPole starts every state variable in [-0.05, 0.05]


class PoleAnglePolicy(Policy):
    """Pushes the cart towards the side the pole leans to: deterministic, and it
    balances long enough that envs finish at different steps."""

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        return Batch(act=(np.asarray(batch.obs)[:, 2] > 0).astype(np.int64), state=state)


class ConstantPolicy(Policy):
    """Always the same continuous action."""

    def __init__(self, action_space: gym.spaces.Box, value: float) -> None:
        super().__init__(action_space=action_space)
        self.value = value

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        return Batch(act=np.full((len(batch.obs), *self.action_space.shape), self.value))


def cartpole_collector(num_envs: int, steps_per_env: int) -> Collector:
    pool = envpool.make("CartPole-v1", num_envs=num_envs, seed=3)
    policy = PoleAnglePolicy(action_space=pool.single_action_space)
    buffer = VectorReplayBuffer(num_envs * steps_per_env, num_envs)
    return Collector[CollectStats](policy, pool, buffer)


def env_transitions(collector: Collector, env: int) -> Batch:
    """The transitions env ``env`` added, in order (its sub-buffer of the VectorReplayBuffer)."""
    rows = collector.buffer.buffers[env]
    return rows[np.arange(len(rows))]


def test_collector_sees_the_pool_as_a_vector_env() -> None:
    collector = cartpole_collector(num_envs=4, steps_per_env=100)
    assert collector.env_num == 4  # len(pool)
    collector.reset()
    stats = collector.collect(n_step=400)
    assert stats.n_collected_steps == 400
    assert len(collector.buffer) == 400
    assert stats.n_collected_episodes > 0
    # CartPole pays 1 per step, so every episode's return is its length.
    np.testing.assert_array_equal(stats.returns, stats.lens)
    for env in range(4):
        rows = env_transitions(collector, env)
        assert len(rows) == 100
        np.testing.assert_array_equal(rows.info["env_id"], env)


def test_collector_resets_only_finished_envs_with_fresh_episodes() -> None:
    collector = cartpole_collector(num_envs=4, steps_per_env=150)
    collector.reset()
    stats = collector.collect(n_step=600)
    resets = 0
    for env in range(4):
        rows = env_transitions(collector, env)
        for t in range(len(rows) - 1):
            if rows.done[t]:
                # reset(env_id=...) gave this env a new episode...
                assert np.all(np.abs(rows.obs[t + 1]) <= CARTPOLE_START_BOUND)
                assert rows.info["elapsed_step"][t + 1] == 1
                resets += 1
            else:
                # ...and left the others' observations where their episodes were.
                np.testing.assert_array_equal(rows.obs[t + 1], rows.obs_next[t])
                assert rows.info["elapsed_step"][t + 1] == rows.info["elapsed_step"][t] + 1
    assert resets == stats.n_collected_episodes > 4  # envs finished at different steps


class PushLeftPolicy(Policy):
    """Always pushes left: CartPole episodes end after about ten steps, often several at once."""

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        return Batch(act=np.zeros(len(batch.obs), dtype=np.int64), state=state)


def test_simultaneous_resets_of_envs_with_vector_info() -> None:
    # CartPole's info carries a per-env vector ("state", 4 values). Tianshou hands the
    # info of reset(env_id=ids) on to its policy next to the other envs' step infos;
    # this must work however many envs end on the same step, four included.
    pool = envpool.make("CartPole-v1", num_envs=8, seed=0)
    policy = PushLeftPolicy(action_space=pool.single_action_space)
    collector = Collector[CollectStats](policy, pool, VectorReplayBuffer(8 * 300, 8))
    collector.reset()
    stats = collector.collect(n_step=8 * 300)
    assert stats.n_collected_steps == 8 * 300
    ends_per_step = np.stack([env_transitions(collector, env).done for env in range(8)]).sum(axis=0)
    assert (ends_per_step == 4).any()  # the case that once broke the Collector happened


def test_collecting_fewer_episodes_than_envs_steps_a_subset() -> None:
    collector = cartpole_collector(num_envs=4, steps_per_env=600)
    collector.reset()
    stats = collector.collect(n_episode=2)
    assert stats.n_collected_episodes == 2
    # Only envs 0 and 1 were stepped (step(act, [0, 1])), each for one whole episode.
    lens = [len(collector.buffer.buffers[env]) for env in range(4)]
    assert lens[2] == lens[3] == 0
    assert sorted(lens[:2]) == sorted(stats.lens.tolist())


def test_random_collection_samples_one_action_per_env() -> None:
    # Tianshou samples random actions from env.action_space once per env: the
    # original API's single-env action space.
    pool = envpool.make("Pendulum-v1", num_envs=4, seed=0, original_api=True)
    policy = ConstantPolicy(pool.action_space, 1.0)
    collector = Collector[CollectStats](policy, pool, VectorReplayBuffer(40, 4))
    collector.reset()
    collector.collect(n_step=20, random=True)
    acts = collector.buffer[np.arange(len(collector.buffer))].act
    assert acts.shape == (20, 1)
    assert np.all(np.abs(acts) <= 2.0)
    assert len(np.unique(acts)) > 1  # sampled, not the policy's constant


def test_collector_feeds_the_policy_actions_to_the_right_envs() -> None:
    pool = envpool.make("Pendulum-v1", num_envs=4, seed=0, gym_reset_return_info=True)
    policy = ConstantPolicy(pool.single_action_space, 1.0)
    collector = Collector[CollectStats](policy, pool, VectorReplayBuffer(40, 4))
    collector.reset()
    collector.collect(n_step=8)
    for env in range(4):
        rows = env_transitions(collector, env)
        assert len(rows) == 2
        np.testing.assert_array_equal(rows.info["env_id"], env)
        np.testing.assert_array_equal(rows.act, [[1.0], [1.0]])


def test_norm_obs_wrapper_aligns_two_pools_with_one_seed() -> None:
    # A test pool normalised with the training pool's statistics sees exactly the
    # training pool's normalised observations when both have the same seed.
    train = VectorEnvNormObs(envpool.make("CartPole-v1", num_envs=3, seed=7))
    test = VectorEnvNormObs(envpool.make("CartPole-v1", num_envs=3, seed=7), update_obs_rms=False)
    test.set_obs_rms(train.get_obs_rms())
    train_obs, _ = train.reset()
    test_obs, _ = test.reset()
    np.testing.assert_array_equal(train_obs, test_obs)
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = rng.integers(0, 2, size=3)
        train_out = train.step(actions)
        test_out = test.step(actions)
        np.testing.assert_array_equal(train_out[0], test_out[0])
        done = np.flatnonzero(np.logical_or(train_out[2], train_out[3]))
        if len(done):
            train_reset, _ = train.reset(done)  # positional env ids, as tianshou passes them
            test_reset, _ = test.reset(done)
            assert train_reset.shape == (len(done), 4)
            np.testing.assert_array_equal(train_reset, test_reset)
    assert train.get_obs_rms().count > 40 * 3
    assert len(train) == 3


def test_high_level_env_factory_builds_pools() -> None:
    factory = EnvFactoryRegistered(
        task="CartPole-v1", venv_type=VectorEnvType.DUMMY, envpool_factory=EnvPoolFactory()
    )
    envs = factory.create_envs(num_training_envs=3, num_test_envs=2, seed=11)
    for venv, num_envs in ((envs.training_envs, 3), (envs.test_envs, 2)):
        assert isinstance(venv, GymnasiumEnvPool)
        assert len(venv) == num_envs
        assert venv.spec.id == "CartPole-v1"
        obs, _ = venv.reset()
        assert obs.shape == (num_envs, 4)
        venv.close()
