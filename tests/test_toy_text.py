"""The toy-text envs (Blackjack, FrozenLake, CliffWalking, Taxi) against gymnasium's own.

Every random draw goes through numpy's generator seeded as gymnasium seeds its env, so
env i of ``envpool.make(task, num_envs=n, seed=s)`` replays exactly in
``gymnasium.make(task)`` after ``reset(seed=s + i)``, and across autoresets, where
gymnasium's later unseeded resets carry on with the same generator. The tests run
whole episodes side by side and require equal observations, rewards, flags, info and
ansi text.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.toy_text import frozen_lake

import envpool
from envpool.families.toy_text.tasks import random_lake

pytestmark = pytest.mark.numpy_sensitive

TASKS = [
    "Blackjack-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
]
TEXT_TASKS = [task for task in TASKS if not task.startswith("Blackjack")]
ENGINE_INFO = {"env_id", "elapsed_step"}
"""Info keys every envpool task has, beside the env's own."""

NUM_ENVS = 4


# ---------------------------------------------------------------------------
# Policies that make the episodes end in every way the task allows.


def _blackjack_action(obs: np.ndarray, rng: np.random.Generator) -> int:
    if rng.random() < 0.3:
        return int(rng.integers(2))
    return int(obs[0] < 17)


def _frozen_lake_action(obs: np.ndarray, rng: np.random.Generator) -> int:
    # Mostly down and right, towards the goal.
    return int(rng.choice(4, p=[0.15, 0.35, 0.35, 0.15]))


def _cliff_action(obs: np.ndarray, rng: np.random.Generator) -> int:
    if rng.random() < 0.25:
        return int(rng.integers(4))
    row, col = divmod(int(obs), 12)
    if col == 11:
        return 2  # down to the goal
    return 0 if row == 3 else 1  # up off the bottom row, then right


TAXI_MAP = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
]
TAXI_STANDS = [(0, 0), (0, 4), (4, 0), (4, 3)]


def _taxi_first_move(start: tuple[int, int], goal: tuple[int, int]) -> int:
    """The first action of a shortest drive from start to goal (walls respected)."""
    moves = {0: (1, 0), 1: (-1, 0), 2: (0, 1), 3: (0, -1)}
    first: dict[tuple[int, int], int] = {start: -1}
    todo = deque([start])
    while todo:
        row, col = todo.popleft()
        if (row, col) == goal:
            break
        for action, (dr, dc) in moves.items():
            if dc == 1 and TAXI_MAP[1 + row][2 * col + 2] != ":":
                continue
            if dc == -1 and TAXI_MAP[1 + row][2 * col] != ":":
                continue
            nxt = (row + dr, col + dc)
            if 0 <= nxt[0] < 5 and 0 <= nxt[1] < 5 and nxt not in first:
                first[nxt] = action if first[(row, col)] == -1 else first[(row, col)]
                todo.append(nxt)
    return first[goal]


def _taxi_action(obs: np.ndarray, rng: np.random.Generator) -> int:
    if rng.random() < 0.2:
        return int(rng.integers(6))  # illegal pickups and dropoffs too
    state = int(obs)
    dest = state % 4
    passenger = state // 4 % 5
    row, col = divmod(state // 20, 5)
    target = TAXI_STANDS[dest] if passenger == 4 else TAXI_STANDS[passenger]
    if (row, col) == target:
        return 5 if passenger == 4 else 4
    return _taxi_first_move((row, col), target)


POLICIES = {
    "Blackjack": _blackjack_action,
    "FrozenLake": _frozen_lake_action,
    "CliffWalking": _cliff_action,
    "Taxi": _taxi_action,
}


def _policy(task: str) -> Any:
    return next(policy for prefix, policy in POLICIES.items() if task.startswith(prefix))


# ---------------------------------------------------------------------------
# Side by side with gymnasium.


@dataclass
class Episodes:
    """What happened in a lockstep run."""

    terminated: int = 0
    truncated: int = 0
    rewards: Counter = field(default_factory=Counter)
    probs: Counter = field(default_factory=Counter)
    observations: list[list[Any]] = field(default_factory=list)


def _gym_obs(obs: Any) -> np.ndarray:
    return np.asarray(obs, dtype=np.int64)  # Blackjack's tuple as one array


def _obs_rows(obs: Any) -> np.ndarray:
    """One row per env: Blackjack's batched tuple of three (num_envs,) arrays as one
    (num_envs, 3) array, for comparing with ``_gym_obs``."""
    if isinstance(obs, tuple):
        assert all(a.dtype == np.int64 and a.shape == (NUM_ENVS,) for a in obs)
        return np.stack(obs, axis=1)
    return obs


def _check_info(info: dict[str, Any], i: int, gym_info: dict[str, Any], where: str) -> None:
    assert set(info) - ENGINE_INFO == set(gym_info), (where, sorted(info), sorted(gym_info))
    for key, expected in gym_info.items():
        ours = info[key][i]
        if isinstance(expected, np.ndarray):
            assert ours.dtype == expected.dtype, (where, key)
            assert np.array_equal(ours, expected), (where, key, ours, expected)
        else:
            assert info[key].dtype == np.float64, (where, key)
            assert ours == expected, (where, key, ours, expected)


def lockstep(
    task: str,
    seed: int,
    num_steps: int,
    options: dict[str, Any] | None = None,
    gym_options: dict[str, Any] | None = None,
    reseed_at: int | None = None,
    policy: Any = None,
) -> Episodes:
    """Steps an envpool pool and NUM_ENVS gymnasium envs on the same actions.

    ``gym_options`` are given to gymnasium.make where they differ from envpool's
    (default: the same). At step ``reseed_at`` both sides reset with a new seed.
    ``policy(obs, rng)`` picks each env's action (default: one that ends episodes).
    """
    options = dict(options or {})
    gym_options = dict(options if gym_options is None else gym_options)
    text = task in TEXT_TASKS
    render_mode = "ansi" if text else None
    env = envpool.make(task, num_envs=NUM_ENVS, seed=seed, render_mode=render_mode, **options)
    refs = [
        gym.make(task, render_mode=render_mode, disable_env_checker=True, **gym_options)
        for _ in range(NUM_ENVS)
    ]
    policy = policy or _policy(task)
    rng = np.random.default_rng(seed + 1000)
    episodes = Episodes(observations=[[] for _ in range(NUM_ENVS)])

    def check_reset(obs: Any, info: dict[str, Any], seeds: list[int | None]) -> None:
        obs = _obs_rows(obs)
        texts = env.render() if text else None
        for i, s in enumerate(seeds):
            g_obs, g_info = refs[i].reset(seed=s)
            where = f"{task} {options} seed={seed} env={i} reset"
            assert np.array_equal(obs[i], _gym_obs(g_obs)), (where, obs[i], g_obs)
            assert obs.dtype == np.int64
            _check_info(info, i, g_info, where)
            assert info["elapsed_step"][i] == 0
            if texts is not None:
                assert texts[i] == refs[i].render(), (where, texts[i], refs[i].render())
            episodes.observations[i].append(obs[i].tolist())

    obs, info = env.reset()
    check_reset(obs, info, [seed + i for i in range(NUM_ENVS)])
    ended = np.zeros(NUM_ENVS, dtype=bool)
    for t in range(num_steps):
        if t == reseed_at:
            new_seed = seed + 100
            obs, info = env.reset(seed=new_seed)
            check_reset(obs, info, [new_seed + i for i in range(NUM_ENVS)])
            ended[:] = False
        actions = np.array([policy(_obs_rows(obs)[i], rng) for i in range(NUM_ENVS)])
        obs, reward, terminated, truncated, info = env.step(actions)
        obs = _obs_rows(obs)
        texts = env.render() if text else None
        for i in range(NUM_ENVS):
            where = f"{task} {options} seed={seed} env={i} step={t}"
            if ended[i]:  # next_step autoreset: this step only resets env i
                assert reward[i] == 0.0 and not terminated[i] and not truncated[i], where
                g_obs, g_info = refs[i].reset()
                assert info["elapsed_step"][i] == 0, where
            else:
                g_obs, g_reward, g_term, g_trunc, g_info = refs[i].step(int(actions[i]))
                assert reward[i] == g_reward, (where, reward[i], g_reward)
                assert terminated[i] == g_term, where
                assert truncated[i] == g_trunc, where
                episodes.terminated += bool(g_term)
                episodes.truncated += bool(g_trunc)
                episodes.rewards[float(g_reward)] += 1
                if "prob" in g_info:
                    episodes.probs[g_info["prob"]] += 1
            assert np.array_equal(obs[i], _gym_obs(g_obs)), (where, obs[i], g_obs)
            _check_info(info, i, g_info, where)
            if texts is not None:
                assert texts[i] == refs[i].render(), (where, texts[i], refs[i].render())
            episodes.observations[i].append(obs[i].tolist())
        ended = terminated | truncated
    env.close()
    return episodes


# ---------------------------------------------------------------------------
# Spaces, info and metadata.


@pytest.mark.parametrize("task", TASKS)
def test_spaces_info_and_metadata_match_gymnasium(task):
    ref = gym.make(task)
    with envpool.make(task, num_envs=2) as env:
        obs_space, act_space = env.single_observation_space, env.single_action_space
        assert env.metadata["render_fps"] == ref.metadata["render_fps"] == 4
        assert ("ansi" in env.metadata["render_modes"]) == ("ansi" in ref.metadata["render_modes"])
        _, info = env.reset()
        _, _, _, _, step_info = env.step(np.zeros(2, dtype=np.int64))
        spec_steps = env.spec.config["max_episode_steps"]
    assert act_space == ref.action_space
    assert spec_steps == gym.spec(task).max_episode_steps
    _, g_info = ref.reset(seed=0)
    _, _, _, _, g_step_info = ref.step(0)
    assert set(info) - ENGINE_INFO == set(g_info)
    assert set(step_info) - ENGINE_INFO == set(g_step_info)
    assert obs_space == ref.observation_space
    if not task.startswith("Blackjack"):
        assert obs_space.dtype == ref.observation_space.dtype == np.int64


def test_taxi_info_dtypes():
    with envpool.make("Taxi-v4", num_envs=3) as env:
        _, info = env.reset()
        assert info["prob"].dtype == np.float64
        assert info["action_mask"].dtype == np.int8
        assert info["action_mask"].shape == (3, 6)


# ---------------------------------------------------------------------------
# Whole episodes.

CASES = [
    ("Blackjack-v1", {}),
    ("Blackjack-v1", {"sab": False, "natural": True}),
    ("Blackjack-v1", {"sab": False, "natural": False}),
    ("FrozenLake-v1", {}),
    ("FrozenLake-v1", {"is_slippery": False}),
    ("FrozenLake-v1", {"success_rate": 0.75, "reward_schedule": (5.0, -1.0, -0.01)}),
    ("FrozenLake8x8-v1", {}),
    ("CliffWalking-v1", {}),
    ("CliffWalkingSlippery-v1", {}),
    ("Taxi-v4", {}),
    ("Taxi-v4", {"is_rainy": True}),
    ("Taxi-v4", {"fickle_passenger": True}),
    ("Taxi-v4", {"is_rainy": True, "fickle_passenger": True, "rainy_probability": 0.6}),
    ("Taxi-v4", {"fickle_passenger": True, "fickle_probability": 1.0}),
]


@pytest.mark.parametrize(("task", "options"), CASES, ids=lambda v: str(v))
def test_episodes_replay_in_gymnasium(task, options):
    steps = {"Taxi-v4": 400, "FrozenLake8x8-v1": 1500}.get(task, 250)
    total = Episodes()
    for seed in (0, 11):
        episodes = lockstep(task, seed, steps, options, reseed_at=steps // 2)
        total.terminated += episodes.terminated
        total.truncated += episodes.truncated
        total.rewards.update(episodes.rewards)
        total.probs.update(episodes.probs)
    assert total.terminated > 0
    if task.startswith("Taxi"):
        assert total.rewards[20.0] > 0 and total.rewards[-10.0] > 0
    if task.startswith("CliffWalking"):
        assert total.rewards[-100.0] > 0
    if task.startswith("Blackjack"):
        # every outcome, a natural's bonus included where it applies
        expected = {-1.0, 0.0, 1.0} | ({1.5} if options.get("natural") else set())
        assert expected <= set(total.rewards), total.rewards
        assert 1.5 not in total.rewards or options.get("natural")
    if task.startswith("FrozenLake"):
        goal_reward = options.get("reward_schedule", (1.0,))[0]
        assert total.rewards[goal_reward] > 0, total.rewards
    if task.startswith("FrozenLake") and options.get("is_slippery", True):
        assert len(total.probs) == 2  # the intended move's and a slip's


def test_time_limits_truncate_as_gymnasium():
    def random_driving(obs: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.integers(6))

    def stay_in_corner(obs: np.ndarray, rng: np.random.Generator) -> int:
        return int(rng.choice([0, 3]))  # left or up from the start

    taxi = lockstep("Taxi-v4", 3, 450, {"is_rainy": True}, policy=random_driving)
    assert taxi.truncated >= NUM_ENVS
    lake = lockstep("FrozenLake-v1", 3, 230, {"is_slippery": False}, policy=stay_in_corner)
    assert lake.truncated == 2 * NUM_ENVS and lake.terminated == 0
    lake8 = lockstep("FrozenLake8x8-v1", 3, 230, {"is_slippery": False}, policy=stay_in_corner)
    assert lake8.truncated == NUM_ENVS and lake8.terminated == 0


@pytest.mark.parametrize(
    ("task", "options"),
    [
        ("FrozenLake-v1", {"success_rate": 0.0}),
        ("FrozenLake-v1", {"success_rate": 1.0}),
        ("Taxi-v4", {"is_rainy": True, "rainy_probability": 0.0}),
        ("Taxi-v4", {"is_rainy": True, "rainy_probability": 1.0}),
        ("Taxi-v4", {"fickle_passenger": True, "fickle_probability": 0.0}),
    ],
    ids=lambda v: str(v),
)
def test_probability_edges_replay_in_gymnasium(task, options):
    lockstep(task, 8, 150, options)


@pytest.mark.parametrize(
    "desc",
    [
        ["SFFH", "FFFF", "HFHG"],  # not square
        ["SFSF", "FHFF", "FFFG", "GHFF", "FFSF"],  # several starts and goals
        [["S", "F"], ["H", "G"]],  # lists of letters
    ],
)
def test_custom_maps_replay_in_gymnasium(desc):
    for slippery in (True, False):
        options = {"desc": desc, "is_slippery": slippery}
        episodes = lockstep("FrozenLake-v1", 5, 120, options)
        assert episodes.terminated > 0


def test_random_map_when_desc_and_map_name_are_none():
    with envpool.make("FrozenLake-v1", num_envs=2, map_name=None, render_mode="ansi") as env:
        assert env.single_observation_space == gym.spaces.Discrete(64)
        desc = env.spec.config["desc"].split("\n")
        env.reset()
        text = env.render()[0]
    assert len(desc) == 8 and all(len(row) == 8 for row in desc)
    assert desc[0][0] == "S" and desc[-1][-1] == "G"
    assert text.endswith("\n".join([desc[0][1:], *desc[1:]]) + "\n")
    # The same map in gymnasium replays the same episodes.
    lockstep("FrozenLake-v1", 2, 60, {"desc": desc})


def test_random_lake_has_a_path_and_varies():
    maps = [random_lake() for _ in range(30)]
    assert len({tuple(m) for m in maps}) > 1
    for lake in maps:
        assert frozen_lake.is_valid([list(r) for r in lake], 8)
    holes = sum(row.count("H") for lake in maps for row in lake) / (30 * 62)
    assert 0.1 < holes < 0.3  # about 20% holes, as gymnasium's


def test_desc_forms_are_equivalent():
    rows = ["SFF", "FHF", "FFG"]
    text = "SFF\nFHF\nFFG"
    forms = [
        rows,
        tuple(rows),
        [list(r) for r in rows],
        np.asarray(rows, dtype="c"),
        "SFF\nFHF\nFFG",
    ]
    for form in forms:
        spec = envpool.make_spec("FrozenLake-v1", desc=form)
        assert spec.config["desc"] == text
        assert spec.observation_space == gym.spaces.Discrete(9)


def test_map_name_8x8_on_frozen_lake_v1():
    lockstep("FrozenLake-v1", 4, 80, {"map_name": "8x8"})


def test_different_seeds_give_different_episodes():
    for task, options in [
        ("Blackjack-v1", {}),
        ("FrozenLake-v1", {}),
        ("CliffWalkingSlippery-v1", {}),
        ("Taxi-v4", {}),
    ]:
        first = lockstep(task, 0, 40, options).observations
        second = lockstep(task, 1, 40, options).observations
        again = lockstep(task, 0, 40, options).observations
        assert first == again, task
        assert first != second, task


# ---------------------------------------------------------------------------
# Text rendering.


def test_ansi_text_after_reset_and_steps():
    with envpool.make("FrozenLake-v1", num_envs=1, render_mode="ansi") as env:
        env.reset()
        assert env.render() == ("\n\x1b[41mS\x1b[0mFFF\nFHFH\nFFFH\nHFFG\n",)
    with envpool.make("CliffWalking-v1", num_envs=1, render_mode="ansi") as env:
        env.reset()
        env.step(np.array([0]))
        (text,) = env.render()
    rows = text.split("\n")
    assert rows[2] == "x  o  o  o  o  o  o  o  o  o  o  o"
    assert rows[3] == "o  C  C  C  C  C  C  C  C  C  C  T"
    assert rows[4:] == ["", ""]
    with envpool.make("Taxi-v4", num_envs=1, render_mode="ansi") as env:
        env.reset()
        env.step(np.array([4]))
        (text,) = env.render()
    assert text.endswith("  (Pickup)\n")
    assert text.startswith("+---------+\n")


def test_blackjack_has_no_ansi_rendering():
    with pytest.raises(ValueError, match="no text rendering"):
        envpool.make("Blackjack-v1", render_mode="ansi")


# ---------------------------------------------------------------------------
# Bad input.

BAD_OPTIONS = [
    ("FrozenLake-v1", {"desc": ["SFF", "FG"]}, "desc must be a rectangle"),
    ("FrozenLake-v1", {"desc": ["FFF", "FFG"]}, "no start tile"),
    ("FrozenLake-v1", {"desc": ["SFF", "FFF"]}, "no goal tile"),
    ("FrozenLake-v1", {"desc": ["SFX", "FFG"]}, "only the letters S"),
    ("FrozenLake-v1", {"desc": []}, "desc is empty"),
    ("FrozenLake-v1", {"desc": ""}, "desc is empty"),
    ("FrozenLake-v1", {"desc": ["SF", ""]}, "desc must be a rectangle"),
    ("FrozenLake-v1", {"desc": [["SF", "FG"]]}, "desc must be one map"),
    ("FrozenLake-v1", {"desc": [1, 2]}, "desc must be one map"),
    ("FrozenLake-v1", {"desc": 5}, "desc must be one map"),
    ("FrozenLake-v1", {"map_name": "5x5"}, "map_name must be '4x4' or '8x8'"),
    ("FrozenLake-v1", {"map_name": ["4x4", "8x8"]}, "map_name must be one name"),
    ("FrozenLake-v1", {"success_rate": 1.5}, "success_rate must be a probability"),
    ("FrozenLake-v1", {"success_rate": -0.1}, "success_rate must be a probability"),
    ("FrozenLake-v1", {"success_rate": math.nan}, "success_rate must be a probability"),
    ("FrozenLake-v1", {"reward_schedule": (1.0, 0.0)}, "reward_schedule must hold 3"),
    ("FrozenLake8x8-v1", {"reward_schedule": (1, 0, 0, 0)}, "reward_schedule must hold 3"),
    ("Taxi-v4", {"rainy_probability": 1.5}, "rainy_probability must be a probability"),
    ("Taxi-v4", {"fickle_probability": -0.5}, "fickle_probability must be a probability"),
]


@pytest.mark.parametrize(("task", "options", "message"), BAD_OPTIONS, ids=lambda v: str(v))
def test_bad_options_raise_value_error(task, options, message):
    with pytest.raises(ValueError, match=message):
        envpool.make(task, num_envs=2, **options)
    with pytest.raises(ValueError, match=message):
        envpool.make_spec(task, **options)
    # The process and the next pool are fine.
    with envpool.make(task, num_envs=2) as env:
        env.reset()
        env.step(np.zeros(2, dtype=np.int64))


def test_out_of_range_action_leaves_the_pool_usable():
    with envpool.make("FrozenLake-v1", num_envs=2, seed=0) as env:
        env.reset()
        with pytest.raises(ValueError, match="out of range"):
            env.step(np.array([4, 0]))
        obs, *_ = env.step(np.array([1, 1]))
    ref = gym.make("FrozenLake-v1")
    ref.reset(seed=0)
    assert obs[0] == ref.step(1)[0]


# ---------------------------------------------------------------------------
# Blackjack's Tuple observation, and its flat form.


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_blackjack_batches_its_tuple_as_gymnasium_vector_envs_do(mode):
    seed, n = 11, 4
    ref = gym.vector.SyncVectorEnv(
        [lambda: gym.make("Blackjack-v1") for _ in range(n)],
        autoreset_mode=gym.vector.AutoresetMode[mode.upper()],
    )
    with envpool.make("Blackjack-v1", num_envs=n, seed=seed, autoreset_mode=mode) as env:
        assert env.observation_space == ref.observation_space  # batch_space of the Tuple
        assert env.single_observation_space == gym.make("Blackjack-v1").observation_space
        obs, _ = env.reset()
        g_obs, _ = ref.reset(seed=seed)
        for _ in range(30):
            assert isinstance(obs, tuple) and len(obs) == 3
            for ours, theirs in zip(obs, g_obs, strict=True):
                assert ours.dtype == theirs.dtype and ours.shape == theirs.shape == (n,)
                np.testing.assert_array_equal(ours, theirs)
            assert env.observation_space.contains(tuple(a.copy() for a in obs))
            player_sum = obs[0]  # gymnasium vector code reads the fields this way
            actions = (player_sum < 17).astype(np.int64)
            obs, reward, terminated, truncated, info = env.step(actions)
            g_obs, g_reward, g_term, g_trunc, g_info = ref.step(actions)
            np.testing.assert_array_equal(reward, g_reward)
            np.testing.assert_array_equal(terminated, g_term)
            if "final_obs" not in g_info:  # envpool's same_step always has the key
                assert not info.get("_final_obs", np.zeros(n, bool)).any()
            else:
                np.testing.assert_array_equal(info["_final_obs"], g_info["_final_obs"])
                for ours, theirs in zip(info["final_obs"], g_info["final_obs"], strict=True):
                    assert (ours is None) == (theirs is None)
                    if theirs is not None:
                        assert tuple(map(int, ours)) == tuple(map(int, theirs))
    ref.close()


def test_blackjack_tuple_elements_are_views_of_one_buffer():
    with envpool.make("Blackjack-v1", num_envs=3, seed=0) as env:
        obs, _ = env.reset()
        # zero-copy: strided views into one packed row per env, not copies
        assert all(not a.flags.owndata for a in obs)
        assert len({a.base is not None for a in obs}) == 1


@pytest.mark.parametrize("autoreset_mode", ["same_step", "next_step"])
def test_blackjack_final_obs_and_masked_reset_are_tuples(autoreset_mode):
    with envpool.make("Blackjack-v1", num_envs=4, seed=3, autoreset_mode=autoreset_mode) as env:
        env.reset()
        for _ in range(6):
            obs, _, terminated, truncated, info = env.step(np.ones(4, dtype=np.int64))
            assert isinstance(obs, tuple)
            if "final_obs" in info:  # as gymnasium's vector envs give it for a Tuple space
                final = info["final_obs"]
                assert final.dtype == object and final.shape == (4,)
                for i in range(4):
                    ended = terminated[i] or truncated[i]
                    assert (final[i] is None) != ended
                    if ended:
                        assert isinstance(final[i], tuple) and len(final[i]) == 3
        obs, _ = env.reset(options={"reset_mask": np.array([True, False, True, False])})
        assert isinstance(obs, tuple) and all(a.shape == (4,) for a in obs)


def test_blackjack_flat_observation_is_todays_array_for_libraries_without_tuples():
    with (
        envpool.make("Blackjack-v1", num_envs=4, seed=5) as tuple_env,
        envpool.make("Blackjack-v1", num_envs=4, seed=5, flat_observation=True) as flat_env,
    ):
        space = flat_env.single_observation_space
        assert isinstance(space, gym.spaces.MultiDiscrete) and space.nvec.tolist() == [32, 11, 2]
        flat, _ = flat_env.reset()
        tup, _ = tuple_env.reset()
        assert flat.shape == (4, 3) and flat.dtype == np.int64
        np.testing.assert_array_equal(flat, np.stack(tup, axis=1))
        for _ in range(10):
            actions = np.ones(4, dtype=np.int64)
            flat = flat_env.step(actions)[0]
            tup = tuple_env.step(actions)[0]
            np.testing.assert_array_equal(flat, np.stack(tup, axis=1))


def test_blackjack_dm_observation_names_the_tuple_elements():
    with envpool.make("Blackjack-v1", env_type="dm", num_envs=2, seed=0) as env:
        ts = env.reset()
        spec = env.observation_spec()
        for name, n in (("player_sum", 32), ("dealer_card", 11), ("usable_ace", 2)):
            assert spec[name].num_values == n
            assert ts.observation[name].shape == (2,)


def test_blackjack_xla_step_gives_the_same_tuples_as_python_steps():
    jax = pytest.importorskip("jax")
    actions = [np.array([1, 0, 1, 1]), np.array([0, 1, 1, 0]), np.array([1, 1, 0, 0])]
    with envpool.make("Blackjack-v1", num_envs=4, seed=2) as env:
        env.reset()
        expected = [env.step(a)[0] for a in actions]
    with envpool.make("Blackjack-v1", num_envs=4, seed=2) as env:
        env.reset()
        handle, _, _, step = env.xla()
        step = jax.jit(step)
        for a, want in zip(actions, expected, strict=True):
            handle, (obs, *_) = step(handle, a)
            assert isinstance(obs, tuple) and len(obs) == 3
            for ours, theirs in zip(obs, want, strict=True):
                np.testing.assert_array_equal(np.asarray(ours), theirs)
