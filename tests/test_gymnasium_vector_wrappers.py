"""Every wrapper of gymnasium.wrappers.vector over envpool pools.

The equivalence check: envpool is deterministic for a seed, so a raw pool and a
wrapped pool made alike and fed the same actions must differ only by the
wrapper's transform. The transform expected for each row is the one of
gymnasium's single-env wrapper, built around ``SpacesOnly`` (a gymnasium.Env
with the pool's single spaces) and called directly (.observation, .action,
.reward). Stateful wrappers are checked against statistics computed here from
the raw pool's outputs. Each wrapper runs in the autoreset modes it accepts;
the modes it refuses are listed in ``REFUSED_MODES`` and checked to raise.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv, VectorWrapper
from gymnasium.wrappers import vector as vw

import envpool

NEXT, SAME, OFF = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED
ALL_MODES = (NEXT, SAME, OFF)
NUM_ENVS = 2
NUM_STEPS = 12
# After this step, env 0 alone is reset with reset_mask, in every autoreset mode.
PARTIAL_RESET_STEP = 2
MAKE_SEED = 7
EPISODE_STEPS = {"CartPole-v1": 9, "Pendulum-v1": 4, "Pong-v5": 4, "Hopper-v5": 5}

COVERED: dict[str, str] = {}
"""Wrapper name -> the test that runs it over envpool pools (filled by ``covers``)."""

NOT_APPLICABLE: dict[str, str] = {}
"""Wrapper name -> why no test runs it over envpool (none at present)."""

REFUSED_MODES = {
    # gymnasium's VectorObservationWrapper raises ValueError in same_step mode.
    "TransformObservation": (SAME,),
    "VectorizeTransformObservation": (SAME,),
    "FlattenObservation": (SAME,),
    "GrayscaleObservation": (SAME,),
    "ResizeObservation": (SAME,),
    "ReshapeObservation": (SAME,),
    "RescaleObservation": (SAME,),
    "DtypeObservation": (SAME,),
    # NormalizeObservation takes next_step only (and refuses partial resets).
    "NormalizeObservation": (SAME, OFF),
}


def covers(*names: str) -> Callable[[Callable], Callable]:
    def register(test: Callable) -> Callable:
        for name in names:
            COVERED.setdefault(name, test.__name__)
        return test

    return register


# ---- rollouts


def make_pool(task_id: str, mode: AutoresetMode, **options: Any) -> VectorEnv:
    return envpool.make(
        task_id,
        num_envs=NUM_ENVS,
        seed=MAKE_SEED,
        max_episode_steps=EPISODE_STEPS[task_id],
        autoreset_mode=mode,
        **options,
    )


def snapshot(value: Any) -> Any:
    """A copy that later steps cannot change (pool arrays, dicts of them, tensors)."""
    if isinstance(value, dict):
        return {key: snapshot(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(snapshot(item) for item in value)
    if isinstance(value, np.ndarray):
        return value.copy()
    if hasattr(value, "clone"):
        return value.clone()
    return value


@dataclass
class Record:
    """One call's outputs: a reset (``mask`` None for a full one) or a step."""

    kind: str
    obs: Any
    info: Any
    reward: Any = None
    terminated: Any = None
    truncated: Any = None
    mask: np.ndarray | None = None


def rollout(
    env: VectorEnv, actions: list[Any], mode: AutoresetMode, partial_reset: bool = True
) -> list[Record]:
    """Resets ``env`` (no seed: the make seed decides), then takes ``actions``.
    In disabled mode every env that ended is reset with reset_mask at once; with
    ``partial_reset``, env 0 is also reset alone after step PARTIAL_RESET_STEP."""
    obs, info = env.reset()
    records = [Record("reset", snapshot(obs), snapshot(info))]
    for k, batch in enumerate(actions):
        obs, reward, terminated, truncated, info = env.step(batch)
        records.append(Record("step", *snapshot((obs, info, reward, terminated, truncated))))
        done = np.logical_or(np.asarray(terminated), np.asarray(truncated))
        mask = done if mode is OFF else np.zeros(NUM_ENVS, dtype=bool)
        if partial_reset and k == PARTIAL_RESET_STEP:
            mask = mask | (np.arange(NUM_ENVS) == 0)
        if mask.any():
            obs, info = env.reset(options={"reset_mask": mask})
            records.append(Record("reset", snapshot(obs), snapshot(info), mask=mask))
    return records


def sample_actions(space: spaces.Space, count: int = NUM_STEPS) -> list[Any]:
    space.seed(3)
    return [space.sample() for _ in range(count)]


@functools.cache
def raw_rollout(
    task_id: str, mode: AutoresetMode, options: tuple = (), partial_reset: bool = True
) -> list[Record]:
    """The raw pool's outputs for the actions ``sample_actions`` gives; made once."""
    with make_pool(task_id, mode, **dict(options)) as pool:
        return rollout(pool, sample_actions(pool.action_space), mode, partial_reset)


def done_of(record: Record) -> np.ndarray:
    return np.logical_or(record.terminated, record.truncated)


class SpacesOnly(gym.Env):
    """A single env that only carries spaces: gymnasium's single-env wrappers are
    built around it to call their transforms on one row at a time."""

    def __init__(self, observation_space: spaces.Space, action_space: spaces.Space) -> None:
        self.observation_space = observation_space
        self.action_space = action_space


def single_env(pool: VectorEnv) -> SpacesOnly:
    return SpacesOnly(pool.single_observation_space, pool.single_action_space)


def assert_same(got: Any, want: Any, label: str = "") -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), label
        for key in want:
            assert_same(got[key], want[key], f"{label}[{key}]")
    else:
        np.testing.assert_array_equal(got, want, err_msg=label)


def assert_passes_through(got: Record, want: Record, *, reward: bool = True) -> None:
    """Everything but the observation (and, unless told, the reward) unchanged."""
    assert got.kind == want.kind
    assert_same(got.info, want.info, "info")
    if got.kind == "step":
        np.testing.assert_array_equal(got.terminated, want.terminated)
        np.testing.assert_array_equal(got.truncated, want.truncated)
        if reward:
            np.testing.assert_array_equal(got.reward, want.reward)


# ---- observation wrappers


class ChannelsLast(VectorWrapper):
    """(n, 3, h, w) Atari RGB frames as (n, h, w, 3), the layout gymnasium's image
    wrappers take. A plain VectorWrapper, so it accepts every autoreset mode."""

    def __init__(self, env: VectorEnv) -> None:
        super().__init__(env)
        channels, height, width = env.single_observation_space.shape
        self.single_observation_space = spaces.Box(0, 255, (height, width, channels), np.uint8)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, env.num_envs
        )

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        return obs.transpose(0, 2, 3, 1), info

    def step(self, actions: Any) -> Any:
        obs, *rest = self.env.step(actions)
        return (obs.transpose(0, 2, 3, 1), *rest)


RGB_PONG = (("gray_scale", False), ("stack_num", 1))


@dataclass(frozen=True)
class ObsCase:
    """A vector observation wrapper and the single-env wrapper that gives each row."""

    task_id: str
    wrap: Callable[[VectorEnv], VectorEnv]
    single: Callable[[gym.Env], gym.ObservationWrapper]
    options: tuple = ()
    channels_last: bool = False


def tanh_single(env: gym.Env) -> gym.ObservationWrapper:
    return gym.wrappers.TransformObservation(env, np.tanh, None)


OBS_CASES = {
    "FlattenObservation": ObsCase(
        "Pong-v5", vw.FlattenObservation, gym.wrappers.FlattenObservation
    ),
    "GrayscaleObservation": ObsCase(
        "Pong-v5",
        lambda env: vw.GrayscaleObservation(env, keep_dim=True),
        lambda env: gym.wrappers.GrayscaleObservation(env, keep_dim=True),
        RGB_PONG,
        channels_last=True,
    ),
    "ResizeObservation": ObsCase(
        "Pong-v5",
        lambda env: vw.ResizeObservation(env, (42, 30)),
        lambda env: gym.wrappers.ResizeObservation(env, (42, 30)),
        RGB_PONG,
        channels_last=True,
    ),
    "ReshapeObservation": ObsCase(
        "Hopper-v5",
        lambda env: vw.ReshapeObservation(env, (11, 1)),
        lambda env: gym.wrappers.ReshapeObservation(env, (11, 1)),
    ),
    "RescaleObservation": ObsCase(
        "Pendulum-v1",
        lambda env: vw.RescaleObservation(env, np.float32(0.0), np.float32(1.0)),
        lambda env: gym.wrappers.RescaleObservation(env, np.float32(0.0), np.float32(1.0)),
    ),
    "DtypeObservation": ObsCase(
        "CartPole-v1",
        lambda env: vw.DtypeObservation(env, np.float64),
        lambda env: gym.wrappers.DtypeObservation(env, np.float64),
    ),
    "TransformObservation": ObsCase(
        "CartPole-v1",
        lambda env: vw.TransformObservation(env, lambda obs: obs * 0.5 - 0.01),
        lambda env: gym.wrappers.TransformObservation(env, lambda obs: obs * 0.5 - 0.01, None),
    ),
    # The output space equals the input's, so gymnasium writes the result into the
    # pool's own observation array: that array must be writable.
    "VectorizeTransformObservation": ObsCase(
        "Hopper-v5",
        lambda env: vw.VectorizeTransformObservation(
            env, gym.wrappers.TransformObservation, func=np.tanh, observation_space=None
        ),
        tanh_single,
    ),
}


NORMALIZE_OBS_CASE = ObsCase(
    "Hopper-v5", vw.NormalizeObservation, gym.wrappers.NormalizeObservation
)


def wrapped_pool(case: ObsCase, mode: AutoresetMode) -> VectorEnv:
    pool = make_pool(case.task_id, mode, **dict(case.options))
    return case.wrap(ChannelsLast(pool) if case.channels_last else pool)


@covers(*OBS_CASES)
@pytest.mark.parametrize("mode", [NEXT, OFF])
@pytest.mark.parametrize("name", list(OBS_CASES))
def test_observation_wrapper_equals_single_env_wrapper_per_row(name, mode):
    case = OBS_CASES[name]
    want = raw_rollout(case.task_id, mode, case.options)
    with closing(wrapped_pool(case, mode)) as env:
        single = case.single(single_env(env.env))
        assert env.single_observation_space == single.observation_space
        got = rollout(env, sample_actions(env.action_space), mode)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert_passes_through(g, w)
        raw_obs = w.obs.transpose(0, 2, 3, 1) if case.channels_last else w.obs
        expected = np.stack([single.observation(row) for row in raw_obs])
        assert g.obs.dtype == expected.dtype
        np.testing.assert_array_equal(g.obs, expected)
        assert env.observation_space.contains(g.obs)


@pytest.mark.parametrize("name", sorted(REFUSED_MODES))
def test_wrapper_refuses_the_autoreset_modes_gymnasium_refuses(name):
    case = {**OBS_CASES, "NormalizeObservation": NORMALIZE_OBS_CASE}[name]
    for mode in REFUSED_MODES[name]:
        pool = make_pool(case.task_id, mode, **dict(case.options))
        try:
            with pytest.raises(ValueError, match="autoreset_mode"):
                case.wrap(ChannelsLast(pool) if case.channels_last else pool)
        finally:
            pool.close()


# ---- action wrappers


@dataclass(frozen=True)
class WrapperCase:
    """A vector action or reward wrapper and the single-env wrapper that gives each row."""

    task_id: str
    wrap: Callable[[VectorEnv], VectorEnv]
    single: Callable[[gym.Env], gym.ActionWrapper | gym.RewardWrapper]


ACTION_CASES = {
    "ClipAction": WrapperCase("Pendulum-v1", vw.ClipAction, gym.wrappers.ClipAction),
    "RescaleAction": WrapperCase(
        "Hopper-v5",
        lambda env: vw.RescaleAction(env, np.float32(0.0), np.float32(1.0)),
        lambda env: gym.wrappers.RescaleAction(env, np.float32(0.0), np.float32(1.0)),
    ),
    "TransformAction": WrapperCase(
        "Pendulum-v1",
        lambda env: vw.TransformAction(env, lambda actions: actions * 0.5),
        lambda env: gym.wrappers.TransformAction(env, lambda action: action * 0.5, None),
    ),
    "VectorizeTransformAction": WrapperCase(
        "Hopper-v5",
        lambda env: vw.VectorizeTransformAction(
            env, gym.wrappers.TransformAction, func=lambda action: -action, action_space=None
        ),
        lambda env: gym.wrappers.TransformAction(env, lambda action: -action, None),
    ),
}


@covers(*ACTION_CASES)
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("name", list(ACTION_CASES))
def test_action_wrapper_equals_single_env_wrapper_per_row(name, mode):
    case = ACTION_CASES[name]
    wrapped = case.wrap(make_pool(case.task_id, mode))
    with make_pool(case.task_id, mode) as raw, closing(wrapped) as env:
        single = case.single(single_env(raw))
        assert env.single_action_space == single.action_space
        actions = sample_actions(env.action_space)
        raw_actions = [np.stack([single.action(row) for row in batch]) for batch in actions]
        want = rollout(raw, raw_actions, mode)
        got = rollout(env, actions, mode)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert_passes_through(g, w)
        np.testing.assert_array_equal(g.obs, w.obs)


# ---- reward wrappers


REWARD_CASES = {
    "ClipReward": WrapperCase(
        "Hopper-v5",
        lambda env: vw.ClipReward(env, 0.0, 0.9),
        lambda env: gym.wrappers.ClipReward(env, 0.0, 0.9),
    ),
    "TransformReward": WrapperCase(
        "Pendulum-v1",
        lambda env: vw.TransformReward(env, lambda rewards: rewards * 0.1),
        lambda env: gym.wrappers.TransformReward(env, lambda reward: reward * 0.1),
    ),
    "VectorizeTransformReward": WrapperCase(
        "CartPole-v1",
        lambda env: vw.VectorizeTransformReward(
            env, gym.wrappers.TransformReward, func=lambda reward: reward - 2.0
        ),
        lambda env: gym.wrappers.TransformReward(env, lambda reward: reward - 2.0),
    ),
}


@covers(*REWARD_CASES)
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("name", list(REWARD_CASES))
def test_reward_wrapper_equals_single_env_wrapper_per_row(name, mode):
    case = REWARD_CASES[name]
    want = raw_rollout(case.task_id, mode)
    with closing(case.wrap(make_pool(case.task_id, mode))) as env:
        single = case.single(single_env(env))
        got = rollout(env, sample_actions(env.action_space), mode)
    for g, w in zip(got, want, strict=True):
        assert_passes_through(g, w, reward=False)
        np.testing.assert_array_equal(g.obs, w.obs)
        if g.kind == "step":
            expected = [single.reward(r) for r in w.reward]
            np.testing.assert_allclose(g.reward, expected, rtol=1e-6)


# ---- stateful wrappers: statistics computed here from the raw pool


def running_mean_var(values: np.ndarray, prior_count: float = 1e-4) -> tuple[Any, Any]:
    """Mean and variance of ``values`` (rows) merged with a prior of mean 0, variance 1
    and weight ``prior_count``: what a running estimate that starts there reaches."""
    n = len(values)
    total = prior_count + n
    data_mean = values.mean(axis=0)
    mean = values.sum(axis=0) / total
    spread = ((values - data_mean) ** 2).sum(axis=0)
    m2 = prior_count + spread + data_mean**2 * prior_count * n / total
    return mean, m2 / total


@covers("NormalizeObservation")
@pytest.mark.parametrize("task_id", ["Hopper-v5", "Pendulum-v1"])
def test_normalize_observation_uses_running_statistics_of_every_row(task_id):
    want = raw_rollout(task_id, NEXT, partial_reset=False)
    epsilon = 1e-8
    with closing(vw.NormalizeObservation(make_pool(task_id, NEXT), epsilon=epsilon)) as env:
        got = rollout(env, sample_actions(env.action_space), NEXT, partial_reset=False)
    seen: list[np.ndarray] = []
    for g, w in zip(got, want, strict=True):
        assert_passes_through(g, w)
        seen.extend(w.obs.astype(np.float64))
        mean, var = running_mean_var(np.array(seen))
        expected = (w.obs - mean) / np.sqrt(var + epsilon)
        assert g.obs.dtype == np.float32
        np.testing.assert_allclose(g.obs, expected, rtol=1e-4, atol=1e-5)


def normalized_rewards(records: list[Record], mode: AutoresetMode, gamma: float) -> list:
    """Each step's rewards scaled by the running spread of the discounted returns.

    The return of an env grows by its reward each step (discounted, and cut at a
    termination); in next_step and disabled modes the step after an episode's end
    belongs to no episode. A reset, even a masked one, restarts every env's return.
    """
    returns = np.zeros(NUM_ENVS)
    after_end = np.zeros(NUM_ENVS, dtype=bool)
    fed: list[float] = []
    out = []
    for record in records:
        if record.kind == "reset":
            returns[:] = 0
            after_end[:] = False
            continue
        live = np.ones(NUM_ENVS, dtype=bool) if mode is SAME else ~after_end
        reward = record.reward.astype(np.float64)
        returns[live] = returns[live] * gamma * (1 - record.terminated[live]) + reward[live]
        fed.extend(returns[live].astype(np.float32))
        _, var = running_mean_var(np.array(fed))
        out.append(reward / np.sqrt(var + 1e-8))
        after_end = done_of(record)
        if mode is SAME:
            returns[after_end] = 0
    return out


@covers("NormalizeReward")
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("task_id", ["Pendulum-v1", "Hopper-v5"])
def test_normalize_reward_uses_running_statistics_of_the_returns(task_id, mode):
    want = raw_rollout(task_id, mode)
    with closing(vw.NormalizeReward(make_pool(task_id, mode), gamma=0.9)) as env:
        got = rollout(env, sample_actions(env.action_space), mode)
    expected = iter(normalized_rewards(want, mode, gamma=0.9))
    for g, w in zip(got, want, strict=True):
        assert_passes_through(g, w, reward=False)
        np.testing.assert_array_equal(g.obs, w.obs)
        if g.kind == "step":
            np.testing.assert_allclose(g.reward, next(expected), rtol=1e-4)


def finished_episodes(records: list[Record], mode: AutoresetMode) -> list[dict[int, tuple]]:
    """For each record, {env: (return, length)} of the episodes that ended there,
    summed from the raw rewards."""
    returns = np.zeros(NUM_ENVS)
    lengths = np.zeros(NUM_ENVS, dtype=int)
    after_end = np.zeros(NUM_ENVS, dtype=bool)
    out: list[dict[int, tuple]] = []
    for record in records:
        if record.kind == "reset":
            reset = np.ones(NUM_ENVS, bool) if record.mask is None else record.mask
            returns[reset], lengths[reset], after_end[reset] = 0, 0, False
            out.append({})
            continue
        ended = {}
        for i in range(NUM_ENVS):
            if mode is not SAME and after_end[i]:
                # next_step: this step only reset env i; a new episode starts after it.
                returns[i], lengths[i] = 0, 0
                continue
            returns[i] += float(record.reward[i])
            lengths[i] += 1
            if done_of(record)[i]:
                ended[i] = (returns[i], lengths[i])
                if mode is SAME:
                    returns[i], lengths[i] = 0, 0
        after_end = done_of(record)
        out.append(ended)
    return out


@covers("RecordEpisodeStatistics")
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pong-v5", "Hopper-v5"])
def test_record_episode_statistics_sums_the_raw_rewards(task_id, mode):
    want = raw_rollout(task_id, mode)
    with closing(vw.RecordEpisodeStatistics(make_pool(task_id, mode))) as env:
        got = rollout(env, sample_actions(env.action_space), mode)
        returns, lengths = list(env.return_queue), list(env.length_queue)
    expected = finished_episodes(want, mode)
    assert sum(len(ended) for ended in expected) >= NUM_ENVS
    want_returns, want_lengths = [], []
    for g, w, ended in zip(got, want, expected, strict=True):
        np.testing.assert_array_equal(g.obs, w.obs)
        if not ended:
            assert "episode" not in g.info
            assert_passes_through(g, w)
            continue
        info = dict(g.info)
        stats, mask = info.pop("episode"), info.pop("_episode")
        assert_same(info, w.info)
        np.testing.assert_array_equal(mask, [i in ended for i in range(NUM_ENVS)])
        for i, (ret, length) in sorted(ended.items()):
            assert stats["r"][i] == pytest.approx(ret, rel=1e-12)
            assert stats["l"][i] == length
            want_returns.append(ret)
            want_lengths.append(length)
    np.testing.assert_allclose(returns, want_returns, rtol=1e-12)
    assert lengths == want_lengths


# ---- DictInfoToList


def info_rows(info: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """env i's own info: its row of each value, skipping the rows a `_key` mask rules out."""
    out: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, value in info.items():
        if key.startswith("_"):
            continue
        mask = info.get(f"_{key}", np.ones(num_envs, dtype=bool))
        per_env = info_rows(value, num_envs) if isinstance(value, dict) else list(value)
        for i in np.flatnonzero(mask):
            out[i][key] = per_env[i]
    return out


@covers("DictInfoToList")
@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pong-v5"])
def test_dict_info_to_list_gives_each_env_its_row(task_id, mode):
    want = raw_rollout(task_id, mode)
    with closing(vw.DictInfoToList(make_pool(task_id, mode))) as env:
        got = rollout(env, sample_actions(env.action_space), mode)
    saw_final_obs = False
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g.obs, w.obs)
        assert isinstance(g.info, list) and len(g.info) == NUM_ENVS
        want_rows = info_rows(w.info, NUM_ENVS)
        for i, (env_info, want_info) in enumerate(zip(g.info, want_rows, strict=True)):
            assert_same(env_info, want_info, f"env {i}")
            if g.kind == "step":
                assert env_info["env_id"] == i
            if "final_obs" in env_info:
                saw_final_obs = True
                assert done_of(w)[i]
                np.testing.assert_array_equal(env_info["final_obs"], w.info["final_obs"][i])
    assert saw_final_obs == (mode is SAME)


# ---- rendering wrappers


def video_frames(path: Any) -> tuple[dict[str, Any], list[np.ndarray]]:
    """The metadata and decoded RGB frames of an mp4 file."""
    import imageio_ffmpeg

    reader = imageio_ffmpeg.read_frames(str(path))
    meta = next(reader)
    width, height = meta["size"]
    frames = [np.frombuffer(raw, np.uint8).reshape(height, width, 3) for raw in reader]
    return meta, frames


def expected_video_lengths(records: list[Record], mode: AutoresetMode) -> list[int]:
    """Frames in each video RecordVideo writes when every episode of env 0 is recorded.

    A video starts with env 0's first frame of an episode and gets one frame per
    step and per reset while it records; it ends where env 0's next episode begins:
    the step after the end (next_step), the ending step itself, whose frame already
    shows the new episode (same_step), or the reset of env 0 (disabled).
    """
    lengths = [0]
    starts_next_step = False
    for record in records:
        if record.kind == "reset":
            if record.mask is not None and record.mask[0]:
                lengths.append(0)
            lengths[-1] += 1
            continue
        ended = bool(done_of(record)[0])
        if (mode is NEXT and starts_next_step) or (mode is SAME and ended):
            lengths.append(0)
        lengths[-1] += 1
        starts_next_step = ended
    return lengths


VIDEO_CASES = [
    ("Pong-v5", NEXT, {}),
    ("Pong-v5", SAME, {}),
    ("Pong-v5", OFF, {}),
    ("Hopper-v5", NEXT, {"width": 64, "height": 48}),
]


@covers("RecordVideo")
@pytest.mark.filterwarnings("ignore:.*autoreset mode is same-step")
@pytest.mark.parametrize(("task_id", "mode", "options"), VIDEO_CASES)
def test_record_video_writes_every_episode_of_env_0(task_id, mode, options, tmp_path):
    pytest.importorskip("moviepy")
    pool = make_pool(task_id, mode, render_mode="rgb_array", **options)
    folder = tmp_path / "videos"
    # moviepy can drop a video's last frame when frames / fps is not exact in binary.
    env = vw.RecordVideo(pool, str(folder), episode_trigger=lambda episode: True, fps=32)
    try:
        records = rollout(env, sample_actions(env.action_space), mode)
        height, width, _ = pool.render()[0].shape
    finally:
        env.close()
    lengths = expected_video_lengths(records, mode)
    assert len(lengths) >= 3
    files = sorted(folder.glob("*.mp4"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    assert [p.name for p in files] == [f"rl-video-episode-{k}.mp4" for k in range(len(lengths))]
    for path, length in zip(files, lengths, strict=True):
        meta, frames = video_frames(path)
        assert len(frames) == length, path.name
        assert meta["fps"] == 32
        # Both envs side by side, each as render() draws it.
        assert frames[0].shape == (height, NUM_ENVS * width, 3)


@covers("RecordVideo")
def test_record_video_frames_show_the_envs(tmp_path):
    pytest.importorskip("moviepy")
    pool = make_pool("Pong-v5", NEXT, render_mode="rgb_array")
    folder = tmp_path / "videos"
    env = vw.RecordVideo(pool, str(folder), episode_trigger=lambda episode: episode == 0)
    try:
        env.reset()
        reset_frames = np.concatenate(pool.render(), axis=1)
        for batch in sample_actions(env.action_space, 2):
            env.step(batch)
    finally:
        env.close()
    meta, frames = video_frames(folder / "rl-video-episode-0.mp4")
    assert len(frames) == 3
    # Without fps, RecordVideo plays the video at the pool's metadata["render_fps"].
    assert meta["fps"] == pool.metadata["render_fps"] == 30
    # mp4 is lossy: the decoded frame is close to the rendered one, not equal.
    error = np.abs(frames[0].astype(np.int16) - reset_frames.astype(np.int16)).mean()
    assert error < 8


@covers("HumanRendering")
def test_human_rendering_shows_each_env_in_its_own_tile(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    pygame = pytest.importorskip("pygame")
    pool = envpool.make(
        "Pong-v5", num_envs=4, seed=MAKE_SEED, max_episode_steps=4, render_mode="rgb_array"
    )
    height, width = 210, 160
    # A 2x2 grid of unscaled frames: env i at column i % 2, row i // 2.
    env = vw.HumanRendering(pool, screen_size=(2 * width, 2 * height))
    try:
        assert env.render_mode == "human"
        env.reset()
        for batch in sample_actions(env.action_space, 3):
            env.step(batch)
            shown = pygame.surfarray.array3d(env.window)  # indexed (x, y, rgb)
            for i, frame in enumerate(pool.render()):
                x, y = (i % 2) * width, (i // 2) * height
                tile = shown[x : x + width, y : y + height].transpose(1, 0, 2)
                np.testing.assert_array_equal(tile, frame, err_msg=f"env {i}")
    finally:
        env.close()
    assert pool.closed


# ---- array conversion


@covers("NumpyToTorch", "ArrayConversion")
@pytest.mark.parametrize("mode", [NEXT, OFF])
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1"])
def test_numpy_to_torch_and_back(task_id, mode):
    torch = pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    want = raw_rollout(task_id, mode)
    env = vw.NumpyToTorch(make_pool(task_id, mode))
    actions = [torch.as_tensor(batch) for batch in sample_actions(env.action_space)]
    try:
        got = rollout(env, actions, mode)
    finally:
        env.close()
    for g, w in zip(got, want, strict=True):
        assert isinstance(g.obs, torch.Tensor)
        np.testing.assert_array_equal(g.obs.numpy(), w.obs)
        assert_same(to_numpy(g.info), w.info)
        if g.kind == "step":
            for tensor, array in ((g.reward, w.reward), (g.terminated, w.terminated)):
                assert isinstance(tensor, torch.Tensor)
                np.testing.assert_array_equal(tensor.numpy(), array)
    # ArrayConversion back to numpy gives the raw pool's arrays again.
    back = vw.ArrayConversion(vw.NumpyToTorch(make_pool(task_id, mode)), torch, np)
    try:
        got = rollout(back, sample_actions(back.action_space), mode)
    finally:
        back.close()
    for g, w in zip(got, want, strict=True):
        assert isinstance(g.obs, np.ndarray)
        np.testing.assert_array_equal(g.obs, w.obs)


@covers("JaxToNumpy", "JaxToTorch")
@pytest.mark.jax
@pytest.mark.parametrize("task_id", ["CartPole-v1", "Pendulum-v1"])
def test_jax_wrappers_hand_the_pool_jax_arrays(task_id):
    """JaxToNumpy and JaxToTorch give the pool jax arrays as actions, which it takes
    like any array; the rollouts equal the raw pool's."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("jax")
    want = raw_rollout(task_id, NEXT)
    env = vw.JaxToNumpy(make_pool(task_id, NEXT))
    try:
        got = rollout(env, sample_actions(env.action_space), NEXT)
    finally:
        env.close()
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(g.obs), w.obs)
        if g.kind == "step":
            np.testing.assert_array_equal(np.asarray(g.reward), w.reward)
    env = vw.JaxToTorch(make_pool(task_id, NEXT))
    actions = [torch.as_tensor(batch) for batch in sample_actions(env.action_space)]
    try:
        got = rollout(env, actions, NEXT)
    finally:
        env.close()
    for g, w in zip(got, want, strict=True):
        assert isinstance(g.obs, torch.Tensor)
        np.testing.assert_array_equal(g.obs.numpy(), w.obs)
        if g.kind == "step":
            np.testing.assert_array_equal(g.terminated.numpy(), w.terminated)


def to_numpy(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: to_numpy(item) for key, item in value.items()}
    return value.numpy() if hasattr(value, "numpy") else value


def test_partial_reset_mask_given_as_a_torch_tensor():
    torch = pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    with closing(vw.NumpyToTorch(make_pool("CartPole-v1", OFF))) as env:
        env.reset()
        env.step(torch.zeros(NUM_ENVS, dtype=torch.int64))
        stepped, *_ = env.step(torch.zeros(NUM_ENVS, dtype=torch.int64))
        obs, _ = env.reset(options={"reset_mask": torch.tensor([True, False])})
        assert torch.equal(obs[1], stepped[1])
        assert not torch.equal(obs[0], stepped[0])


# ---- every wrapper accounted for


@covers("FilterObservation")
def test_filter_observation_over_a_dict_observation_pool(fault_env_dir: Any) -> None:
    with closing(envpool.make("FaultDict-v0", num_envs=3, seed=0)) as env:
        wrapped = vw.FilterObservation(env, filter_keys=["counts", "value"])
        assert set(wrapped.single_observation_space.keys()) == {"counts", "value"}
        obs, _ = wrapped.reset(seed=0)
        assert set(obs) == {"counts", "value"}
        assert wrapped.observation_space.contains({k: v.copy() for k, v in obs.items()})
        obs, *_ = wrapped.step(np.ones(3, dtype=np.int64))
        np.testing.assert_array_equal(obs["counts"], [[1, 1]] * 3)


@covers("FlattenObservation")
def test_flatten_observation_over_a_tuple_observation_pool() -> None:
    # Blackjack's Tuple of Discretes, one-hot encoded as gymnasium's flatten does
    n, seed = 3, 4
    ref = vw.FlattenObservation(
        gym.vector.SyncVectorEnv([lambda: gym.make("Blackjack-v1") for _ in range(n)])
    )
    with closing(envpool.make("Blackjack-v1", num_envs=n, seed=seed)) as env:
        wrapped = vw.FlattenObservation(env)
        assert wrapped.single_observation_space == ref.single_observation_space
        obs, _ = wrapped.reset()
        g_obs, _ = ref.reset(seed=seed)
        for _ in range(10):
            np.testing.assert_array_equal(obs, g_obs)
            actions = np.ones(n, dtype=np.int64)
            obs, *_ = wrapped.step(actions)
            g_obs, *_ = ref.step(actions)
    ref.close()


def test_every_vector_wrapper_is_covered_or_not_applicable():
    names = set(vw.__all__)
    assert not set(COVERED) & set(NOT_APPLICABLE)
    missing = names - set(COVERED) - set(NOT_APPLICABLE)
    assert not missing, f"gymnasium has vector wrappers no test runs over envpool: {missing}"
    assert set(REFUSED_MODES) <= set(COVERED)
