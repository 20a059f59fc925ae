"""The Procgen tasks against procgen itself (tests/procgen_reference.py: the pinned
wheel's own env.py and gym env on this interpreter), side by side.

Env i of ``envpool.make(id, num_envs=n, seed=s, **options)`` is procgen's gym env
``procgen-<game>-v0`` made with ``rand_seed=s + i`` and the same options: every
observation byte, reward, episode end and info value is compared, step by step with
random actions, through episode ends, for every game in every mode. ENVPOOL_SLOW=1 runs
longer episodes with more envs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from procgen_reference import gym_env, load, random_actions

import envpool
from envpool.families.procgen.tasks import GAMES, modes
from envpool.registry import list_families

pytestmark = pytest.mark.skipif(
    not os.path.exists("/proc/cpuinfo") or os.uname().machine != "x86_64",
    reason="procgen's library runs on Linux x86-64 only",
)

SLOW = os.environ.get("ENVPOOL_SLOW") == "1"
INFO_KEYS = ("prev_level_seed", "prev_level_complete", "level_seed")

# steps per level, from procgen 0.10.7's games (jumper's memory mode: 2000)
TIMEOUTS = {"bigfish": 6000, "bossfight": 4000, "leaper": 500, "maze": 500, "plunder": 4000}


def timeout(game: str, mode: str) -> int:
    if game == "jumper" and mode == "memory":
        return 2000
    return TIMEOUTS.get(game, 1000)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("procgen-wheel")
    load(path)
    return path


def task_id(game: str, mode: str) -> str:
    return f"{game.capitalize()}{mode.capitalize()}-v0"


def compare(
    folder: Path,
    task: str,
    game: str,
    mode: str,
    steps: int,
    num_envs: int = 2,
    seed: int = 3,
    **options: Any,
) -> int:
    """Steps a new pool and procgen's gym envs side by side; returns the episode ends."""
    env = envpool.make(task, num_envs=num_envs, seed=seed, **options)
    try:
        obs, info = env.reset()
        refs = references(folder, game, mode, seed, num_envs, **options)
        return follow(env, refs, obs, info, random_actions(seed, steps, num_envs), game, mode)
    finally:
        env.close()


def references(
    folder: Path, game: str, mode: str, seed: int, num_envs: int, **options: Any
) -> list[Any]:
    return [
        gym_env(folder, env_name=game, rand_seed=seed + i, distribution_mode=mode, **options)
        for i in range(num_envs)
    ]


def follow(
    env: Any,
    refs: list[Any],
    obs: np.ndarray,
    info: dict[str, Any],
    actions: np.ndarray,
    game: str,
    mode: str,
) -> int:
    """From the pool's reset (obs, info), steps it and procgen's gym envs (just made)
    with ``actions``; returns the episode ends seen. procgen's gym env ends an episode
    with the frame before the last step and the final reward; its reset() then shows
    the next level's first frame, as the pool's next step does (autoreset_mode
    "next_step")."""
    task = env.spec.id
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(obs[i], ref.reset())
        _same_info(info, i, ref.env.get_info()[0])
    ended = [False] * len(refs)
    lengths = [0] * len(refs)
    ends = 0
    for t, action in enumerate(actions):
        obs, reward, terminated, truncated, info = env.step(action)
        for i, ref in enumerate(refs):
            where = f"{task} env {i} step {t}"
            if ended[i]:
                expected, r, done = ref.reset(), 0.0, False
                lengths[i] = 0
                ref_info = ref.env.get_info()[0]
            else:
                expected, r, done, ref_info = ref.step(action[i])
                lengths[i] += 1
            np.testing.assert_array_equal(obs[i], expected, err_msg=where)
            assert reward[i] == r, where
            assert bool(terminated[i] or truncated[i]) == bool(done), where
            assert not (terminated[i] and truncated[i]), where
            if truncated[i]:  # out of time, not ended by the game
                assert lengths[i] == timeout(game, mode), where
            _same_info(info, i, ref_info, where)
            assert info["elapsed_step"][i] == lengths[i], where
            ended[i] = bool(done)
            ends += bool(done)
    return ends


def _same_info(info: dict[str, Any], i: int, expected: dict[str, Any], where: str = "") -> None:
    for key in INFO_KEYS:
        assert info[key][i] == expected[key], (where, key)
        assert info[key].dtype == np.asarray(expected[key]).dtype, key


ALL_MODES = [(game, mode) for game in GAMES for mode in modes(game)]


@pytest.mark.parametrize(("game", "mode"), ALL_MODES, ids=[task_id(*c) for c in ALL_MODES])
def test_every_game_and_mode_equals_procgen(folder: Path, game: str, mode: str) -> None:
    # long enough for each env to run out of time at least once (games with long time
    # limits end sooner: their agents die)
    steps = 2 * timeout(game, mode) + 100 if SLOW else min(timeout(game, mode) + 100, 2100)
    ends = compare(folder, task_id(game, mode), game, mode, steps, num_envs=3 if SLOW else 2)
    assert ends >= 1


@pytest.mark.parametrize("game", list(GAMES))
def test_procgen_ids_are_hard_mode(folder: Path, game: str) -> None:
    spec = envpool.make_spec(f"procgen-{game}-v0")
    assert spec.config["env_name"] == game
    assert spec.config["distribution_mode"] == "hard"
    compare(folder, f"procgen-{game}-v0", game, "hard", steps=150)


def test_the_original_envpools_ids() -> None:
    ids = set(envpool.list_all_envs())
    original = [
        task_id(game, mode) for game in GAMES for mode in modes(game) if mode != "exploration"
    ]
    assert len(original) == 42
    assert set(original) <= ids
    assert {f"procgen-{game}-v0" for game in GAMES} <= ids
    assert len(list_families()["procgen"]) == 42 + 8 + 16


OPTION_CASES = [
    ("coinrun", "hard", {"num_levels": 5, "start_level": 100}),
    ("coinrun", "easy", {"num_levels": 3, "start_level": 7, "use_sequential_levels": True}),
    ("maze", "easy", {"num_levels": 1, "start_level": 0, "use_sequential_levels": True}),
    ("ninja", "easy", {"center_agent": False}),
    ("starpilot", "hard", {"use_backgrounds": False}),
    ("bigfish", "easy", {"restrict_themes": True}),
    ("fruitbot", "easy", {"use_monochrome_assets": True}),
    ("chaser", "hard", {"paint_vel_info": True}),
    ("climber", "easy", {"use_generated_assets": True}),
    ("heist", "easy", {"num_levels": 10, "paint_vel_info": True, "restrict_themes": True}),
]


@pytest.mark.parametrize(("game", "mode", "options"), OPTION_CASES)
def test_options_equal_procgens(folder: Path, game: str, mode: str, options: dict) -> None:
    compare(folder, task_id(game, mode), game, mode, steps=600, **options)


def test_spaces_are_procgens(folder: Path) -> None:
    env = envpool.make("CoinrunEasy-v0", num_envs=1)
    ref = gym_env(folder, env_name="coinrun", distribution_mode="easy", rand_seed=0)
    # gym's spaces (procgen's gym env) against gymnasium's: the same bounds and types
    space, ref_space = env.single_observation_space, ref.observation_space
    assert (space.shape, space.dtype) == (ref_space.shape, ref_space.dtype)
    np.testing.assert_array_equal(space.low, ref_space.low)
    np.testing.assert_array_equal(space.high, ref_space.high)
    assert env.single_action_space.n == ref.action_space.n
    assert env.single_observation_space.shape == (64, 64, 3)
    assert env.single_action_space.n == 15
    env.close()


def test_seeded_reset_replays_a_fresh_procgen_env(folder: Path) -> None:
    env = envpool.make("LeaperHard-v0", num_envs=2, seed=1)
    env.reset()
    for action in random_actions(0, 30, 2):
        env.step(action)
    obs, info = env.reset(seed=40)
    refs = references(folder, "leaper", "hard", 40, 2)
    assert follow(env, refs, obs, info, random_actions(1, 400, 2), "leaper", "hard") >= 1
    assert env.np_random_seed == (40, 41)
    env.close()


def test_a_reset_mid_episode_is_procgens_forced_reset(folder: Path) -> None:
    """reset() before an episode ends ends the level as procgen's act(-1) does: one step
    with the default action, then the next level of the env's level sequence."""
    env = envpool.make("CoinrunHard-v0", num_envs=1, seed=9)
    ref = load(folder).ProcgenGym3Env(num=1, env_name="coinrun", rand_seed=9, num_threads=0)
    env.reset()
    for action in random_actions(2, 20, 1):
        env.step(action)
        ref.act(action)
    obs, info = env.reset()
    ref.act(np.array([-1]))
    _, ref_obs, first = ref.observe()
    assert first[0]
    np.testing.assert_array_equal(obs[0], ref_obs["rgb"][0])
    assert info["level_seed"][0] == ref.get_info()[0]["level_seed"]
    env.close()


def test_same_step_autoreset_shows_the_next_level_with_the_last_frame_as_final() -> None:
    """autoreset_mode="same_step": the step that ends an episode returns the next level's
    first frame, and in info["final_obs"] the frame procgen's gym env ends with."""
    nxt = envpool.make("MazeEasy-v0", num_envs=1, seed=5, autoreset_mode="next_step")
    same = envpool.make("MazeEasy-v0", num_envs=1, seed=5, autoreset_mode="same_step")
    nxt.reset()
    same.reset()
    ends = 0
    for action in random_actions(4, 1500, 1):
        n_obs, n_reward, n_terminated, n_truncated, _ = nxt.step(action)
        s_obs, s_reward, s_terminated, s_truncated, s_info = same.step(action)
        assert s_reward[0] == n_reward[0]
        assert (s_terminated[0], s_truncated[0]) == (n_terminated[0], n_truncated[0])
        if n_terminated[0] or n_truncated[0]:
            ends += 1
            np.testing.assert_array_equal(s_info["final_obs"][0], n_obs[0])
            first_frame = nxt.step(np.array([0]))[0]  # next_step's reset step
            np.testing.assert_array_equal(s_obs[0], first_frame[0])
        else:
            np.testing.assert_array_equal(s_obs[0], n_obs[0])
    assert ends >= 2
    nxt.close()
    same.close()


def test_rgb_array_frames_are_procgens(folder: Path) -> None:
    env = envpool.make("BossfightEasy-v0", num_envs=2, seed=2, render_mode="rgb_array")
    refs = [
        load(folder).ProcgenGym3Env(
            num=1,
            env_name="bossfight",
            distribution_mode="easy",
            rand_seed=2 + i,
            num_threads=0,
            render_mode="rgb_array",
        )
        for i in range(2)
    ]
    env.reset()
    for action in random_actions(3, 25, 2):
        env.step(action)
        for i, ref in enumerate(refs):
            ref.act(action[i : i + 1])
    frames = np.stack(env.render())
    assert frames.shape == (2, 512, 512, 3)
    for i, ref in enumerate(refs):
        np.testing.assert_array_equal(frames[i], ref.get_info()[0]["rgb"])
    env.close()


def test_a_level_out_of_time_is_truncated() -> None:
    env = envpool.make("MazeHard-v0", num_envs=1, seed=0)
    env.reset()
    for step in range(1, 501):
        _, _, terminated, truncated, info = env.step(np.array([4]))  # stand still
        if step < 500:
            assert not (terminated[0] or truncated[0])
    assert truncated[0] and not terminated[0]
    assert info["elapsed_step"][0] == 500
    env.close()


def test_sync_async_and_shared_threads_play_the_same_episodes() -> None:
    actions = random_actions(8, 120, 4)

    def trajectories(**kwargs: Any) -> dict[int, list[np.ndarray]]:
        env = envpool.make("StarpilotEasy-v0", num_envs=4, seed=21, **kwargs)
        out: dict[int, list[np.ndarray]] = {i: [] for i in range(4)}
        env.async_reset()
        steps = [0] * 4
        while min(steps) < len(actions):
            obs, _, _, _, info = env.recv()
            ids = [int(i) for i in info["env_id"]]
            for row, i in enumerate(ids):
                out[i].append(obs[row].copy())
            # every env received is sent again, past the end with action 0, so that a
            # batch is always in flight
            env.send(
                np.array([actions[min(steps[i], len(actions) - 1)][i] for i in ids]),
                np.array(ids, dtype=np.int32),
            )
            for i in ids:
                steps[i] += 1
        env.close()
        return {i: frames[: len(actions)] for i, frames in out.items()}

    sync = trajectories(num_threads=2)
    asynchronous = trajectories(num_threads=2, batch_size=2)
    pool = envpool.make_thread_pool(num_threads=2)
    shared = trajectories(batch_size=3, thread_pool=pool)
    for i in range(4):
        for a, b, c in zip(sync[i], asynchronous[i], shared[i], strict=True):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(a, c)


def test_a_saved_state_replays_in_the_same_pool_and_in_another(folder: Path) -> None:
    """get_state() after 40 steps, then set_state() into the same env and into an env of
    another pool: both go on exactly as procgen's env stepped without a pause."""
    actions = random_actions(6, 140, 2)
    env = envpool.make("ChaserHard-v0", num_envs=2, seed=12)
    ref = gym_env(folder, env_name="chaser", distribution_mode="hard", rand_seed=13)
    env.reset()
    ref.reset()
    for action in actions[:40]:
        env.step(action)
        ref.step(action[1])
    states = env.get_state()
    saved_obs = env.set_state(states)  # restoring in place changes nothing
    expected = []
    for action in actions[40:]:
        obs, reward, terminated, truncated, _ = env.step(action)
        r_obs, r_reward, r_done, _ = ref.step(action[1])
        np.testing.assert_array_equal(obs[1], r_obs)
        assert reward[1] == r_reward and bool(terminated[1] or truncated[1]) == r_done
        expected.append((obs[1].copy(), reward[1]))
        if r_done:
            break
    for pool in (env, envpool.make("ChaserHard-v0", num_envs=3, seed=0)):
        pool.reset()
        restored = pool.set_state([states[1]], env_id=[2 if pool is not env else 1])
        np.testing.assert_array_equal(restored[0], saved_obs[1])
        row = 2 if pool is not env else 1
        for (e_obs, e_reward), action in zip(expected, actions[40:], strict=False):
            step_actions = np.zeros(pool.num_envs, dtype=np.int64)
            step_actions[row] = action[1]
            obs, reward, *_ = pool.step(step_actions)
            np.testing.assert_array_equal(obs[row], e_obs)
            assert reward[row] == e_reward
        pool.close()
