"""gymnasium 1.4's VectorEnv contract, checked on envpool pools.

Each test applies a check of gymnasium's own vector tests (tests/vector:
test_vector_env, test_autoreset_mode, test_vector_env_info, test_vector_wrapper)
to envpool pools of classic control, Atari and MuJoCo tasks: seeding, partial
resets and their errors, action-count errors, the three autoreset modes, info
layout, render() and VectorWrapper forwarding. gymnasium's tests build
SyncVectorEnv from env factories; here an envpool pool takes its place.
"""

from __future__ import annotations

import re
from typing import Any

import ale_py
import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, VectorEnv, VectorWrapper

import envpool

pytestmark = pytest.mark.numpy_sensitive

NUM_ENVS = 3
SEED = 42
# Short episodes, so that a few dozen steps cross several autoresets.
EPISODE_STEPS = {"CartPole-v1": 12, "Pendulum-v1": 5, "Pong-v5": 4, "Hopper-v5": 6}
TASKS = list(EPISODE_STEPS)
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]
# gymnasium's own env behind each task, for the metadata it carries.
GYMNASIUM_IDS = {"Pong-v5": "ALE/Pong-v5", "Hopper-v5": "Hopper-v5", "CartPole-v1": "CartPole-v1"}
RENDER_TASKS = list(GYMNASIUM_IDS)
# MuJoCo renders at 480x480 unless told otherwise; small frames keep the tests quick.
RENDER_OPTIONS: dict[str, dict[str, Any]] = {
    "Pong-v5": {},
    "Hopper-v5": {"width": 64, "height": 48},
    "CartPole-v1": {},  # drawn in Python from the C++ env's scene (frame_drawer)
}

gym.register_envs(ale_py)


def make_pool(
    task_id: str, mode: AutoresetMode = AutoresetMode.NEXT_STEP, **kwargs: Any
) -> VectorEnv:
    kwargs.setdefault("num_envs", NUM_ENVS)
    kwargs.setdefault("max_episode_steps", EPISODE_STEPS[task_id])
    return envpool.make(task_id, autoreset_mode=mode, **kwargs)


def action_batches(env: VectorEnv, count: int, seed: int = 0) -> list[np.ndarray]:
    """``count`` valid batched actions, the same for every pool made alike."""
    env.action_space.seed(seed)
    return [env.action_space.sample() for _ in range(count)]


# ---- seeding (test_vector_env: test_random_seeding_basics, test_random_seeds_set_at_retrieval)


@pytest.mark.parametrize("task_id", TASKS)
def test_np_random_seed_before_first_reset_is_the_make_seed_per_env(task_id):
    with make_pool(task_id, seed=5) as env:
        assert env.np_random_seed == (5, 6, 7)


def test_np_random_seed_of_default_and_random_make_seeds():
    # make's default seed is 0, so a default pool reports gymnasium's default seeds.
    with make_pool("CartPole-v1") as env:
        assert env.np_random_seed == tuple(range(NUM_ENVS))
    with make_pool("CartPole-v1", seed=None) as env:
        seeds = env.np_random_seed
        assert isinstance(seeds, tuple) and len(set(seeds)) == NUM_ENVS
        assert all(isinstance(s, int) for s in seeds)


@pytest.mark.parametrize("task_id", TASKS)
def test_random_seeding_basics(task_id):
    with make_pool(task_id) as env:
        first_obs, _ = env.reset(seed=SEED)
        assert env.np_random_seed == tuple(SEED + i for i in range(NUM_ENVS))
        for actions in action_batches(env, 2 * EPISODE_STEPS[task_id]):
            env.step(actions)
        # seed=None keeps the seeds (and the generators going), also across autoresets.
        env.reset(seed=None)
        assert env.np_random_seed == tuple(SEED + i for i in range(NUM_ENVS))
        # The same seed gives the same start again.
        again, _ = env.reset(seed=SEED)
        np.testing.assert_array_equal(again, first_obs)


@pytest.mark.parametrize("task_id", TASKS)
def test_per_env_seed_list(task_id):
    with make_pool(task_id) as env:
        obs, _ = env.reset(seed=[7, None, 9])
        obs = obs.copy()
        # An env given None keeps the seed it had (make's seed 0, plus its index).
        assert env.np_random_seed == (7, 1, 9)
        same_seeds, _ = env.reset(seed=7)  # env i gets 7 + i
        np.testing.assert_array_equal(obs[0], same_seeds[0])
        np.testing.assert_array_equal(obs[2], same_seeds[2])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Hopper-v5"])
def test_pools_made_alike_agree_whatever_their_thread_count(task_id, mode):
    """(test_vector_env_equal: two vectorisers of the same envs give the same data.)"""
    with (
        make_pool(task_id, mode, num_threads=1) as one,
        make_pool(task_id, mode, num_threads=NUM_ENVS) as many,
    ):
        assert one.observation_space == many.observation_space
        assert one.action_space == many.action_space
        obs_one, info_one = one.reset(seed=0)
        obs_many, info_many = many.reset(seed=0)
        np.testing.assert_array_equal(obs_one, obs_many)
        assert data_equivalence(info_one, info_many)
        for actions in action_batches(one, 3 * EPISODE_STEPS[task_id]):
            for a, b in zip(one.step(actions), many.step(actions), strict=True):
                assert data_equivalence(a, b)


def test_seed_list_of_the_wrong_length_is_a_value_error():
    with make_pool("CartPole-v1") as env:
        for seeds in ([1, 2], [1, 2, 3, 4]):
            with pytest.raises(ValueError):
                env.reset(seed=seeds)


# ---- partial reset (test_vector_env: test_partial_reset, test_partial_reset_failure)


@pytest.mark.parametrize(
    ("task_id", "mode"),
    [(task_id, AutoresetMode.DISABLED) for task_id in TASKS]
    + [("CartPole-v1", AutoresetMode.NEXT_STEP), ("CartPole-v1", AutoresetMode.SAME_STEP)],
)
def test_partial_reset(task_id, mode):
    with make_pool(task_id, mode, max_episode_steps=100) as env:
        reset_obs, _ = env.reset(seed=[0, 1, 2])
        for actions in action_batches(env, 3, seed=123):
            step_obs, *_ = env.step(actions)
        step_obs = step_obs.copy()
        mask = np.array([True, True, False])
        masked_obs, info = env.reset(seed=[0, 1, 0], options={"reset_mask": mask})
        np.testing.assert_array_equal(masked_obs[:2], reset_obs[:2])
        np.testing.assert_array_equal(masked_obs[2], step_obs[2])
        # env 2 was not reset, so it keeps its seed.
        assert env.np_random_seed == (0, 1, 2)
        for key, value in info.items():
            if key.startswith("_"):
                np.testing.assert_array_equal(value, mask, err_msg=key)
        # The env left alone goes on from where it was.
        env.step(action_batches(env, 1, seed=7)[0])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Hopper-v5"])
def test_masked_reset_ignores_edits_to_arrays_it_returned(task_id, mode):
    """gymnasium's vector envs hand out copies, and gymnasium's own wrappers write
    into the observation array they are given (VectorizeTransformObservation, when
    the space stays the same). The rows a masked reset leaves alone must be what
    the envs last returned, not what the caller made of the array."""
    with make_pool(task_id, mode, max_episode_steps=100) as env:
        env.reset(seed=0)
        for actions in action_batches(env, 2):
            obs, *_ = env.step(actions)
        returned = obs.copy()
        obs[:] = 7.0
        kept, _ = env.reset(options={"reset_mask": np.array([True, False, False])})
        np.testing.assert_array_equal(kept[1:], returned[1:])
        kept[:] = 8.0
        again, _ = env.reset(options={"reset_mask": np.array([False, True, False])})
        np.testing.assert_array_equal(again[2], returned[2])


def reset_mask_error(num_envs: int, mask: Any) -> tuple[type[Exception], str]:
    """The exception type and message gymnasium's SyncVectorEnv gives for ``mask``."""
    if not isinstance(mask, np.ndarray):
        return TypeError, f"`options['reset_mask']` must be a numpy array, got {type(mask)}"
    if mask.shape != (num_envs,):
        return (
            ValueError,
            f"`options['reset_mask']` must have shape `({num_envs},)`, got {mask.shape}",
        )
    if mask.dtype != np.bool_:
        return TypeError, f"`options['reset_mask']` must have `dtype=np.bool_`, got {mask.dtype}"
    return (
        ValueError,
        "`options['reset_mask']` must contain a boolean array with at least one True "
        f"value, got reset_mask={mask}",
    )


BAD_MASKS = {
    "one": np.array([True]),
    "four": np.array([True, True, False, False]),
    "2d": np.array([[True, True, True]]),
    "none_true": np.array([False, False, False]),
    "int": np.array([1, 1, 0]),
    "float": np.array([1.0, 1.0, 0.0]),
    "list": [True, False, True],
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("mask_name", list(BAD_MASKS))
def test_partial_reset_failure_type_and_message(mode, mask_name):
    mask = BAD_MASKS[mask_name]
    error, message = reset_mask_error(NUM_ENVS, mask)
    with make_pool("CartPole-v1", mode) as env:
        env.reset(options={"reset_mask": np.array([True, True, True])})
        with pytest.raises(error, match=re.escape(message)):
            env.reset(options={"reset_mask": mask})
        # The refused reset changed nothing: the pool still steps.
        obs, *_ = env.step(np.zeros(NUM_ENVS, dtype=np.int64))
        assert obs.shape == (NUM_ENVS, 4)


def test_reset_mask_message_table_matches_gymnasium():
    """The messages above are gymnasium's: checked on its SyncVectorEnv itself."""
    envs = gym.make_vec("CartPole-v1", NUM_ENVS, vectorization_mode="sync")
    try:
        envs.reset(seed=0)
        for mask in BAD_MASKS.values():
            error, message = reset_mask_error(NUM_ENVS, mask)
            with pytest.raises(error, match=re.escape(message)):
                envs.reset(options={"reset_mask": mask})
    finally:
        envs.close()


# ---- actions (test_vector_env: test_action_count_compatibility)


@pytest.mark.parametrize("task_id", TASKS)
def test_action_count_compatibility(task_id):
    with make_pool(task_id, AutoresetMode.DISABLED, max_episode_steps=100) as env:
        env.reset(seed=0)
        actions = action_batches(env, 1)[0]
        obs, rewards, terminations, truncations, _ = env.step(actions)
        assert len(obs) == len(rewards) == len(terminations) == len(truncations) == NUM_ENVS
        with pytest.raises(ValueError):
            env.step(actions[: NUM_ENVS - 1])
        with pytest.raises(ValueError):
            env.step(np.concatenate([actions, actions[:1]]))
        with pytest.raises(ValueError):
            env.step(list(actions[: NUM_ENVS - 1]))
        # A scalar is not a batch: gymnasium raises TypeError for each of these.
        for scalar in (0, 0.0, np.float32(0.0), np.array(0), None):
            with pytest.raises(TypeError):
                env.step(scalar)
        # A list with one action per env is a batch, as in gymnasium.
        obs, *_ = env.step(list(actions))
        assert len(obs) == NUM_ENVS


def test_list_actions_step_like_the_array():
    with make_pool("Pendulum-v1") as env, make_pool("Pendulum-v1") as twin:
        env.reset(seed=0)
        twin.reset(seed=0)
        for actions in action_batches(env, 4):
            got = env.step([row for row in actions])
            want = twin.step(actions)
            for a, b in zip(got[:4], want[:4], strict=True):
                np.testing.assert_array_equal(a, b)


# ---- autoreset modes (test_autoreset_mode)


@pytest.mark.parametrize("mode", MODES)
def test_autoreset_metadata_from_enum_or_its_value(mode):
    for given in (mode, mode.value):
        with make_pool("CartPole-v1", given) as env:
            assert env.metadata["autoreset_mode"] is mode


def assert_batched_info(info: dict[str, Any], num_envs: int) -> None:
    for key, value in info.items():
        if isinstance(value, dict):
            assert_batched_info(value, num_envs)
            continue
        assert isinstance(value, np.ndarray), key
        assert value.shape[:1] == (num_envs,), key
        if key.startswith("_"):
            assert value.dtype == np.bool_, key
            assert key[1:] in info, f"mask {key} without its values"


def record_events(task_id: str, mode: AutoresetMode, num_steps: int) -> list[list[tuple]]:
    """Each env's life as ("reset", obs) and ("step", obs, reward, terminated, truncated)
    events: what happens, written the same way whatever the autoreset mode.

    Env i takes the k-th action of its own list on its k-th real step, so every mode
    feeds it the same actions; the step that next_step spends on an autoreset gets a
    different action, which must be ignored. Checks each mode's own rules on the way,
    and that every info value is batched per env (test_vector_env_info).
    """
    env = make_pool(task_id, mode)
    try:
        space = env.single_action_space
        space.seed(1)
        own_actions = [[space.sample() for _ in range(num_steps)] for _ in range(NUM_ENVS)]
        ignored_action = space.sample()
        used = np.zeros(NUM_ENVS, dtype=int)
        autoresetting = np.zeros(NUM_ENVS, dtype=bool)
        obs, info = env.reset(seed=SEED)
        assert_batched_info(info, NUM_ENVS)
        events: list[list[tuple]] = [[("reset", obs[i].copy())] for i in range(NUM_ENVS)]
        for _ in range(num_steps):
            actions = np.stack(
                [
                    ignored_action if autoresetting[i] else own_actions[i][used[i]]
                    for i in range(NUM_ENVS)
                ]
            )
            obs, rewards, terminated, truncated, info = env.step(actions)
            assert env.observation_space.contains(obs)
            assert_batched_info(info, NUM_ENVS)
            done = terminated | truncated
            if mode is AutoresetMode.SAME_STEP:
                np.testing.assert_array_equal(info["_final_obs"], done)
                np.testing.assert_array_equal(info["_final_info"], done)
                assert isinstance(info["final_info"], dict)
            for i in range(NUM_ENVS):
                if autoresetting[i]:
                    # next_step: the step after the end only resets: reward 0, no flags.
                    assert rewards[i] == 0 and not terminated[i] and not truncated[i]
                    events[i].append(("reset", obs[i].copy()))
                    continue
                used[i] += 1
                last_obs = obs[i]
                if mode is AutoresetMode.SAME_STEP and done[i]:
                    last_obs = info["final_obs"][i]
                    assert last_obs in env.single_observation_space
                step = ("step", last_obs.copy(), rewards[i], terminated[i], truncated[i])
                events[i].append(step)
                if mode is AutoresetMode.SAME_STEP and done[i]:
                    events[i].append(("reset", obs[i].copy()))
            if mode is AutoresetMode.NEXT_STEP:
                autoresetting = done
            if mode is AutoresetMode.DISABLED and done.any():
                stepped_obs = obs.copy()
                obs, info = env.reset(options={"reset_mask": done})
                assert_batched_info(info, NUM_ENVS)
                np.testing.assert_array_equal(obs[~done], stepped_obs[~done])
                for i in np.flatnonzero(done):
                    events[i].append(("reset", obs[i].copy()))
        return events
    finally:
        env.close()


def assert_same_events(got: list[tuple], want: list[tuple], label: str) -> int:
    """Compares the common prefix of two event lists; returns how many resets it holds."""
    length = min(len(got), len(want))
    for k in range(length):
        assert got[k][0] == want[k][0], f"{label}: event {k} is {got[k][0]}, not {want[k][0]}"
        for a, b in zip(got[k][1:], want[k][1:], strict=True):
            np.testing.assert_array_equal(a, b, err_msg=f"{label}: event {k}")
    return sum(event[0] == "reset" for event in got[:length])


@pytest.mark.parametrize("task_id", TASKS)
def test_the_three_autoreset_modes_tell_the_same_story(task_id):
    """next_step, same_step and disabled differ only in when the reset shows up."""
    num_steps = 3 * EPISODE_STEPS[task_id] + 6
    stories = {mode: record_events(task_id, mode, num_steps) for mode in MODES}
    for mode in (AutoresetMode.SAME_STEP, AutoresetMode.DISABLED):
        for i in range(NUM_ENVS):
            resets = assert_same_events(
                stories[mode][i], stories[AutoresetMode.NEXT_STEP][i], f"{mode.value} env {i}"
            )
            assert resets >= 3, f"env {i} crossed too few episode ends to tell"


# ---- render (VectorEnv.render: a tuple with one frame per env)


@pytest.mark.parametrize("task_id", RENDER_TASKS)
def test_render_returns_one_frame_per_env(task_id):
    with make_pool(task_id, render_mode="rgb_array", **RENDER_OPTIONS[task_id]) as env:
        assert env.render_mode == "rgb_array"
        assert "rgb_array" in env.metadata["render_modes"]
        env.reset(seed=0)
        frames = env.render()
        assert isinstance(frames, tuple) and len(frames) == NUM_ENVS
        shapes = set()
        for frame in frames:
            assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
            assert frame.ndim == 3 and frame.shape[2] == 3
            shapes.add(frame.shape)
        assert len(shapes) == 1
        for actions in action_batches(env, 3):
            env.step(actions)
        stepped = env.render()
        assert isinstance(stepped, tuple) and len(stepped) == NUM_ENVS
        # The frames show the envs as they are now, not the reset screen.
        assert any(not np.array_equal(a, b) for a, b in zip(frames, stepped, strict=True))


@pytest.mark.parametrize("task_id", RENDER_TASKS)
def test_metadata_render_fps_is_gymnasiums(task_id):
    reference = gym.make(GYMNASIUM_IDS[task_id])
    try:
        want = reference.metadata["render_fps"]
    finally:
        reference.close()
    # (HumanRendering needs it; RecordVideo takes its frame rate from it.)
    with make_pool(task_id) as env:
        assert env.metadata.get("render_fps") == want


# ---- VectorWrapper forwarding (test_vector_wrapper)


class CountingResets(VectorWrapper):
    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)
        self.resets = 0

    def reset(self, **kwargs: Any) -> Any:
        self.resets += 1
        return super().reset(**kwargs)


@pytest.mark.parametrize("task_id", ["CartPole-v1", "Hopper-v5"])
def test_vector_wrapper_forwards_to_the_pool(task_id):
    pool = make_pool(task_id, seed=3)
    wrapped = CountingResets(pool)
    try:
        wrapped.reset(seed=SEED)
        assert wrapped.resets == 1
        assert wrapped.unwrapped is pool
        assert wrapped.num_envs == NUM_ENVS
        assert wrapped.observation_space == pool.observation_space
        assert wrapped.single_action_space == pool.single_action_space
        assert wrapped.np_random_seed == pool.np_random_seed == (42, 43, 44)
        assert wrapped.render_mode is None
        assert wrapped.metadata == pool.metadata
        pool.metadata = {**pool.metadata, "render_modes": []}
        assert wrapped.metadata is pool.metadata
    finally:
        wrapped.close()
    assert pool.closed and wrapped.closed
