"""Autoreset modes ("next_step", "same_step", "disabled") and the time limit.

The flag and info semantics are checked against gymnasium's own
SyncVectorEnv running gymnasium's CartPole with the same autoreset mode; the
envpool start state of every episode (info["state"]) is injected into the
gymnasium env so both run the same episodes.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from conftest import assert_steps_ok

import envpool

pytestmark = pytest.mark.asan

NUM_ENVS = 3
MAX_STEPS = 15
NUM_STEPS = 80
GYM_MODES = {
    "next_step": gym.vector.AutoresetMode.NEXT_STEP,
    "same_step": gym.vector.AutoresetMode.SAME_STEP,
    "disabled": gym.vector.AutoresetMode.DISABLED,
}


def _reference(mode: str) -> gym.vector.SyncVectorEnv:
    return gym.vector.SyncVectorEnv(
        [lambda: gym.make("CartPole-v1", max_episode_steps=MAX_STEPS)] * NUM_ENVS,
        autoreset_mode=GYM_MODES[mode],
    )


def _inject(ref: gym.vector.SyncVectorEnv, i: int, state: np.ndarray) -> None:
    ref.envs[i].unwrapped.state = np.array(state, dtype=np.float64)


def _actions(rng: np.random.Generator) -> np.ndarray:
    # Mostly pushing right: some episodes fall over before the time limit.
    return (rng.random(NUM_ENVS) < 0.8).astype(np.int64)


def _elapsed(ref: gym.vector.SyncVectorEnv, i: int) -> int:
    return ref.envs[i].get_wrapper_attr("_elapsed_steps")


def _assert_close(actual: np.ndarray, expected: np.ndarray) -> None:
    np.testing.assert_allclose(actual, expected, rtol=0, atol=1e-5)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_flags_and_infos_match_gymnasium_sync_vector_env(mode):
    env = envpool.make(
        "CartPole-v1", num_envs=NUM_ENVS, max_episode_steps=MAX_STEPS, autoreset_mode=mode
    )
    ref = _reference(mode)
    rng = np.random.default_rng(0)
    seen = {"terminated": 0, "truncated": 0, "reset": 0}
    try:
        obs, info = env.reset(seed=11)
        ref.reset(seed=11)
        for i in range(NUM_ENVS):
            _inject(ref, i, info["state"][i])
        step_elapsed = info["elapsed_step"].copy()
        for _ in range(NUM_STEPS):
            actions = _actions(rng)
            obs, reward, terminated, truncated, info = env.step(actions)
            r_obs, r_reward, r_terminated, r_truncated, r_info = ref.step(actions)
            np.testing.assert_array_equal(terminated, r_terminated)
            np.testing.assert_array_equal(truncated, r_truncated)
            np.testing.assert_array_equal(reward, r_reward)
            seen["terminated"] += int(terminated.sum())
            seen["truncated"] += int(truncated.sum())
            prev_elapsed, step_elapsed = step_elapsed, info["elapsed_step"].copy()

            if mode == "next_step":
                # gymnasium reset exactly these envs in this step.
                reset_rows = info["elapsed_step"] == 0
                for i in range(NUM_ENVS):
                    if reset_rows[i]:
                        seen["reset"] += 1
                        _inject(ref, i, info["state"][i])
                        _assert_close(obs[i], info["state"][i].astype(np.float32))
                    else:
                        _assert_close(obs[i], r_obs[i])
                    assert info["elapsed_step"][i] == _elapsed(ref, i)
            elif mode == "same_step":
                ended = terminated | truncated
                np.testing.assert_array_equal(info["_final_obs"], ended)
                np.testing.assert_array_equal(info["_final_info"], ended)
                if ended.any():
                    np.testing.assert_array_equal(r_info["_final_obs"], ended)
                for i in range(NUM_ENVS):
                    if ended[i]:
                        seen["reset"] += 1
                        _assert_close(info["final_obs"][i], r_info["final_obs"][i])
                        # gymnasium has already reset its env: its step count is 0.
                        assert info["final_info"]["elapsed_step"][i] == prev_elapsed[i] + 1
                        assert info["elapsed_step"][i] == 0 == _elapsed(ref, i)
                        _inject(ref, i, info["state"][i])
                        _assert_close(obs[i], info["state"][i].astype(np.float32))
                    else:
                        _assert_close(obs[i], r_obs[i])
                        assert info["elapsed_step"][i] == _elapsed(ref, i)
            else:
                for i in range(NUM_ENVS):
                    _assert_close(obs[i], r_obs[i])
                    assert info["elapsed_step"][i] == _elapsed(ref, i)
                ended = terminated | truncated
                if ended.any():
                    seen["reset"] += int(ended.sum())
                    obs, info = env.reset(options={"reset_mask": ended.copy()})
                    r_obs, _ = ref.reset(options={"reset_mask": ended.copy()})
                    for i in range(NUM_ENVS):
                        if ended[i]:
                            _inject(ref, i, info["state"][i])
                            assert info["elapsed_step"][i] == 0
                        else:
                            # Envs outside the mask keep their current obs.
                            _assert_close(obs[i], r_obs[i])
        # The run must have exercised both kinds of episode end.
        assert seen["terminated"] >= 2 and seen["truncated"] >= 2, seen
        assert seen["reset"] >= 4, seen
    finally:
        env.close()
        ref.close()


def test_next_step_reset_step_ignores_action():
    zero = np.zeros((2, 1), np.float32)
    a = envpool.make("Pendulum-v1", num_envs=2, max_episode_steps=3)
    b = envpool.make("Pendulum-v1", num_envs=2, max_episode_steps=3)
    try:
        a.reset(seed=0)
        b.reset(seed=0)
        for _ in range(3):
            a.step(zero)
            _, _, _, truncated, _ = b.step(zero)
        assert truncated.all()
        # The reset step: the actions differ but must be ignored.
        obs_a, rew_a, term_a, trunc_a, info_a = a.step(np.full((2, 1), 2.0, np.float32))
        obs_b, rew_b, term_b, trunc_b, info_b = b.step(np.full((2, 1), -2.0, np.float32))
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(rew_a, [0.0, 0.0])
        np.testing.assert_array_equal(rew_b, [0.0, 0.0])
        assert not (term_a.any() or trunc_a.any() or term_b.any() or trunc_b.any())
        np.testing.assert_array_equal(info_a["elapsed_step"], [0, 0])
        np.testing.assert_array_equal(info_b["elapsed_step"], [0, 0])
        # And the episodes go on identically.
        for _ in range(2):
            np.testing.assert_array_equal(a.step(zero)[0], b.step(zero)[0])
    finally:
        a.close()
        b.close()


def test_next_step_only_resets_the_env_that_ended():
    # CartPole pushed right falls over; the env pushed left/right alternately
    # keeps going, and must not be reset along with it.
    with envpool.make("CartPole-v1", num_envs=2) as env:
        env.reset(seed=0)
        actions = np.array([1, 0])
        for t in range(1, 60):
            actions[1] = t % 2
            _, reward, terminated, _, info = env.step(actions)
            if terminated[0]:
                break
        else:
            pytest.fail("CartPole pushed right for 60 steps never terminated")
        assert not terminated[1]
        elapsed_before = info["elapsed_step"].copy()
        actions[1] = (t + 1) % 2
        _, reward, terminated, truncated, info = env.step(actions)
        assert info["elapsed_step"][0] == 0 and reward[0] == 0.0
        assert info["elapsed_step"][1] == elapsed_before[1] + 1 and reward[1] == 1.0


def test_same_step_final_fields_are_dense_and_zero_where_unmasked():
    zero = np.zeros((2, 1), np.float32)
    with envpool.make(
        "Pendulum-v1", num_envs=2, max_episode_steps=2, autoreset_mode="same_step"
    ) as env:
        obs, info = env.reset(seed=0)
        assert "final_obs" not in info or not info["_final_obs"].any()
        obs1, _, _, truncated, info = env.step(zero)
        assert not truncated.any()
        assert info["final_obs"].shape == obs1.shape
        assert info["final_obs"].dtype == obs1.dtype
        np.testing.assert_array_equal(info["_final_obs"], [False, False])
        np.testing.assert_array_equal(info["final_obs"], 0)
        np.testing.assert_array_equal(info["final_info"]["elapsed_step"], 0)
        np.testing.assert_array_equal(info["final_info"]["state"], 0)

        obs2, reward, terminated, truncated, info = env.step(zero)
        assert truncated.all() and not terminated.any()
        assert np.all(reward != 0.0)
        np.testing.assert_array_equal(info["_final_obs"], [True, True])
        np.testing.assert_array_equal(info["_final_info"], [True, True])
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0])
        np.testing.assert_array_equal(info["final_info"]["elapsed_step"], [2, 2])
        np.testing.assert_array_equal(info["final_info"]["_elapsed_step"], [True, True])
        # The final observation is the end of the episode, obs the new start.
        fin_th = info["final_info"]["state"][:, 0]
        np.testing.assert_allclose(info["final_obs"][:, 0], np.cos(fin_th), atol=1e-6)
        assert not np.array_equal(obs2, info["final_obs"])
        np.testing.assert_allclose(obs2[:, 0], np.cos(info["state"][:, 0]), atol=1e-6)


def test_same_step_in_async_mode():
    with envpool.make(
        "Pendulum-v1",
        num_envs=4,
        batch_size=2,
        max_episode_steps=2,
        autoreset_mode="same_step",
    ) as env:
        env.async_reset()
        counts = dict.fromkeys(range(4), 0)
        ended_rows = 0
        for _ in range(12):
            _, _, _, truncated, info = env.recv()
            ids = info["env_id"]
            for row, i in enumerate(ids.tolist()):
                k = counts[i]  # 0: the reset, then steps 1, 2, 3, ...
                ends = k > 0 and k % 2 == 0
                assert truncated[row] == ends
                assert info["_final_obs"][row] == ends
                assert info["elapsed_step"][row] == (0 if ends else k % 2)
                if ends:
                    ended_rows += 1
                    assert info["final_info"]["elapsed_step"][row] == 2
                    assert np.any(info["final_obs"][row] != 0)
                else:
                    np.testing.assert_array_equal(info["final_obs"][row], 0)
                counts[i] += 1
            env.send(np.zeros((2, 1), np.float32), env_id=ids)
        assert ended_rows >= 4


def test_same_step_agrees_with_next_step():
    # Same seeds and actions: same_step's final obs is next_step's last obs and
    # its reset obs is the one next_step returns a step later.
    zero = np.zeros((2, 1), np.float32)
    kwargs = {"num_envs": 2, "max_episode_steps": 3}
    nxt = envpool.make("Pendulum-v1", autoreset_mode="next_step", **kwargs)
    same = envpool.make("Pendulum-v1", autoreset_mode="same_step", **kwargs)
    try:
        nxt.reset(seed=9)
        same.reset(seed=9)
        for _ in range(2):
            np.testing.assert_array_equal(nxt.step(zero)[0], same.step(zero)[0])
        n_obs, n_rew, _, n_trunc, _ = nxt.step(zero)
        s_obs, s_rew, _, s_trunc, s_info = same.step(zero)
        assert n_trunc.all() and s_trunc.all()
        np.testing.assert_array_equal(n_rew, s_rew)
        np.testing.assert_array_equal(s_info["final_obs"], n_obs)
        reset_obs, *_ = nxt.step(zero)
        np.testing.assert_array_equal(s_obs, reset_obs)
    finally:
        nxt.close()
        same.close()


def test_disabled_requires_reset_of_ended_envs():
    zero = np.zeros((3, 1), np.float32)
    with envpool.make(
        "Pendulum-v1", num_envs=3, max_episode_steps=2, autoreset_mode="disabled"
    ) as env:
        # Never reset: stepping is a call-order error, not a silent reset.
        with pytest.raises(envpool.CallOrderError):
            env.step(zero)
        env.reset(seed=0)
        env.step(zero)
        last_obs, _, _, truncated, _ = env.step(zero)
        assert truncated.all()
        with pytest.raises(envpool.CallOrderError):
            env.step(zero)
        with pytest.raises(envpool.CallOrderError):
            env.step(zero[:1], env_id=[1])
        # The rejected calls changed nothing: the obs kept for unreset envs is
        # still the episode's last one.
        mask = np.array([True, False, True])
        obs, info = env.reset(options={"reset_mask": mask})
        np.testing.assert_array_equal(obs[1], last_obs[1])
        np.testing.assert_array_equal(info["_elapsed_step"], mask)
        np.testing.assert_array_equal(info["elapsed_step"][mask], [0, 0])
        # Reset envs step; the unreset one still refuses.
        _, _, _, _, info = env.step(zero[:2], env_id=[0, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1])
        with pytest.raises(envpool.CallOrderError):
            env.step(zero)
        env.reset(options={"reset_mask": np.array([False, True, False])})
        _, _, _, truncated, info = env.step(zero)
        np.testing.assert_array_equal(info["elapsed_step"], [2, 1, 2])
        np.testing.assert_array_equal(truncated, [True, False, True])


def test_masked_reset_keeps_latest_obs_after_subset_steps():
    with envpool.make("CartPole-v1", num_envs=3, autoreset_mode="disabled") as env:
        env.reset(seed=0)
        env.step(np.zeros(3, np.int64))
        latest = None
        for _ in range(3):
            latest, *_ = env.step(np.ones(1, np.int64), env_id=[0])
        mask = np.array([False, True, False])
        obs, info = env.reset(options={"reset_mask": mask})
        np.testing.assert_array_equal(obs[0], latest[0])
        np.testing.assert_array_equal(info["_env_id"], mask)
        # The next full step continues env 0 from that obs.
        _, _, _, _, info = env.step(np.zeros(3, np.int64))
        np.testing.assert_array_equal(info["elapsed_step"], [5, 1, 2])


def test_masked_reset_with_seed_gives_env_i_seed_plus_i():
    with envpool.make("CartPole-v1", num_envs=3) as env:
        full, _ = env.reset(seed=20)
        env.step(np.zeros(3, np.int64))
        mask = np.array([False, True, True])
        obs, _ = env.reset(seed=20, options={"reset_mask": mask})
        np.testing.assert_array_equal(obs[mask], full[mask])


def test_reset_mask_validation_like_gymnasium():
    with envpool.make("CartPole-v1", num_envs=3, autoreset_mode="disabled") as env:
        env.reset(seed=0)
        with pytest.raises(TypeError):
            env.reset(options={"reset_mask": np.array([1, 0, 1])})
        with pytest.raises(ValueError):
            env.reset(options={"reset_mask": np.array([True, False])})
        with pytest.raises(ValueError):
            env.reset(options={"reset_mask": np.zeros(3, bool)})
        assert_steps_ok(env)


@pytest.mark.parametrize("mode", ["next_step", "same_step", "disabled"])
def test_truncation_at_max_episode_steps_for_every_mode(mode):
    with envpool.make(
        "MountainCar-v0", num_envs=2, max_episode_steps=5, autoreset_mode=mode
    ) as env:
        env.reset(seed=0)
        for t in range(1, 5):
            _, _, terminated, truncated, info = env.step(np.array([1, 1]))
            assert not truncated.any() and not terminated.any()
            np.testing.assert_array_equal(info["elapsed_step"], [t, t])
        _, _, terminated, truncated, info = env.step(np.array([1, 1]))
        assert truncated.all() and not terminated.any()
        expected_elapsed = 0 if mode == "same_step" else 5
        np.testing.assert_array_equal(info["elapsed_step"], [expected_elapsed] * 2)
