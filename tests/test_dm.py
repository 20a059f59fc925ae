"""The dm_env front end: batched TimeSteps, specs, discounts and step types."""

from __future__ import annotations

import dm_env
import numpy as np
import pytest
from conftest import call_with_timeout
from dm_env import specs

import envpool

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.asan]

FIRST, MID, LAST = (int(t) for t in dm_env.StepType)


def test_is_a_dm_env_environment_with_batched_timesteps():
    env = envpool.make("CartPole-v1", env_type="dm", num_envs=3)
    assert isinstance(env, dm_env.Environment)
    ts = env.reset(seed=0)
    assert isinstance(ts, dm_env.TimeStep)
    np.testing.assert_array_equal(ts.step_type, [FIRST] * 3)
    assert ts.first().all()
    assert set(ts.observation) >= {"obs", "env_id", "elapsed_step", "state"}
    assert ts.observation["obs"].shape == (3, 4)
    np.testing.assert_array_equal(ts.observation["env_id"], [0, 1, 2])
    np.testing.assert_array_equal(ts.observation["elapsed_step"], [0, 0, 0])
    ts = env.step(np.array([0, 1, 0]))
    np.testing.assert_array_equal(ts.step_type, [MID] * 3)
    assert ts.mid().all()
    np.testing.assert_array_equal(ts.reward, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(ts.discount, [1.0, 1.0, 1.0])
    np.testing.assert_array_equal(ts.observation["elapsed_step"], [1, 1, 1])
    env.close()


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1", "Acrobot-v1"])
def test_specs_validate_the_time_steps(task_id):
    env = envpool.make_dm(task_id, num_envs=2)
    try:
        obs_spec = env.observation_spec()
        action_spec = env.action_spec()
        assert set(obs_spec) >= {"obs", "env_id", "elapsed_step"}
        spec = envpool.make_spec(task_id)
        assert obs_spec["obs"].shape == spec.observation_space.shape
        assert action_spec.shape == spec.action_space.shape
        ts = env.reset(seed=1)
        for _ in range(3):
            for i in range(2):
                for key, value_spec in obs_spec.items():
                    value_spec.validate(ts.observation[key][i])
            actions = np.stack([action_spec.generate_value()] * 2)
            ts = env.step(actions)
        env.reward_spec().validate(ts.reward[0])
        env.discount_spec().validate(ts.discount[0])
    finally:
        env.close()


def test_action_specs():
    env = envpool.make_dm("MountainCar-v0")
    spec = env.action_spec()
    assert isinstance(spec, specs.DiscreteArray)
    assert spec.num_values == 3
    env.close()
    env = envpool.make_dm("Pendulum-v1")
    spec = env.action_spec()
    assert isinstance(spec, specs.BoundedArray)
    assert spec.shape == (1,)
    np.testing.assert_array_equal(spec.minimum, [-2.0])
    np.testing.assert_array_equal(spec.maximum, [2.0])
    env.close()


def test_termination_gives_last_with_discount_zero_then_first():
    env = envpool.make_dm("CartPole-v1", num_envs=2)
    try:
        env.reset(seed=0)
        actions = np.array([1, 0])
        for _ in range(100):
            actions[1] = 1 - actions[1]
            ts = env.step(actions)
            if ts.step_type[0] == LAST:
                break
            assert ts.step_type[0] == MID and ts.discount[0] == 1.0
        else:
            pytest.fail("CartPole pushed right never terminated")
        assert ts.discount[0] == 0.0
        assert ts.reward[0] == 1.0
        assert ts.step_type[1] == MID and ts.discount[1] == 1.0
        ts = env.step(actions)
        assert ts.step_type[0] == FIRST
        assert ts.observation["elapsed_step"][0] == 0
        assert ts.reward[0] == 0.0
        assert ts.step_type[1] == MID
        ts = env.step(actions)
        assert ts.step_type[0] == MID and ts.observation["elapsed_step"][0] == 1
    finally:
        env.close()


def test_truncation_gives_last_with_discount_one():
    env = envpool.make_dm("Pendulum-v1", num_envs=2, max_episode_steps=3)
    zero = np.zeros((2, 1), np.float32)
    try:
        env.reset(seed=0)
        types = []
        for _ in range(5):
            ts = env.step(zero)
            types.append(ts.step_type.tolist())
            if ts.last().all():
                np.testing.assert_array_equal(ts.discount, [1.0, 1.0])
                assert np.all(ts.reward != 0.0)
        assert types == [[MID, MID], [MID, MID], [LAST, LAST], [FIRST, FIRST], [MID, MID]]
    finally:
        env.close()


def test_reset_seed_reproduces():
    env = envpool.make_dm("Acrobot-v1", num_envs=3)
    one = envpool.make_dm("Acrobot-v1", num_envs=1)
    try:
        a = env.reset(seed=8).observation["obs"]
        env.step(np.zeros(3, np.int64))
        b = env.reset(seed=8).observation["obs"]
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a[2], one.reset(seed=10).observation["obs"][0])
    finally:
        env.close()
        one.close()


def test_step_subset_in_sync_mode():
    env = envpool.make_dm("CartPole-v1", num_envs=3)
    try:
        env.reset(seed=0)
        ts = env.step(np.array([1, 0]), env_id=[2, 0])
        np.testing.assert_array_equal(ts.observation["env_id"], [2, 0])
        np.testing.assert_array_equal(ts.step_type, [MID, MID])
    finally:
        env.close()


def test_async_send_recv():
    env = envpool.make_dm("Pendulum-v1", num_envs=4, batch_size=2)
    try:
        env.async_reset()
        seen = set()
        for _ in range(2):
            ts = call_with_timeout(env.recv)
            assert ts.first().all()
            seen.update(ts.observation["env_id"].tolist())
        assert seen == {0, 1, 2, 3}
        env.send(np.zeros((4, 1), np.float32), env_id=[0, 1, 2, 3])
        for _ in range(2):
            ts = call_with_timeout(env.recv)
            assert ts.mid().all()
            np.testing.assert_array_equal(ts.observation["elapsed_step"], [1, 1])
        with pytest.raises(envpool.CallOrderError):
            call_with_timeout(env.recv)
    finally:
        env.close()


def test_errors_and_close():
    env = envpool.make_dm("CartPole-v1", num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(np.array([0, 5]))
    with pytest.raises(TypeError):
        env.step(np.array([0.0, 1.0]))
    with pytest.raises(IndexError):
        env.step(np.array([0]), env_id=[2])
    ts = env.step(np.array([0, 1]))
    np.testing.assert_array_equal(ts.observation["elapsed_step"], [1, 1])
    env.close()
    env.close()
    with pytest.raises(envpool.CallOrderError):
        env.step(np.array([0, 1]))
    with pytest.raises(envpool.CallOrderError):
        env.reset()
