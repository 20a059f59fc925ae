"""envpool.integrations.sb3: an envpool pool as a Stable-Baselines3 VecEnv.

SB3's check_env checks single gymnasium envs, not VecEnvs, so the VecEnv
contract is checked here directly: the step results and terminal observations
are replayed on single-env pools, and SB3's own wrappers and algorithms run on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import ale_py
import gymnasium as gym
import numpy as np
import pytest
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.env_util import make_atari_env
from stable_baselines3.common.evaluation import evaluate_policy
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.utils import set_random_seed
from stable_baselines3.common.vec_env import (
    VecEnv as SB3VecEnv,
)
from stable_baselines3.common.vec_env import (
    VecFrameStack,
    VecMonitor,
    VecNormalize,
    VecTransposeImage,
    VecVideoRecorder,
)

import envpool
from envpool.integrations.sb3 import VecEnv, make_vec_env

pytestmark = pytest.mark.integration
torch.set_num_threads(1)
gym.register_envs(ale_py)

SEED = 3
NUM_ENVS = 3
MAX_STEPS = 15


@pytest.fixture
def cartpole() -> Iterator[VecEnv]:
    venv = make_vec_env("CartPole-v1", NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS)
    yield venv
    venv.close()


def _random_actions(rng: np.random.Generator, n: int = NUM_ENVS) -> np.ndarray:
    return rng.integers(0, 2, n)


def test_is_an_sb3_vec_env_with_single_env_spaces(cartpole: VecEnv) -> None:
    assert isinstance(cartpole, SB3VecEnv)
    assert cartpole.num_envs == NUM_ENVS
    assert cartpole.observation_space == cartpole.pool.single_observation_space
    assert cartpole.observation_space.shape == (4,)  # one env's, not the batch's
    assert cartpole.action_space == gym.spaces.Discrete(2)


@pytest.mark.parametrize("mode", ["same_step", "next_step", "disabled"])
def test_steps_match_a_replay_on_single_env_pools(mode: str) -> None:
    """Env i of a pool made with seed s runs as a one-env pool made with seed s + i: each
    step's reward, done, TimeLimit.truncated, terminal_observation and first obs of the
    next episode must match that replay, whatever autoreset mode the wrapped pool has."""
    pool = envpool.make(
        "CartPole-v1",
        num_envs=NUM_ENVS,
        seed=SEED,
        max_episode_steps=MAX_STEPS,
        autoreset_mode=mode,
    )
    venv = VecEnv(pool)
    replays = [
        envpool.make("CartPole-v1", num_envs=1, seed=SEED + i, max_episode_steps=MAX_STEPS)
        for i in range(NUM_ENVS)
    ]
    rng = np.random.default_rng(0)
    seen = {"terminated": 0, "truncated": 0}
    obs = venv.reset()
    for i, replay in enumerate(replays):
        np.testing.assert_array_equal(obs[i], replay.reset()[0][0])
    for _ in range(120):
        actions = _random_actions(rng)
        obs, rewards, dones, infos = venv.step(actions)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        assert isinstance(infos, list) and len(infos) == NUM_ENVS
        for i, replay in enumerate(replays):
            r_obs, r_reward, r_term, r_trunc, _ = replay.step(actions[i : i + 1])
            assert rewards[i] == r_reward[0]
            assert dones[i] == (r_term[0] or r_trunc[0])
            assert infos[i]["TimeLimit.truncated"] == (r_trunc[0] and not r_term[0])
            if dones[i]:
                seen["terminated" if r_term[0] else "truncated"] += 1
                np.testing.assert_array_equal(infos[i]["terminal_observation"], r_obs[0])
                r_obs = replay.step(np.zeros(1, dtype=np.int64))[0]  # the replay resets
            else:
                assert "terminal_observation" not in infos[i]
            np.testing.assert_array_equal(obs[i], r_obs[0])
    assert seen["terminated"] > 0 and seen["truncated"] > 0
    venv.close()


def test_terminal_observation_is_the_pools_final_obs() -> None:
    """With a same_step pool, the VecEnv hands over the pool's own final_obs rows."""
    wrapped = make_vec_env("CartPole-v1", NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS)
    reference = envpool.make(
        "CartPole-v1",
        num_envs=NUM_ENVS,
        seed=SEED,
        max_episode_steps=MAX_STEPS,
        autoreset_mode="same_step",
    )
    np.testing.assert_array_equal(wrapped.reset(), reference.reset()[0])
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(60):
        actions = _random_actions(rng)
        obs, _, dones, infos = wrapped.step(actions)
        r_obs, _, r_term, r_trunc, r_info = reference.step(actions)
        np.testing.assert_array_equal(obs, r_obs)
        np.testing.assert_array_equal(dones, r_term | r_trunc)
        for i in np.flatnonzero(dones):
            ended += 1
            assert r_info["_final_obs"][i]
            np.testing.assert_array_equal(infos[i]["terminal_observation"], r_info["final_obs"][i])
    assert ended > 0
    wrapped.close()
    reference.close()


def test_terminal_observation_survives_later_steps(cartpole: VecEnv) -> None:
    cartpole.reset()
    rng = np.random.default_rng(2)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(60):
        _, _, dones, infos = cartpole.step(_random_actions(rng))
        for i in np.flatnonzero(dones):
            terminal = infos[i]["terminal_observation"]
            kept.append((terminal, terminal.copy()))
    assert kept
    for terminal, copy in kept:
        np.testing.assert_array_equal(terminal, copy)


def test_pools_with_the_original_envpool_api_step_the_same() -> None:
    ours = make_vec_env("CartPole-v1", NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS)
    original = VecEnv(
        envpool.make_gym("CartPole-v1", num_envs=NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS)
    )
    assert original.observation_space == ours.observation_space
    np.testing.assert_array_equal(original.reset(), ours.reset())
    rng = np.random.default_rng(6)
    for _ in range(40):
        actions = _random_actions(rng)
        for a, b in zip(original.step(actions)[:3], ours.step(actions)[:3], strict=True):
            np.testing.assert_array_equal(a, b)
    ours.close()
    original.close()


def test_seed_applies_to_the_next_reset_only(cartpole: VecEnv) -> None:
    assert cartpole.seed(7) == [7, 8, 9]
    first = cartpole.reset()
    expected = envpool.make("CartPole-v1", num_envs=NUM_ENVS, seed=7).reset()[0]
    np.testing.assert_array_equal(first, expected)
    unseeded = cartpole.reset()  # each env's stream goes on
    assert not np.array_equal(unseeded, first)
    cartpole.seed(7)
    np.testing.assert_array_equal(cartpole.reset(), first)


def test_runs_with_the_same_seed_are_identical() -> None:
    def rollout() -> list[np.ndarray]:
        venv = make_vec_env("CartPole-v1", NUM_ENVS, max_episode_steps=MAX_STEPS)
        venv.seed(11)
        seen = [venv.reset()]
        rng = np.random.default_rng(0)
        for _ in range(40):
            obs, rewards, dones, _ = venv.step(_random_actions(rng))
            seen += [obs, rewards, dones]
        venv.close()
        return seen

    for a, b in zip(rollout(), rollout(), strict=True):
        np.testing.assert_array_equal(a, b)


def test_reset_options_are_refused(cartpole: VecEnv) -> None:
    cartpole.set_options({"low": -0.1})
    with pytest.raises(ValueError, match=r"envpool\.make"):
        cartpole.reset()
    cartpole.set_options(None)
    assert cartpole.reset().shape == (NUM_ENVS, 4)


def test_info_keys_come_from_the_step_that_ended_the_episode() -> None:
    venv = make_vec_env(
        "CartPole-v1", NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS, info_keys=["elapsed_step"]
    )
    venv.reset()
    assert [info["elapsed_step"] for info in venv.reset_infos] == [0] * NUM_ENVS
    lengths = np.zeros(NUM_ENVS, dtype=int)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(50):
        _, _, dones, infos = venv.step(_random_actions(rng))
        lengths += 1
        for i in range(NUM_ENVS):
            assert infos[i]["elapsed_step"] == lengths[i]
        for i in np.flatnonzero(dones):
            ended += 1
            assert venv.reset_infos[i]["elapsed_step"] == 0
            lengths[i] = 0
    assert ended > 0
    venv.close()


def test_get_attr_env_method_and_env_is_wrapped() -> None:
    venv = make_vec_env("Pong-v5", 2, render_mode="rgb_array", info_keys=("lives",))
    assert venv.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    assert venv.render_mode == "rgb_array"
    assert [spec.id for spec in venv.get_attr("spec", indices=1)] == ["Pong-v5"]
    assert venv.get_attr("action_space") == [gym.spaces.Discrete(6)] * 2
    assert venv.has_attr("metadata") and not venv.has_attr("ale")
    with pytest.raises(AttributeError, match="get_attr supports"):
        venv.get_attr("ale")
    with pytest.raises(AttributeError, match=r"envpool\.make"):
        venv.set_attr("frame_skip", 2)
    with pytest.raises(AttributeError, match="supports 'render' with no arguments"):
        venv.env_method("seed", 1)
    assert venv.env_is_wrapped(Monitor) == [False, False]
    venv.reset()
    frames = venv.get_images()
    assert len(frames) == 2 and frames[0].shape == (210, 160, 3)
    (frame,) = venv.env_method("render", indices=[1])
    np.testing.assert_array_equal(frame, frames[1])
    _, _, _, infos = venv.step(np.zeros(2, dtype=np.int64))
    assert [info["lives"] for info in infos] == [0, 0]  # Pong has no lives
    venv.close()


def test_render_tiles_every_envs_frame() -> None:
    venv = make_vec_env("Pong-v5", 3, seed=0, render_mode="rgb_array")
    venv.reset()
    for _ in range(30):  # move away from the identical first frames
        venv.step(np.random.default_rng(0).integers(0, 6, 3))
    frames = venv.get_images()
    tiled = venv.render()
    assert tiled.shape == (2 * 210, 2 * 160, 3) and tiled.dtype == np.uint8
    np.testing.assert_array_equal(tiled[:210, :160], frames[0])
    np.testing.assert_array_equal(tiled[:210, 160:], frames[1])
    np.testing.assert_array_equal(tiled[210:, :160], frames[2])
    assert not tiled[210:, 160:].any()  # the fourth tile is blank
    venv.close()


def test_vec_video_recorder_writes_a_video(tmp_path: Path) -> None:
    pytest.importorskip("moviepy")  # VecVideoRecorder writes the file with it
    venv = VecVideoRecorder(
        make_vec_env("Pong-v5", 2, seed=0, render_mode="rgb_array"),
        str(tmp_path),
        record_video_trigger=lambda step: step == 0,
        video_length=5,
    )
    assert venv.frames_per_sec == venv.unwrapped.pool.metadata["render_fps"]
    venv.reset()
    for _ in range(8):
        venv.step(np.zeros(2, dtype=np.int64))
    venv.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 0


def test_render_without_render_mode_warns_and_gives_none(cartpole: VecEnv) -> None:
    cartpole.reset()
    with pytest.warns(UserWarning, match="render_mode"):
        assert cartpole.render() is None
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        cartpole.get_images()


def test_pools_it_cannot_wrap_are_refused() -> None:
    async_pool = envpool.make("CartPole-v1", num_envs=4, batch_size=2)
    with async_pool, pytest.raises(ValueError, match="batch_size"):
        VecEnv(async_pool)
    dm_pool = envpool.make_dm("CartPole-v1", num_envs=2)
    with dm_pool, pytest.raises(ValueError, match="env_type='gymnasium'"):
        VecEnv(dm_pool)
    with pytest.raises(ValueError, match="batch_size"):
        make_vec_env("CartPole-v1", 4, batch_size=2)
    with pytest.raises(ValueError, match="info_keys"):
        make_vec_env("CartPole-v1", 2, info_keys=["lives"])
    pool = envpool.make("CartPole-v1", num_envs=2)
    pool.close()
    with pytest.raises(ValueError, match="closed"):
        VecEnv(pool)
    with pytest.raises(ValueError, match="flat_observation=True"):
        make_vec_env("Blackjack-v1", 2)
    # MiniGrid's default observation holds the mission as a Text, which SB3's policies
    # cannot take (SB3 itself raises NotImplementedError deep inside): named, with the
    # obs_mode that trains
    with pytest.raises(ValueError, match="Text observation space, and key 'mission'") as raised:
        make_vec_env("MiniGrid-Empty-5x5-v0", 2)
    assert "obs_mode='image'" in str(raised.value) and "obs_mode='flat'" in str(raised.value)
    vec = make_vec_env("MiniGrid-Empty-5x5-v0", 2, obs_mode="image")
    assert vec.reset().shape == (2, 7, 7, 3)
    vec.close()


def test_blackjack_runs_with_its_flat_observation() -> None:
    venv = make_vec_env("Blackjack-v1", 2, flat_observation=True)
    try:
        obs = venv.reset()
        assert obs.shape == (2, 3)
        obs, reward, _, _ = venv.step(np.ones(2, dtype=np.int64))
        assert obs.shape == (2, 3) and reward.shape == (2,)
    finally:
        venv.close()


def test_vec_monitor_reports_each_episode(cartpole: VecEnv) -> None:
    venv = VecMonitor(cartpole)
    venv.reset()
    returns = np.zeros(NUM_ENVS)
    lengths = np.zeros(NUM_ENVS, dtype=int)
    rng = np.random.default_rng(4)
    episodes = []
    for _ in range(60):
        _, rewards, dones, infos = venv.step(_random_actions(rng))
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            episode = infos[i]["episode"]
            assert episode["r"] == pytest.approx(returns[i]) and episode["l"] == lengths[i]
            episodes.append(episode["l"])
            returns[i], lengths[i] = 0, 0
    assert episodes and max(episodes) == MAX_STEPS


def test_vec_normalize_normalizes_obs_and_terminal_obs(cartpole: VecEnv) -> None:
    plain = make_vec_env("CartPole-v1", NUM_ENVS, seed=SEED, max_episode_steps=MAX_STEPS)
    venv = VecNormalize(cartpole, norm_reward=True, gamma=0.99)
    obs = venv.reset()
    np.testing.assert_array_equal(venv.get_original_obs(), plain.reset())
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(40):
        actions = _random_actions(rng)
        obs, rewards, dones, infos = venv.step(actions)
        p_obs, p_rewards, _, p_infos = plain.step(actions)
        np.testing.assert_array_equal(venv.get_original_obs(), p_obs)
        np.testing.assert_array_equal(venv.get_original_reward(), p_rewards)
        np.testing.assert_allclose(obs, venv.normalize_obs(p_obs), rtol=1e-6)
        assert not np.allclose(obs, p_obs)
        for i in np.flatnonzero(dones):
            ended += 1
            np.testing.assert_allclose(
                infos[i]["terminal_observation"],
                venv.normalize_obs(p_infos[i]["terminal_observation"]),
                rtol=1e-6,
            )
    assert ended > 0
    assert venv.obs_rms.count == pytest.approx(1e-4 + NUM_ENVS * 41)
    plain.close()


def test_vec_frame_stack_matches_envpools_own_frame_stack() -> None:
    """SB3 starts a stack with blank frames where envpool repeats the first frame:
    after three steps the two stacks hold the same frames."""
    stacked_by_envpool = make_vec_env("Pong-v5", 2, seed=1)
    stacked_by_sb3 = VecFrameStack(
        make_vec_env("Pong-v5", 2, seed=1, stack_num=1), n_stack=4, channels_order="first"
    )
    assert stacked_by_sb3.observation_space == stacked_by_envpool.observation_space
    ours, theirs = stacked_by_envpool.reset(), stacked_by_sb3.reset()
    np.testing.assert_array_equal(ours[:, -1], theirs[:, -1])
    assert not theirs[:, :-1].any()
    rng = np.random.default_rng(0)
    for t in range(8):
        actions = rng.integers(0, 6, 2)
        ours = stacked_by_envpool.step(actions)[0]
        theirs = stacked_by_sb3.step(actions)[0]
        np.testing.assert_array_equal(ours[:, -1 - min(t, 3) :], theirs[:, -1 - min(t, 3) :])
    np.testing.assert_array_equal(ours, theirs)
    stacked_by_envpool.close()
    stacked_by_sb3.close()


def test_channels_last_composes_with_vec_frame_stack_and_vec_transpose_image() -> None:
    """SB3's usual image pipeline, VecFrameStack then VecTransposeImage, over channel-last
    frames gives the same stacks as envpool's own frame stack (after SB3's blank start)."""
    stacked_by_envpool = make_vec_env("Pong-v5", 2, seed=1)
    single = make_vec_env("Pong-v5", 2, seed=1, stack_num=1, channels_last=True)
    assert single.observation_space.shape == (84, 84, 1)
    pipeline = VecTransposeImage(VecFrameStack(single, n_stack=4))
    assert pipeline.observation_space == stacked_by_envpool.observation_space
    ours, theirs = stacked_by_envpool.reset(), pipeline.reset()
    np.testing.assert_array_equal(ours[:, -1], theirs[:, -1])
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = rng.integers(0, 6, 2)
        ours = stacked_by_envpool.step(actions)[0]
        theirs = pipeline.step(actions)[0]
    np.testing.assert_array_equal(ours, theirs)
    first = single.reset()
    assert first.shape == (2, 84, 84, 1) and first.flags.c_contiguous
    with pytest.raises(ValueError, match="channels_last"):
        make_vec_env("CartPole-v1", 2, channels_last=True)
    model = PPO(
        "CnnPolicy",
        VecFrameStack(single, n_stack=4),
        n_steps=16,
        batch_size=16,
        n_epochs=1,
        device="cpu",
    )
    assert isinstance(model.get_env(), VecTransposeImage)  # SB3 adds it itself
    model.learn(32)
    stacked_by_envpool.close()
    pipeline.close()


def test_atari_frames_match_sb3_atari_pipeline_after_vec_transpose_image(
    tmp_path: Path,
) -> None:
    """envpool's Atari frames are channel-first already: SB3's own pipeline (AtariWrapper,
    VecFrameStack, then VecTransposeImage) ends with the same space, so a PPO model saved
    from that pipeline loads and trains on envpool."""
    sb3_pipeline = VecFrameStack(
        make_atari_env(
            "ALE/Pong-v5",
            n_envs=1,
            seed=0,
            env_kwargs={"frameskip": 1, "repeat_action_probability": 0.0},
        ),
        n_stack=4,
    )
    model = PPO("CnnPolicy", sb3_pipeline, n_steps=16, batch_size=16, n_epochs=1, device="cpu")
    assert isinstance(model.get_env(), VecTransposeImage)
    ours = make_vec_env("Pong-v5", 2, seed=0, episodic_life=True, reward_clip=True)
    assert model.get_env().observation_space == ours.observation_space
    with pytest.raises(AssertionError, match="channel last"):
        VecTransposeImage(ours)  # already channel-first: make it with channels_last=True
    model.save(tmp_path / "pong_model")
    loaded = PPO.load(tmp_path / "pong_model", env=ours, device="cpu")
    assert loaded.get_env() is ours
    loaded.learn(32)
    assert loaded.num_timesteps >= 32
    sb3_pipeline.close()
    ours.close()


def test_ppo_cnn_policy_runs_on_pong() -> None:
    venv = VecMonitor(make_vec_env("Pong-v5", 4, seed=0, episodic_life=True, reward_clip=True))
    model = PPO("CnnPolicy", venv, n_steps=64, batch_size=128, n_epochs=1, seed=0, device="cpu")
    assert model.get_env().unwrapped is venv.unwrapped  # no VecTransposeImage added
    model.learn(300)
    assert model.num_timesteps >= 300
    venv.close()


def test_ppo_runs_on_continuous_actions() -> None:
    venv = make_vec_env("Pendulum-v1", 2, seed=0)
    model = PPO("MlpPolicy", venv, n_steps=32, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    assert model.num_timesteps >= 64
    venv.close()


def _linear(start: float) -> Callable[[float], float]:
    return lambda progress_remaining: progress_remaining * start


def test_ppo_solves_cartpole_within_100k_steps() -> None:
    """rl-baselines3-zoo's CartPole-v1 PPO hyperparameters, 8 envs, fixed seed."""
    set_random_seed(0)
    venv = make_vec_env("CartPole-v1", 8, seed=0)
    model = PPO(
        "MlpPolicy",
        venv,
        n_steps=32,
        batch_size=256,
        gae_lambda=0.8,
        gamma=0.98,
        n_epochs=20,
        ent_coef=0.0,
        learning_rate=_linear(1e-3),
        clip_range=_linear(0.2),
        seed=0,
        device="cpu",
    )
    model.learn(100_000)
    eval_env = VecMonitor(make_vec_env("CartPole-v1", 4, seed=1000))
    mean_return, _ = evaluate_policy(model, eval_env, n_eval_episodes=20, deterministic=True)
    assert mean_return >= 475
    venv.close()
    eval_env.close()
