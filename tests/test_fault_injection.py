"""Faults injected from inside C++ envs (the test-only env in cpp/tests/fault_env.h):
exceptions from step and reset, NaN output and random delays. A failing env
raises EnvError naming it from the call that returns its batch; the other envs
carry on as if nothing happened, and the pool stays usable. FaultDict-v0, the same
env with a dict observation, goes through the same faults."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import call_with_timeout

import envpool

pytestmark = pytest.mark.asan

N = 4
ONES = np.ones(N, dtype=np.int64)


@pytest.fixture
def make_fault(fault_env_dir):
    pools = []

    def make(task="Fault-v0", **kwargs):
        kwargs.setdefault("num_envs", N)
        kwargs.setdefault("env_type", "gymnasium")
        pool = envpool.make(task, **kwargs)
        pools.append(pool)
        return pool

    yield make
    for pool in pools:
        pool.close()


def test_step_exception_names_the_env_and_carries_the_message(make_fault):
    env = make_fault(throw_at_step=[-1, -1, 3, -1])
    env.reset(seed=0)
    env.step(ONES)
    env.step(ONES)
    with pytest.raises(envpool.EnvError, match="injected failure at step 3") as err:
        call_with_timeout(lambda: env.step(ONES))
    assert err.value.env_id == 2
    assert "env 2" in str(err.value)


def test_other_envs_are_unaffected_and_the_failed_env_restarts(make_fault):
    faulty = make_fault(throw_at_step=[-1, -1, 3, -1], episode_length=100)
    clean = make_fault(episode_length=100)
    obs_f, _ = faulty.reset(seed=7)
    obs_c, _ = clean.reset(seed=7)
    np.testing.assert_array_equal(obs_f, obs_c)
    for step in range(1, 7):
        actions = np.full(N, step % 4, dtype=np.int64)
        expected = clean.step(actions)
        if step == 3:
            with pytest.raises(envpool.EnvError):
                faulty.step(actions)
            continue
        obs, reward, terminated, truncated, info = faulty.step(actions)
        healthy = [0, 1, 3]
        # The others stepped in the dropped batch too: their state matches the clean pool's.
        np.testing.assert_array_equal(obs[healthy], expected[0][healthy])
        np.testing.assert_array_equal(reward[healthy], expected[1][healthy])
        np.testing.assert_array_equal(info["elapsed_step"][healthy], step)
        if step == 4:
            # The failed env's next step is a reset.
            assert obs[2, 1] == 0 and info["elapsed_step"][2] == 0
        elif step > 4:
            assert obs[2, 1] == step - 4 and info["elapsed_step"][2] == step - 4


def test_step_exception_in_async_mode_comes_from_recv(make_fault):
    env = make_fault(num_envs=8, batch_size=4, throw_at_step=[-1] * 5 + [2, -1, -1])
    env.async_reset()
    errors = []
    steps_seen = {i: 0 for i in range(8)}
    for _ in range(30):
        try:
            obs, _, _, _, info = call_with_timeout(env.recv)
        except envpool.EnvError as exc:
            errors.append(exc)
            # The dropped batch's envs are free again: sending them goes on.
            ids = exc.dropped_env_ids
        else:
            ids = info["env_id"]
            assert obs.shape == (4, 4) and np.all((ids >= 0) & (ids < 8))
            for row, env_id in enumerate(ids):
                steps_seen[int(env_id)] = max(steps_seen[int(env_id)], int(obs[row, 1]))
        assert len(ids) == 4
        env.send(np.ones(len(ids), dtype=np.int64), env_id=ids)
    # Env 5 fails at step 2 of every episode, restarting each time.
    assert errors and all(e.env_id == 5 for e in errors)
    assert all("injected failure at step 2" in str(e) for e in errors)
    assert all(5 in e.dropped_env_ids.tolist() for e in errors)
    assert steps_seen.pop(5) == 1
    assert all(steps >= 3 for steps in steps_seen.values()), steps_seen


def test_reset_exception_names_the_env_and_a_retry_works(make_fault):
    env = make_fault(throw_on_reset=[-1, 1, -1, -1])
    with pytest.raises(envpool.EnvError, match="injected failure in reset 1") as err:
        call_with_timeout(lambda: env.reset(seed=0))
    assert err.value.env_id == 1
    obs, info = call_with_timeout(lambda: env.reset(seed=0))
    assert obs.shape == (N, 4) and np.all(obs[:, 1] == 0)
    obs, *_ = env.step(ONES)
    assert np.all(obs[:, 1] == 1)


def test_autoreset_exception_surfaces_from_the_step_that_resets(make_fault):
    # Reset 1 is the explicit reset; reset 2 is the autoreset after episode 1.
    env = make_fault(episode_length=2, throw_on_reset=[-1, -1, -1, 2])
    env.reset(seed=0)
    env.step(ONES)
    _, _, terminated, _, _ = env.step(ONES)
    assert terminated.all()
    with pytest.raises(envpool.EnvError, match="in reset 2") as err:
        call_with_timeout(lambda: env.step(ONES))
    assert err.value.env_id == 3
    obs, *_ = env.step(ONES)
    assert obs.shape == (N, 4)


def test_dm_front_end_raises_env_error_too(make_fault):
    env = make_fault(env_type="dm", throw_at_step=[2, -1, -1, -1])
    env.reset()
    env.step(ONES)
    with pytest.raises(envpool.EnvError) as err:
        env.step(ONES)
    assert err.value.env_id == 0
    ts = env.step(ONES)
    assert ts.observation["obs"].shape == (N, 4)
    # The failed env restarted: its next step is a reset (step 0, FIRST).
    assert ts.observation["obs"][0, 1] == 0 and ts.step_type[0] == 0
    np.testing.assert_array_equal(ts.observation["obs"][1:, 1], 3)


def test_nan_output_is_passed_through_only_where_the_env_wrote_it(make_fault):
    env = make_fault(nan_at_step=[-1, 2, -1, -1])
    env.reset(seed=0)
    for step in (1, 2, 3):
        obs, reward, *_ = env.step(ONES)
        nan_rows = np.isnan(obs).any(axis=1)
        if step == 2:
            assert nan_rows.tolist() == [False, True, False, False]
            assert np.isnan(obs[1, 3]) and np.isnan(reward[1])
            assert np.isfinite(reward[[0, 2, 3]]).all()
        else:
            assert not nan_rows.any() and np.isfinite(reward).all()


@pytest.mark.parametrize("batch_size", [2, 8])
def test_random_delays_never_change_trajectories(make_fault, batch_size):
    """Envs that take random times finish in random order; each env's own
    trajectory is the same as in a pool without delays."""

    def trajectories(**kwargs):
        env = make_fault(num_envs=8, batch_size=batch_size, num_threads=2, seed=3, **kwargs)
        per_env: dict[int, list] = {i: [] for i in range(8)}
        env.async_reset()
        for _ in range(40):
            obs, reward, _, _, info = call_with_timeout(env.recv)
            for row, env_id in enumerate(info["env_id"]):
                per_env[int(env_id)].append((*obs[row], reward[row]))
            ids = info["env_id"]
            env.send((ids % 4).astype(np.int64), env_id=ids)
        return {i: rows[:4] for i, rows in per_env.items()}

    slow = trajectories(max_sleep_us=2000)
    fast = trajectories()
    assert all(len(rows) == 4 for rows in slow.values())
    assert slow == fast


def as_plain(obs: dict) -> np.ndarray:
    """FaultDict-v0's observation as Fault-v0's (the same four numbers)."""
    return np.column_stack(
        [obs["draw"], obs["counts"].astype(np.float64), obs["value"].astype(np.float64)]
    )


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_dict_observation_env_through_faults_and_autoresets(make_fault, mode):
    """The env with a dict observation gives, key by key, the numbers of the plain
    one, through a failing env, NaN output and autoresets (final_obs a dict too)."""
    options = dict(
        seed=5,
        autoreset_mode=mode,
        episode_length=3,
        throw_at_step=[-1, 2, -1, -1],
        nan_at_step=[-1, -1, 1, -1],
    )
    plain = make_fault(**options)
    dicts = make_fault(task="FaultDict-v0", **options)
    assert list(dicts.single_observation_space.keys()) == ["draw", "counts", "value"]
    assert list(dicts.observation_space.keys()) == ["draw", "counts", "value"]
    want_obs, _ = plain.reset()
    obs, _ = dicts.reset()
    np.testing.assert_array_equal(as_plain(obs), want_obs)
    failures = ended = 0
    for step in range(10):
        actions = np.full(N, step % 4, dtype=np.int64)
        try:
            want = call_with_timeout(lambda a=actions: plain.step(a))
        except envpool.EnvError as err:
            with pytest.raises(envpool.EnvError) as dict_err:
                call_with_timeout(lambda a=actions: dicts.step(a))
            assert dict_err.value.env_id == err.env_id == 1
            failures += 1
            continue
        obs, reward, terminated, _, info = call_with_timeout(lambda a=actions: dicts.step(a))
        assert {k: v.shape for k, v in obs.items()} == {
            "draw": (N,),
            "counts": (N, 2),
            "value": (N, 1),
        }
        assert obs["counts"].dtype == np.int32 and obs["value"].dtype == np.float32
        np.testing.assert_array_equal(as_plain(obs), want[0])
        np.testing.assert_array_equal(reward, want[1])
        np.testing.assert_array_equal(terminated, want[2])
        if mode == "same_step":
            final, mask = info["final_obs"], info["_final_obs"]
            assert isinstance(final, dict)
            np.testing.assert_array_equal(mask, want[4]["_final_obs"])
            ended += int(mask.sum())
            np.testing.assert_array_equal(as_plain(final)[mask], want[4]["final_obs"][mask])
    assert failures >= 2
    assert mode == "next_step" or ended >= 4


def test_dict_observation_env_in_async_batches(make_fault):
    """Random delays and async batches: each env's dict observations follow the same
    trajectory as the plain env's."""

    def trajectories(task, **kwargs):
        env = make_fault(task=task, num_envs=8, batch_size=3, num_threads=2, seed=3, **kwargs)
        per_env: dict[int, list] = {i: [] for i in range(8)}
        env.async_reset()
        for _ in range(30):
            obs, reward, _, _, info = call_with_timeout(env.recv)
            rows = as_plain(obs) if isinstance(obs, dict) else obs
            for row, env_id in enumerate(info["env_id"]):
                per_env[int(env_id)].append((*rows[row], reward[row]))
            ids = info["env_id"]
            env.send((ids % 4).astype(np.int64), env_id=ids)
        return {i: rows[:4] for i, rows in per_env.items()}

    dicts = trajectories("FaultDict-v0", max_sleep_us=1000)
    assert all(len(rows) == 4 for rows in dicts.values())
    assert dicts == trajectories("Fault-v0")


def test_dict_observation_in_the_dm_front_end_and_masked_reset(make_fault):
    env = make_fault(task="FaultDict-v0", env_type="dm", throw_at_step=[2, -1, -1, -1])
    assert list(env.observation_spec()) == ["draw", "counts", "value", "env_id", "elapsed_step"]
    ts = env.reset()
    env.step(ONES)
    with pytest.raises(envpool.EnvError):
        env.step(ONES)
    ts = env.step(ONES)
    assert ts.observation.counts.shape == (N, 2) and ts.observation.value.shape == (N, 1)
    assert ts.observation.counts[0, 0] == 0 and ts.step_type[0] == 0  # restarted
    np.testing.assert_array_equal(ts.observation.counts[1:, 0], 3)

    gym_env = make_fault(task="FaultDict-v0", seed=1)
    obs, _ = gym_env.reset()
    gym_env.step(ONES)
    obs, info = gym_env.reset(options={"reset_mask": np.array([True, False, True, False])})
    # Reset envs start over; the others keep the observation of their last step.
    np.testing.assert_array_equal(obs["counts"][:, 0], [0, 1, 0, 1])
    assert gym_env.observation_space.contains({k: v.copy() for k, v in obs.items()})


def test_dict_observation_in_the_original_api_spec(make_fault):
    env = make_fault(task="FaultDict-v0", original_api=True)
    assert [k for k in env.spec.state_array_spec if k.startswith("obs")] == [
        "obs:draw",
        "obs:counts",
        "obs:value",
    ]
    assert list(env.spec.observation_spec()) == ["draw", "counts", "value"]
    obs, _ = env.reset()
    assert obs["counts"].shape == (N, 2)


@pytest.mark.parametrize(
    ("task", "message"),
    [
        ("FaultDict-v0", r"observation is a dict \(MakeDict\): write each key with"),
        ("Fault-v0", r"out.Obs<T>\(0\) names a key, but the env's observation is one array"),
    ],
)
def test_writing_an_observation_the_wrong_way_names_the_right_call(make_fault, task, message):
    # An env's observation spec is made at run time (Spec(config)), so the mistake
    # cannot be a compile error: it is an EnvError at the step, and the pool goes on.
    env = make_fault(task=task, misuse_obs_at_step=[-1, 2, -1, -1])
    env.reset(seed=0)
    env.step(ONES)
    with pytest.raises(envpool.EnvError, match=message) as err:
        call_with_timeout(lambda: env.step(ONES))
    assert err.value.env_id == 1
    env.step(ONES)
    env.reset(seed=0)


# A multi-agent env (cpp/tests/fault_agents_env.h): "left" takes a discrete action,
# "right" a float pair; the faults hit one env, or one agent, of the pool.
def _agent_actions(n: int, left: int = 1) -> dict[str, np.ndarray]:
    return {
        "left": np.full(n, left, dtype=np.int64),
        "right": np.full((n, 2), 0.25, dtype=np.float32),
    }


def test_multi_agent_step_exception_names_the_env_and_the_pool_recovers(make_fault):
    env = make_fault("FaultAgents-v0", num_envs=2, throw_at_step=[-1, 3], episode_length=50)
    env.reset(seed=0)
    env.step(_agent_actions(2))
    env.step(_agent_actions(2))
    with pytest.raises(envpool.EnvError, match="injected failure at step 3") as err:
        call_with_timeout(lambda: env.step(_agent_actions(2)))
    assert err.value.env_id == 1
    obs, rewards, terminations, truncations, infos = env.step(_agent_actions(2))
    assert obs["left"][:, 1].tolist() == [4, 0]  # env 0 steps on, env 1 has restarted
    assert rewards["right"].tolist() == [0.5, 0.0]
    assert infos["right"]["active"].all()


def test_multi_agent_nan_stays_in_the_agent_that_wrote_it(make_fault):
    env = make_fault("FaultAgents-v0", num_envs=2, nan_at_step=[-1, 2], nan_agent=[0, 1])
    env.reset(seed=0)
    for step in (1, 2, 3):
        obs, rewards, *_ = env.step(_agent_actions(2))
        poisoned = step == 2
        assert np.isnan(obs["right"][1, 1]) == poisoned
        assert np.isnan(rewards["right"][1]) == poisoned
        assert np.isfinite(obs["left"]).all() and np.isfinite(rewards["left"]).all()
        assert np.isfinite(obs["right"][0]).all() and np.isfinite(rewards["right"][0])


def test_multi_agent_agent_leaving_mid_episode(make_fault):
    """'right' leaves env 0 at step 3: terminated there, inactive after, while 'left'
    plays the episode out; the autoreset brings it back."""
    env = make_fault("FaultAgents-v0", num_envs=2, leave_at_step=[3, -1], episode_length=5)
    env.reset(seed=0)
    rows = [env.step(_agent_actions(2)) for _ in range(6)]
    terminated = [r[2]["right"].tolist() for r in rows]
    active = [r[4]["right"]["active"].tolist() for r in rows]
    assert terminated[:5] == [[False, False]] * 2 + [[True, False]] * 2 + [[True, True]]
    assert active[:5] == [[True, True]] * 3 + [[False, True]] * 2
    assert [r[2]["left"][0] for r in rows[:5]] == [False] * 4 + [True]
    assert rows[4][1]["right"][0] == 0.0  # no reward once it has left
    assert rows[5][4]["right"]["active"].tolist() == [True, True]  # the next episode


def test_pettingzoo_refuses_actions_for_an_agent_that_left(fault_env_dir):
    env = envpool.make_pettingzoo("FaultAgents-v0", seed=0, leave_at_step=2, episode_length=4)
    env.reset(seed=0)
    both = {"left": 1, "right": np.array([0.5, 0.5], np.float32)}
    env.step(both)
    env.step(both)
    assert env.agents == ["left"]
    with pytest.raises(ValueError, match=r"agents \['right'\] have left the env"):
        env.step(both)
    env.step({"left": 2})
    _, _, terminations, _, _ = env.step({"left": 2})
    assert terminations == {"left": True} and env.agents == []
    env.close()


def test_multi_agent_bad_nan_agent_option_is_refused(fault_env_dir):
    with pytest.raises(ValueError, match="nan_agent must be 0 or 1"):
        envpool.make("FaultAgents-v0", num_envs=2, nan_agent=5)
    env = envpool.make("FaultAgents-v0", num_envs=2)
    env.reset(seed=0)
    env.close()
