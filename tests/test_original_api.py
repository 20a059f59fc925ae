"""The original EnvPool's interface: the parts that agree with gymnasium's are always
there; the parts that conflict come with original_api=True (env_type="gym",
envpool.registration)."""

from __future__ import annotations

import dm_env
import gymnasium as gym
import numpy as np
import pytest

import envpool
import envpool.registration


def test_len_spec_config_and_is_vector_env():
    with envpool.make("CartPole-v1", num_envs=3, seed=7) as env:
        assert len(env) == 3
        assert env.is_vector_env is True
        assert env.spec.id == "CartPole-v1"
        assert env.spec.config.num_envs == 3 and env.spec.config["seed"] == 7
        assert env.config["num_envs"] == 3 and isinstance(env.config, dict)
        assert env.spec.max_episode_steps == 500
        assert env.spec.reward_threshold == gym.spec("CartPole-v1").reward_threshold
        with pytest.raises(AttributeError, match="no_such_key"):
            _ = env.spec.config.no_such_key
    spec = envpool.make_spec("Breakout-v5", num_envs=5, mode=4)
    assert spec.config.num_envs == 5 and spec.config.mode == 4
    assert "num_envs" not in spec.options and spec.options["mode"] == 4


@pytest.mark.parametrize("as_keyword", [False, True])
@pytest.mark.parametrize("ids", [[2, 0], np.array([2, 0], dtype=np.int64), (2, 0)])
def test_reset_env_id_returns_only_those_rows(ids, as_keyword):
    with envpool.make("CartPole-v1", num_envs=4, seed=0) as env:
        full, _ = env.reset(seed=0)
        for _ in range(3):
            stepped, *_ = env.step(np.ones(4, dtype=np.int64))
        obs, info = env.reset(env_id=ids, seed=0) if as_keyword else env.reset(ids, seed=0)
        assert obs.shape == (2, 4)
        np.testing.assert_array_equal(info["env_id"], [2, 0])
        np.testing.assert_array_equal(obs, full[[2, 0]])  # seed 0 gives env i seed 0 + i
        assert env.np_random_seed == (0, 1, 2, 3)
        # the other envs were not touched: a step continues their episodes
        nxt, *_, step_info = env.step(np.ones(4, dtype=np.int64))
        np.testing.assert_array_equal(step_info["elapsed_step"], [1, 4, 1, 4])
        assert not np.array_equal(nxt[1], full[1])


def test_step_with_env_id_and_bad_ids():
    with envpool.make("CartPole-v1", num_envs=3) as env:
        env.reset()
        obs, rew, *_, info = env.step(np.array([1, 0]), np.array([2, 1]))
        assert obs.shape == (2, 4) and rew.shape == (2,)
        np.testing.assert_array_equal(info["env_id"], [2, 1])
        with pytest.raises(IndexError, match="out of range"):
            env.reset(env_id=[3])
        with pytest.raises(TypeError, match="env_id"):
            env.reset(env_id=[0.5])
        with pytest.raises(ValueError, match="reset_mask"):
            env.reset(env_id=[0], options={"reset_mask": np.ones(3, bool)})
        assert env.reset()[0].shape == (3, 4)  # still usable


def test_dm_observation_reads_as_attributes_and_reset_env_id():
    with envpool.make_dm("CartPole-v1", num_envs=3) as env:
        ts = env.reset()
        assert ts.observation.obs is ts.observation["obs"]
        np.testing.assert_array_equal(ts.observation.env_id, [0, 1, 2])
        assert env.observation_spec().obs.shape == (4,)
        assert len(env) == 3
        part = env.reset([1])
        assert part.observation.obs.shape == (1, 4)
        np.testing.assert_array_equal(part.observation.env_id, [1])


def test_harmless_original_options_are_accepted():
    with envpool.make(
        "Pendulum-v1", num_envs=2, gym_reset_return_info=True, max_num_players=1
    ) as env:
        obs, info = env.reset()
        assert obs.shape == (2, 3) and "env_id" in info
        assert env.config.gym_reset_return_info is True
    with pytest.raises(ValueError, match="single-player"):
        envpool.make("Pendulum-v1", max_num_players=2)


def test_original_api_gym_pool():
    env = envpool.make("CartPole-v1", num_envs=3, original_api=True)
    assert (
        env.observation_space
        == env.single_observation_space
        == gym.spaces.Box(
            env.single_observation_space.low, env.single_observation_space.high, (4,), np.float32
        )
    )
    assert env.action_space == gym.spaces.Discrete(2)
    assert isinstance(env, gym.Env) and isinstance(env, gym.vector.VectorEnv)
    obs, info = env.reset()
    np.testing.assert_array_equal(info["players"]["env_id"], [0, 1, 2])
    obs, rew, term, trunc, info = env.step(np.ones(3))  # float actions are cast, as before
    assert rew.dtype == np.float32 and obs.shape == (3, 4)
    np.testing.assert_array_equal(info["players"]["env_id"], info["env_id"])
    with pytest.warns(UserWarning, match="seed"):
        env.seed(1)
    assert env.spec.action_spec().num_values == 2
    assert env.spec.observation_spec().obs.shape == (4,)
    env.close()


def test_env_type_gym_means_the_original_flavour():
    with envpool.make("CartPole-v1", env_type="gym", num_envs=2) as env:
        assert env.observation_space.shape == (4,)
    with envpool.make_gym("CartPole-v1", num_envs=2, original_api=False) as env:
        assert env.observation_space.shape == (2, 4)
    with envpool.make("CartPole-v1", num_envs=2) as env:
        assert env.observation_space.shape == (2, 4) and not isinstance(env, gym.Env)


def test_original_api_dm_pool_and_registration_module():
    env = envpool.registration.make_dm("Pong-v5", num_envs=2)
    ts = env.reset()
    assert ts.reward.dtype == np.float32 and ts.discount.dtype == np.float32
    np.testing.assert_array_equal(ts.observation.players.env_id, [0, 1])
    assert ts.observation.ram.shape == (2, 128)  # the original always reports the RAM
    assert isinstance(env, dm_env.Environment)
    env.close()
    spec = envpool.registration.make_spec("Pong-v5", num_envs=2)
    assert spec.config.num_envs == 2 and spec.config.include_ram is True
    assert spec.observation_spec().obs.dtype == np.uint8
    assert spec.action_spec().num_values == 6
    gym_env = envpool.registration.make_gym("Pong-v5", num_envs=2)
    assert gym_env.observation_space.shape == (4, 84, 84)
    assert gym_env.spec.config.zero_lives_ends_episode is False  # the original's rule
    gym_env.close()


def test_environment_variable_makes_original_api_the_default(monkeypatch):
    monkeypatch.setenv("ENVPOOL_ORIGINAL_API", "1")
    with envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2) as env:
        assert env.observation_space.shape == (4,)
    with envpool.make("CartPole-v1", num_envs=2, original_api=False) as env:
        assert env.observation_space.shape == (2, 4)


def test_original_api_atari_info_layout_and_array_specs():
    env = envpool.registration.make_gym("Pong-v5", num_envs=2)
    _, info = env.reset()
    assert set(info) == {
        "env_id",
        "players",
        "lives",
        "reward",
        "terminated",
        "ram",
        "elapsed_step",
    }
    _, _, _, _, info = env.step(np.zeros(2, np.int64))
    assert info["terminated"].dtype == np.int32  # the original's; 1 - terminated works
    spec = env.spec
    assert set(spec.action_array_spec) == {"env_id", "players.env_id", "action"}
    assert spec.action_array_spec["action"].maximum + 1 == 6
    assert spec.state_array_spec["info:ram"].dtype == np.uint8
    assert spec.state_array_spec["info:ram"].shape == [128]
    assert spec.observation_spec().obs.maximum == 255
    env.close()


@pytest.mark.parametrize("make", [envpool.registration.make_gym, envpool.registration.make_dm])
def test_original_api_dict_actions_need_the_original_dtypes(make):
    env = make("CartPole-v1", num_envs=3)
    env.reset()
    ids = np.array([2, 0], dtype=np.int32)
    wide = {"env_id": ids.astype(np.int64), "action": np.ones(2, np.int32)}
    with pytest.raises(RuntimeError, match="int32"):
        env.step(wide)
    with pytest.raises(ValueError, match="keys"):
        env.step({"actions": np.ones(2, np.int32)})
    result = env.step({"env_id": ids, "players.env_id": ids, "action": np.ones(2, np.int32)})
    env_ids = result.observation.env_id if hasattr(result, "observation") else result[4]["env_id"]
    np.testing.assert_array_equal(env_ids, [2, 0])
    env.close()
