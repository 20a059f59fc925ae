"""envpool.make and friends, seeding, sync stepping, action dtypes, per-env options."""

from __future__ import annotations

import inspect
import uuid

import gymnasium as gym
import numpy as np
import pytest
from conftest import assert_steps_ok

import envpool

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.asan]

TASKS = [
    "Acrobot-v1",
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
]
INT_DTYPES = [
    np.int8,
    np.int16,
    np.int32,
    np.int64,
    np.uint8,
    np.uint16,
    np.uint32,
    np.uint64,
]


def test_list_all_envs_has_every_builtin_task():
    envs = envpool.list_all_envs()
    assert envs == sorted(envs)
    assert set(TASKS) <= set(envs)


def test_exceptions_are_runtime_errors():
    assert issubclass(envpool.CallOrderError, RuntimeError)
    assert issubclass(envpool.EnvError, RuntimeError)
    err = envpool.EnvError("boom", env_id=3)
    assert err.env_id == 3


@pytest.mark.filterwarnings("ignore:.*out of date:DeprecationWarning")
@pytest.mark.parametrize("task_id", TASKS)
def test_make_spec_defaults_follow_gymnasium(task_id):
    spec = envpool.make_spec(task_id)
    ref = gym.make(task_id)
    try:
        assert spec.config["max_episode_steps"] == gym.spec(task_id).max_episode_steps
        assert spec.observation_space == ref.observation_space
        assert spec.action_space == ref.action_space
    finally:
        ref.close()
    assert spec.observation_spec.shape == spec.observation_space.shape
    assert spec.observation_spec.dtype == spec.observation_space.dtype
    assert spec.action_spec.dtype == spec.action_space.dtype


@pytest.mark.parametrize("task_id", TASKS)
def test_make_steps_every_task(task_id):
    with envpool.make(task_id, num_envs=3, num_threads=2) as env:
        assert env.num_envs == 3
        assert env.config["max_episode_steps"] == gym.spec(task_id).max_episode_steps
        obs, info = env.reset(seed=0)
        assert obs.shape == (3, *env.single_observation_space.shape)
        assert obs.dtype == env.single_observation_space.dtype
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
        for t in range(1, 4):
            _, _, terminated, truncated, info = assert_steps_ok(env)
            assert not terminated.any() and not truncated.any()
            np.testing.assert_array_equal(info["elapsed_step"], [t] * 3)


def test_make_spec_options_and_max_episode_steps():
    spec = envpool.make_spec("Pendulum-v1", g=9.81, max_episode_steps=17)
    assert spec.config["g"] == 9.81
    assert spec.config["max_episode_steps"] == 17
    assert spec.task_id == "Pendulum-v1"
    assert "state" in spec.info
    with pytest.raises(TypeError, match="gravity"):
        envpool.make_spec("Pendulum-v1", gravity=9.81)
    with pytest.raises(ValueError, match="CartPole-v1"):
        envpool.make_spec("CartPole-v2")


def test_make_aliases_and_env_types():
    for env in (
        envpool.make("CartPole-v1"),
        envpool.make("CartPole-v1", env_type="gym"),
        envpool.make_gym("CartPole-v1"),
        envpool.make_gymnasium("CartPole-v1"),
    ):
        assert isinstance(env, gym.vector.VectorEnv)
        env.close()
    dm = envpool.make_dm("CartPole-v1", num_envs=2)
    import dm_env

    assert isinstance(dm, dm_env.Environment)
    dm.close()


def test_num_threads_and_config():
    with envpool.make("CartPole-v1", num_envs=4, num_threads=2) as env:
        assert env.num_threads == 2
    with envpool.make("CartPole-v1", num_envs=1, num_threads=0) as env:
        assert env.num_threads == 1
    with envpool.make("CartPole-v1", num_envs=3, sutton_barto_reward=True) as env:
        assert env.config["sutton_barto_reward"] is True


def test_max_episode_steps_truncates():
    with envpool.make("Pendulum-v1", num_envs=2, max_episode_steps=4) as env:
        assert env.config["max_episode_steps"] == 4
        env.reset(seed=0)
        zero = np.zeros((2, 1), np.float32)
        for _ in range(3):
            _, _, terminated, truncated, _ = env.step(zero)
            assert not truncated.any() and not terminated.any()
        _, _, terminated, truncated, info = env.step(zero)
        assert truncated.all() and not terminated.any()
        np.testing.assert_array_equal(info["elapsed_step"], [4, 4])


# Seeding.


def test_reset_seed_reproduces_observations():
    with envpool.make("CartPole-v1", num_envs=3) as env:
        obs1, _ = env.reset(seed=42)
        for _ in range(5):
            env.step(np.ones(3, np.int64))
        obs2, _ = env.reset(seed=42)
        np.testing.assert_array_equal(obs1, obs2)
        obs3, _ = env.reset(seed=43)
        assert not np.array_equal(obs1, obs3)
        # seed=None keeps the random stream going: a new episode, not a replay.
        obs4, _ = env.reset()
        assert not np.array_equal(obs3, obs4)


def test_reset_seed_gives_env_i_seed_plus_i():
    with envpool.make("Pendulum-v1", num_envs=3) as env, envpool.make("Pendulum-v1") as one:
        obs, _ = env.reset(seed=100)
        for i in range(3):
            single, _ = one.reset(seed=100 + i)
            np.testing.assert_array_equal(obs[i], single[0])
        # A list gives one seed per env.
        listed, _ = env.reset(seed=[102, 100, 101])
        np.testing.assert_array_equal(listed, obs[[2, 0, 1]])
        # The same seed twice gives the same start.
        same, _ = env.reset(seed=[7, 7, 7])
        np.testing.assert_array_equal(same[0], same[1])
        np.testing.assert_array_equal(same[0], same[2])


def test_make_seed_seeds_env_i_with_seed_plus_i():
    with (
        envpool.make("CartPole-v1", num_envs=3, seed=5) as a,
        envpool.make("CartPole-v1", num_envs=3, seed=0) as b,
    ):
        obs_a, _ = a.reset()
        obs_b, _ = b.reset(seed=5)
        np.testing.assert_array_equal(obs_a, obs_b)
    with (
        envpool.make("CartPole-v1", num_envs=2, seed=None) as c,
        envpool.make("CartPole-v1", num_envs=2, seed=None) as d,
    ):
        assert not np.array_equal(c.reset()[0], d.reset()[0])


def test_reset_seed_accepts_numpy_ints_and_rejects_negatives():
    with envpool.make("CartPole-v1", num_envs=2) as env:
        a, _ = env.reset(seed=np.int64(5))
        b, _ = env.reset(seed=5)
        np.testing.assert_array_equal(a, b)
        with pytest.raises(ValueError):
            env.reset(seed=-1)
        with pytest.raises(ValueError):
            envpool.make("CartPole-v1", seed=-1)
        assert_steps_ok(env)


def test_reset_seed_wrong_length_raises():
    with envpool.make("CartPole-v1", num_envs=3) as env:
        env.reset(seed=0)
        with pytest.raises(ValueError):
            env.reset(seed=[1, 2])
        assert_steps_ok(env)


# Sync stepping.


def test_step_returns_rows_in_env_order():
    with envpool.make("CartPole-v1", num_envs=4, num_threads=2) as env:
        env.reset(seed=0)
        for _ in range(10):
            _, _, _, _, info = env.step(np.zeros(4, np.int64))
            np.testing.assert_array_equal(info["env_id"], [0, 1, 2, 3])


def test_step_subset_returns_rows_in_id_order():
    actions = np.array([1, 0, 1], np.int64)
    with (
        envpool.make("CartPole-v1", num_envs=3) as sub,
        envpool.make("CartPole-v1", num_envs=3) as full,
    ):
        sub.reset(seed=3)
        full.reset(seed=3)
        obs, reward, _, _, info = sub.step(actions[[2, 0]], env_id=[2, 0])
        np.testing.assert_array_equal(info["env_id"], [2, 0])
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1])
        ref_obs, ref_reward, _, _, _ = full.step(actions)
        np.testing.assert_array_equal(obs, ref_obs[[2, 0]])
        np.testing.assert_array_equal(reward, ref_reward[[2, 0]])
        # Env 1 was left alone: it is one step behind the others.
        _, _, _, _, info = sub.step(np.zeros(3, np.int64))
        np.testing.assert_array_equal(info["elapsed_step"], [2, 1, 2])
        # numpy ids of any integer dtype work too.
        _, _, _, _, info = sub.step(np.zeros(1, np.int64), env_id=np.array([1], np.uint8))
        np.testing.assert_array_equal(info["env_id"], [1])
        np.testing.assert_array_equal(info["elapsed_step"], [2])


def test_sync_send_recv_subset_and_reset_drops_pending_send():
    with envpool.make("CartPole-v1", num_envs=3) as env:
        env.reset(seed=0)
        env.send(np.zeros(2, np.int64), env_id=[2, 0])
        _, _, _, _, info = env.recv()
        np.testing.assert_array_equal(info["env_id"], [2, 0])
        env.send(np.zeros(3, np.int64))
        obs, info = env.reset(seed=1)
        np.testing.assert_array_equal(info["elapsed_step"], [0, 0, 0])
        with pytest.raises(envpool.CallOrderError):
            env.recv()
        _, _, _, _, info = env.step(np.zeros(3, np.int64))
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])


def test_info_has_env_id_and_elapsed_step():
    with envpool.make("MountainCar-v0", num_envs=2) as env:
        _, info = env.reset(seed=0)
        assert info["env_id"].shape == (2,) and info["elapsed_step"].shape == (2,)
        _, reward, _, _, info = env.step(np.array([0, 2]))
        assert reward.dtype == np.float64
        assert set(info) >= {"env_id", "elapsed_step"}
        assert info["state"].shape == (2, 2)


def test_returned_arrays_are_not_overwritten_by_later_steps():
    # Users keep observations (e.g. in a replay buffer) without copying.
    with envpool.make("CartPole-v1", num_envs=2) as env:
        kept, copies = [], []
        obs, info = env.reset(seed=0)
        kept.append((obs, info["elapsed_step"]))
        copies.append((obs.copy(), info["elapsed_step"].copy()))
        for _ in range(30):
            obs, _, _, _, info = env.step(np.array([0, 1]))
            kept.append((obs, info["elapsed_step"]))
            copies.append((obs.copy(), info["elapsed_step"].copy()))
        for (obs, elapsed), (obs_copy, elapsed_copy) in zip(kept, copies, strict=True):
            np.testing.assert_array_equal(obs, obs_copy)
            np.testing.assert_array_equal(elapsed, elapsed_copy)


# Action dtypes.


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_any_integer_dtype_is_a_discrete_action(dtype):
    with (
        envpool.make("CartPole-v1", num_envs=2) as env,
        envpool.make("CartPole-v1", num_envs=2) as ref,
    ):
        env.reset(seed=1)
        ref.reset(seed=1)
        for a in ([0, 1], [1, 1], [1, 0]):
            obs, *_ = env.step(np.array(a, dtype=dtype))
            ref_obs, *_ = ref.step(np.array(a, dtype=np.int64))
            np.testing.assert_array_equal(obs, ref_obs)


def test_action_space_sample_and_python_lists_are_valid_actions():
    with envpool.make("Acrobot-v1", num_envs=3) as env:
        env.reset(seed=0)
        env.action_space.seed(0)
        sample = env.action_space.sample()
        assert sample.dtype == np.int64
        env.step(sample)
        env.step([0, 1, 2])
    with envpool.make("Pendulum-v1", num_envs=2) as env:
        env.reset(seed=0)
        env.step(env.action_space.sample())
        env.step([[0.5], [-0.5]])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_any_float_dtype_is_a_continuous_action(dtype):
    with (
        envpool.make("Pendulum-v1", num_envs=2) as env,
        envpool.make("Pendulum-v1", num_envs=2) as ref,
    ):
        env.reset(seed=1)
        ref.reset(seed=1)
        for a in ([[0.5], [-1.0]], [[2.0], [0.25]]):
            obs, reward, *_ = env.step(np.array(a, dtype=dtype))
            ref_obs, ref_reward, *_ = ref.step(np.array(a, dtype=np.float32))
            np.testing.assert_array_equal(obs, ref_obs)
            np.testing.assert_array_equal(reward, ref_reward)


def test_continuous_actions_outside_the_box_are_clipped_like_gymnasium():
    with (
        envpool.make("Pendulum-v1", num_envs=1) as env,
        envpool.make("Pendulum-v1", num_envs=1) as ref,
    ):
        env.reset(seed=4)
        ref.reset(seed=4)
        obs, *_ = env.step(np.array([[10.0]], np.float32))
        ref_obs, *_ = ref.step(np.array([[2.0]], np.float32))
        np.testing.assert_array_equal(obs, ref_obs)


# Per-env options.


def test_per_env_option_list_gives_one_value_per_env():
    gs = [9.0, 10.0, 11.0]
    zero = np.zeros((3, 1), np.float32)
    with envpool.make("Pendulum-v1", num_envs=3, g=gs) as env:
        assert env.config["g"] == gs
        env.reset(seed=[5, 5, 5])
        for _ in range(5):
            obs, *_ = env.step(zero)
    # Same start and actions: only g differs between the envs.
    assert not np.array_equal(obs[0], obs[1])
    assert not np.array_equal(obs[1], obs[2])
    for i, g in enumerate(gs):
        with envpool.make("Pendulum-v1", num_envs=1, g=g) as single:
            single.reset(seed=5)
            for _ in range(5):
                single_obs, *_ = single.step(zero[:1])
        np.testing.assert_array_equal(obs[i], single_obs[0])


def test_per_env_bool_option_as_tuple():
    with envpool.make("CartPole-v1", num_envs=2, sutton_barto_reward=(True, False)) as env:
        env.reset(seed=0)
        _, reward, terminated, _, _ = env.step(np.zeros(2, np.int64))
        assert not terminated.any()
        np.testing.assert_array_equal(reward, [0.0, 1.0])


def test_per_env_option_wrong_length_raises():
    with pytest.raises(ValueError, match="g"):
        envpool.make("Pendulum-v1", num_envs=3, g=[9.0, 10.0])
    with pytest.raises(ValueError):
        envpool.make("Pendulum-v1", num_envs=2, g=[9.0, 10.0, 11.0])


# register().


def test_register_new_task_id():
    task_id = f"CartPoleSparse-{uuid.uuid4().hex[:8]}-v0"
    envpool.register(
        task_id, "envpool._core:CartPole", max_episode_steps=7, sutton_barto_reward=True
    )
    assert task_id in envpool.list_all_envs()
    spec = envpool.make_spec(task_id)
    assert spec.config["sutton_barto_reward"] is True
    assert spec.config["max_episode_steps"] == 7
    with envpool.make(task_id, num_envs=2) as env:
        env.reset(seed=0)
        rewards, truncated = [], None
        for _ in range(7):
            _, reward, terminated, truncated, _ = env.step(np.array([1, 0]))
            assert not terminated.any()
            rewards.append(reward)
        np.testing.assert_array_equal(np.array(rewards), 0.0)
        assert truncated.all()
    # The task's options can still be overridden per make().
    with envpool.make(task_id, sutton_barto_reward=False) as env:
        env.reset(seed=0)
        assert env.step(np.zeros(1, np.int64))[1][0] == 1.0
    with pytest.raises(ValueError):
        envpool.register(task_id, "envpool._core:CartPole")


def test_register_rejects_bad_arguments():
    with pytest.raises(ValueError):
        envpool.register("", "envpool._core:CartPole")
    with pytest.raises(ValueError):
        envpool.register(f"Bad-{uuid.uuid4().hex[:8]}-v0", "envpool._core.CartPole")


def test_solo_round_ns_changes_who_steps_not_what() -> None:
    """A pool option declared once in envpool/pool_options.py: sync rounds shared with
    the workers (0) or run on the caller alone (huge) give the same trajectories."""
    rollouts = []
    for solo in (0, 5000.0, 1e12):
        env = envpool.make("CartPole-v1", num_envs=8, num_threads=2, seed=4, solo_round_ns=solo)
        assert env.spec.config.solo_round_ns == float(solo)
        env.action_space.seed(0)
        obs, _ = env.reset()
        trajectory = [obs.copy()]
        for _ in range(50):
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            trajectory.append(np.concatenate([obs.ravel(), reward, terminated, truncated]))
        rollouts.append(np.concatenate([np.ravel(x) for x in trajectory]))
        env.close()
    np.testing.assert_array_equal(rollouts[0], rollouts[1])
    np.testing.assert_array_equal(rollouts[0], rollouts[2])


@pytest.mark.parametrize(
    ("value", "error"), [(-1, ValueError), (float("nan"), ValueError), ("5", TypeError)]
)
def test_bad_solo_round_ns_is_named(value: object, error: type) -> None:
    with pytest.raises(error, match="solo_round_ns"):
        envpool.make("CartPole-v1", num_envs=2, solo_round_ns=value)


def test_pool_options_by_position_as_before_the_schema() -> None:
    """make(task_id, env_type, num_envs, batch_size, ...) keeps its positional order."""
    env = envpool.make("CartPole-v1", "gymnasium", 4, 2, 1, 7)
    assert (env.num_envs, env.batch_size, env.spec.config.num_threads) == (4, 2, 1)
    assert env.spec.config.seed == 7
    env.close()
    params = list(inspect.signature(envpool.make).parameters)
    assert params[:4] == ["task_id", "env_type", "num_envs", "batch_size"]
    with pytest.raises(TypeError, match="multiple values for argument 'num_envs'"):
        envpool.make("CartPole-v1", "gymnasium", 4, num_envs=4)
    with pytest.raises(TypeError, match="at most 10 positional arguments"):
        envpool.make("CartPole-v1", "gymnasium", *range(1, 10))
