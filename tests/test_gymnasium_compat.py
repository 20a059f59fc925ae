"""The gymnasium front end is a real gymnasium.vector.VectorEnv: spaces,
metadata, and gymnasium's own vector wrappers working on it unchanged."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers import vector as vw

import envpool


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1", "MountainCarContinuous-v0"])
def test_vector_env_attributes(task_id):
    with envpool.make(task_id, num_envs=3) as env:
        assert isinstance(env, gym.vector.VectorEnv)
        assert env.unwrapped is env
        assert env.num_envs == 3
        assert env.observation_space == batch_space(env.single_observation_space, 3)
        assert env.action_space == batch_space(env.single_action_space, 3)
        obs, info = env.reset(seed=0)
        assert env.observation_space.contains(obs)
        assert isinstance(info, dict)
        env.action_space.seed(0)
        for _ in range(5):
            obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
            assert env.observation_space.contains(obs)
            assert isinstance(info, dict)
            assert all(isinstance(v, (np.ndarray, dict)) for v in info.values())


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("next_step", AutoresetMode.NEXT_STEP),
        ("same_step", AutoresetMode.SAME_STEP),
        ("disabled", AutoresetMode.DISABLED),
        (AutoresetMode.SAME_STEP, AutoresetMode.SAME_STEP),
    ],
)
def test_metadata_autoreset_mode(mode, expected):
    with envpool.make("CartPole-v1", num_envs=2, autoreset_mode=mode) as env:
        assert isinstance(env.metadata["autoreset_mode"], AutoresetMode)
        assert env.metadata["autoreset_mode"] is expected


def test_default_autoreset_mode_is_next_step():
    with envpool.make("CartPole-v1") as env:
        assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def _manual_episode_stats(rewards, dones, mode):
    """(return, length) of every finished episode, per env, the gymnasium way."""
    n = rewards.shape[1]
    ret, length, skip = np.zeros(n), np.zeros(n, int), np.zeros(n, bool)
    out = []
    for r, d in zip(rewards, dones, strict=True):
        if mode == "next_step":
            ret[skip], length[skip] = 0.0, 0
            ret[~skip] += r[~skip]
            length[~skip] += 1
        else:
            ret += r
            length += 1
        out.append([(ret[i], length[i]) if d[i] else None for i in range(n)])
        if mode == "same_step":
            ret[d], length[d] = 0.0, 0
        skip = d.copy()
    return out


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_record_episode_statistics(mode):
    env = vw.RecordEpisodeStatistics(
        envpool.make("CartPole-v1", num_envs=3, max_episode_steps=20, autoreset_mode=mode)
    )
    try:
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        rewards, dones, infos = [], [], []
        for _ in range(80):
            _, reward, terminated, truncated, info = env.step(rng.integers(0, 2, 3))
            rewards.append(reward)
            dones.append(terminated | truncated)
            infos.append(info)
        expected = _manual_episode_stats(np.array(rewards), np.array(dones), mode)
        finished = 0
        for info, exp, done in zip(infos, expected, dones, strict=True):
            if not done.any():
                assert "episode" not in info
                continue
            np.testing.assert_array_equal(info["_episode"], done)
            for i in np.flatnonzero(done):
                finished += 1
                assert info["episode"]["r"][i] == exp[i][0]
                assert info["episode"]["l"][i] == exp[i][1]
                assert 1 <= exp[i][1] <= 20
        assert finished >= 5
        assert len(env.return_queue) > 0
    finally:
        env.close()


def test_normalize_observation_and_reward_wrappers():
    raw = envpool.make("Pendulum-v1", num_envs=4)
    env = vw.NormalizeReward(vw.NormalizeObservation(raw))
    env.reset(seed=0)
    for _ in range(50):
        obs, reward, *_ = env.step(env.action_space.sample())
        assert obs.shape == (4, 3) and np.all(np.isfinite(obs))
        assert reward.shape == (4,) and np.all(np.isfinite(reward))
    assert env.env.obs_rms.count > 50
    # Normalised observations are roughly centred.
    assert np.all(np.abs(obs.mean(0)) < 5)
    env.close()
    assert raw.closed


def test_clip_reward_clip_action_rescale_action():
    env = vw.ClipReward(
        vw.ClipAction(envpool.make("Pendulum-v1", num_envs=2)), min_reward=-1.0, max_reward=-0.5
    )
    env.reset(seed=0)
    for _ in range(10):
        _, reward, *_ = env.step(np.array([[5.0], [-5.0]], np.float32))
        assert np.all(reward >= -1.0) and np.all(reward <= -0.5)
    env.close()
    env = vw.RescaleAction(
        envpool.make("MountainCarContinuous-v0", num_envs=2),
        min_action=np.float32(0.0),
        max_action=np.float32(1.0),
    )
    env.reset(seed=0)
    obs, *_ = env.step(np.array([[1.0], [0.0]], np.float32))
    assert obs.shape == (2, 2)
    env.close()


def test_observation_transform_wrappers():
    env = vw.DtypeObservation(envpool.make("CartPole-v1", num_envs=2), np.float64)
    obs, _ = env.reset(seed=0)
    assert obs.dtype == np.float64
    obs, *_ = env.step(np.array([0, 1]))
    assert obs.dtype == np.float64 and obs.shape == (2, 4)
    env.close()
    env = vw.TransformObservation(envpool.make("CartPole-v1", num_envs=2), lambda o: o * 2, None)
    with envpool.make("CartPole-v1", num_envs=2) as ref:
        ref_obs, _ = ref.reset(seed=0)
        obs, _ = env.reset(seed=0)
        np.testing.assert_array_equal(obs, ref_obs * 2)
    env.close()


def test_dict_info_to_list():
    env = vw.DictInfoToList(envpool.make("CartPole-v1", num_envs=3))
    _, infos = env.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 3
    assert [int(i["env_id"]) for i in infos] == [0, 1, 2]
    _, _, _, _, infos = env.step(np.array([0, 1, 0]))
    assert [int(i["elapsed_step"]) for i in infos] == [1, 1, 1]
    env.close()


def test_wrapper_stack_in_same_step_mode():
    # (gymnasium's observation wrappers refuse same_step; reward wrappers work.)
    env = vw.RecordEpisodeStatistics(
        vw.ClipReward(
            envpool.make("Acrobot-v1", num_envs=2, max_episode_steps=5, autoreset_mode="same_step"),
            min_reward=-0.5,
        )
    )
    env.reset(seed=0)
    for t in range(1, 11):
        _, reward, _, truncated, info = env.step(np.array([0, 2]))
        np.testing.assert_array_equal(reward, [-0.5, -0.5])
        if t % 5 == 0:
            assert truncated.all()
            np.testing.assert_array_equal(info["episode"]["l"], [5, 5])
            np.testing.assert_array_equal(info["episode"]["r"], [-2.5, -2.5])
            assert info["_final_obs"].all()
        else:
            assert not truncated.any()
    env.close()


def test_reset_takes_gymnasium_keywords_and_the_original_env_id():
    with envpool.make("CartPole-v1", num_envs=2) as env:
        obs, _ = env.reset(seed=0, options=None)
        assert obs.shape == (2, 4)
        only, info = env.reset(1)  # the original EnvPool's reset(env_id)
        assert only.shape == (1, 4)
        np.testing.assert_array_equal(info["env_id"], [1])
        assert obs.shape == (2, 4)
        with pytest.raises(TypeError):
            env.reset(options={"no_such_option": 1})


def test_np_random_seed_follows_every_seeded_reset():
    with envpool.make("CartPole-v1", num_envs=3, batch_size=1, seed=4) as env:
        assert env.np_random_seed == (4, 5, 6)
        env.async_reset(seed=10, env_id=[2, 0])
        assert env.np_random_seed == (10, 5, 12)
        with pytest.raises(TypeError, match="seed"):
            env.async_reset(seed="seven")
        assert env.np_random_seed == (10, 5, 12)
    with envpool.make_dm("CartPole-v1", num_envs=2) as dm:
        dm.reset(seed=[None, 7])
        assert dm.np_random_seed == (0, 7)
