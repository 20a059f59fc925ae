"""The installed envpool-gridworld package, through envpool's public API.

Every step is checked against ``Reference``, a plain numpy grid world written
from the rules in the package's README; the only thing taken from the pool is
where each episode starts (``info["position"]`` of a reset row), which the
reference checks is a floor cell.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass
from importlib import metadata

import dm_env
import numpy as np
import pytest

import envpool

MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left
FIRST, MID, LAST = (int(t) for t in dm_env.StepType)
SMALL_LAYOUT = "#######/#.....#/#.##..#/#..#.G#/#######"


def default_layout() -> str:
    return envpool.make_spec("GridWorld-v0").config["layout"]


@dataclass
class Expected:
    obs: np.ndarray
    position: tuple[int, int]
    reward: float
    terminated: bool
    truncated: bool
    elapsed: int


class Reference:
    """A pure numpy GridWorld that mirrors each env of a pool, keyed by env id."""

    def __init__(
        self,
        layout: str,
        max_episode_steps: int,
        step_reward: float = -0.01,
        goal_reward: float = 1.0,
    ) -> None:
        self.cells = np.array([list(row) for row in layout.split("/")])
        self.height, self.width = self.cells.shape
        (self.goal,) = (tuple(int(x) for x in p) for p in np.argwhere(self.cells == "G"))
        self.max_episode_steps = max_episode_steps
        self.step_reward = step_reward
        self.goal_reward = goal_reward
        self.pos: dict[int, tuple[int, int]] = {}
        self.elapsed: dict[int, int] = {}
        self.ended: dict[int, bool] = {}

    def is_wall(self, row: int, col: int) -> bool:
        inside = 0 <= row < self.height and 0 <= col < self.width
        return not inside or self.cells[row, col] == "#"

    def move(self, pos: tuple[int, int], action: int) -> tuple[int, int]:
        row, col = pos[0] + MOVES[action][0], pos[1] + MOVES[action][1]
        return pos if self.is_wall(row, col) else (row, col)

    def planes(self, pos: tuple[int, int]) -> np.ndarray:
        obs = np.zeros((3, self.height, self.width), dtype=np.uint8)
        obs[0] = self.cells == "#"
        obs[1][pos] = 1
        obs[2] = self.cells == "G"
        return obs

    def reset(self, env_id: int, start: tuple[int, int]) -> Expected:
        """A reset row: the start is the pool's, but must be a floor cell."""
        assert self.cells[start] == ".", f"env {env_id} started on {self.cells[start]!r}"
        self.pos[env_id], self.elapsed[env_id], self.ended[env_id] = start, 0, False
        return Expected(self.planes(start), start, 0.0, False, False, 0)

    def step(self, env_id: int, action: int, reported: tuple[int, int]) -> Expected:
        """The next row of ``env_id`` under next-step autoreset."""
        if self.ended[env_id]:
            return self.reset(env_id, reported)
        pos = self.pos[env_id] = self.move(self.pos[env_id], action)
        self.elapsed[env_id] += 1
        terminated = pos == self.goal
        truncated = self.elapsed[env_id] >= self.max_episode_steps
        self.ended[env_id] = terminated or truncated
        reward = self.goal_reward if terminated else self.step_reward
        return Expected(self.planes(pos), pos, reward, terminated, truncated, self.elapsed[env_id])


def position(info: dict, row: int) -> tuple[int, int]:
    return (int(info["position"][row][0]), int(info["position"][row][1]))


def assert_row(exp: Expected, obs, reward, terminated, truncated, info, row: int) -> None:
    np.testing.assert_array_equal(obs[row], exp.obs)
    assert position(info, row) == exp.position
    assert reward[row] == exp.reward
    assert bool(terminated[row]) == exp.terminated
    assert bool(truncated[row]) == exp.truncated
    assert info["elapsed_step"][row] == exp.elapsed


# 1. Registration through the entry point.


def test_tasks_are_registered_through_the_entry_point():
    assert {"GridWorld-v0", "GridWorldSlippery-v0"} <= set(envpool.list_all_envs())
    (entry,) = (e for e in metadata.entry_points(group="envpool.envs") if e.name == "gridworld")
    assert entry.value == "envpool_gridworld:register_envs"
    assert envpool.make_spec("GridWorld-v0").config["max_episode_steps"] == 100
    assert envpool.make_spec("GridWorldSlippery-v0").config["slip_prob"] == 0.2


def test_a_fresh_interpreter_makes_the_env_without_importing_the_package(tmp_path):
    code = """
        import sys
        import envpool
        assert "envpool_gridworld" not in sys.modules
        env = envpool.make("GridWorld-v0", num_envs=2)
        obs, info = env.reset(seed=0)
        assert obs.shape == (2, 3, 9, 9), obs.shape
        print("ok")
    """
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_register_envs_again_is_harmless():
    import envpool_gridworld

    envpool.list_all_envs()  # the entry point has run
    envpool_gridworld.register_envs()
    envpool_gridworld.register_envs()
    assert envpool.list_all_envs().count("GridWorld-v0") == 1


def test_spaces():
    spec = envpool.make_spec("GridWorld-v0")
    assert spec.observation_space.shape == (3, 9, 9)
    assert spec.observation_space.dtype == np.uint8
    assert spec.observation_space.low.min() == 0
    assert spec.observation_space.high.max() == 1
    assert spec.action_space.n == 4
    assert spec.info == {"position": (np.dtype(np.int32), (2,))}
    layout = default_layout()
    assert layout.count("G") == 1
    assert envpool.make_spec("GridWorld-v0", layout=SMALL_LAYOUT).observation_space.shape == (
        3,
        5,
        7,
    )


# 2. Faithfulness to the reference.


@pytest.mark.parametrize(
    ("options", "max_steps", "seed"),
    [
        ({}, 100, 0),
        ({}, 25, 1),
        ({"layout": SMALL_LAYOUT, "step_reward": -0.5, "goal_reward": 10.0}, 12, 2),
    ],
    ids=["default", "short-episodes", "small-layout"],
)
def test_matches_reference(options, max_steps, seed):
    num_envs, num_steps = 4, 400
    ref = Reference(
        options.get("layout", default_layout()),
        max_steps,
        options.get("step_reward", -0.01),
        options.get("goal_reward", 1.0),
    )
    rng = np.random.default_rng(seed)
    counts = {"terminated": 0, "truncated": 0}
    with envpool.make(
        "GridWorld-v0",
        num_envs=num_envs,
        seed=seed,
        max_episode_steps=max_steps,
        **options,
    ) as env:
        obs, info = env.reset()
        zeros = np.zeros(num_envs)
        for i in range(num_envs):
            exp = ref.reset(i, position(info, i))
            assert_row(exp, obs, zeros, zeros, zeros, info, i)
        for _ in range(num_steps):
            actions = rng.integers(0, 4, size=num_envs)
            obs, reward, terminated, truncated, info = env.step(actions)
            assert obs.dtype == np.uint8 and reward.dtype == np.float64
            np.testing.assert_array_equal(info["env_id"], np.arange(num_envs))
            for i in range(num_envs):
                exp = ref.step(i, int(actions[i]), position(info, i))
                assert_row(exp, obs, reward, terminated, truncated, info, i)
            counts["terminated"] += int(terminated.sum())
            counts["truncated"] += int(truncated.sum())
    # The run covered both ways an episode ends (and so next-step resets).
    assert counts["terminated"] > 0 and counts["truncated"] > 0, counts


# 3. Every API mode.


def test_gymnasium_front_end():
    with envpool.make("GridWorld-v0", env_type="gymnasium", num_envs=5) as env:
        assert env.single_observation_space.shape == (3, 9, 9)
        assert env.single_action_space.n == 4
        obs, info = env.reset(seed=3)
        assert obs.shape == (5, 3, 9, 9)
        assert info["position"].shape == (5, 2) and info["position"].dtype == np.int32
        obs, reward, terminated, truncated, info = env.step(np.array([0, 1, 2, 3, 0]))
        assert obs.shape == (5, 3, 9, 9) and reward.shape == (5,)
        assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
        with pytest.raises(ValueError):
            env.step(np.array([0, 1, 2, 3, 4]))  # 4 is outside Discrete(4)


def test_dm_front_end_matches_reference():
    num_envs, max_steps = 3, 30
    ref = Reference(default_layout(), max_steps)
    rng = np.random.default_rng(4)
    seen_last = {"discount 0": 0, "discount 1": 0}
    with envpool.make_dm("GridWorld-v0", num_envs=num_envs, max_episode_steps=max_steps) as env:
        obs_spec = env.observation_spec()
        assert set(obs_spec) >= {"obs", "env_id", "elapsed_step", "position"}
        assert obs_spec["obs"].shape == (3, 9, 9)
        assert env.action_spec().num_values == 4
        ts = env.reset(seed=5)
        np.testing.assert_array_equal(ts.step_type, [FIRST] * num_envs)
        for i in range(num_envs):
            exp = ref.reset(i, position(ts.observation, i))
            np.testing.assert_array_equal(ts.observation["obs"][i], exp.obs)
        for _ in range(300):
            actions = rng.integers(0, 4, size=num_envs)
            ts = env.step(actions)
            for i in range(num_envs):
                for key, value_spec in obs_spec.items():
                    value_spec.validate(ts.observation[key][i])
                exp = ref.step(i, int(actions[i]), position(ts.observation, i))
                np.testing.assert_array_equal(ts.observation["obs"][i], exp.obs)
                assert position(ts.observation, i) == exp.position
                assert ts.observation["elapsed_step"][i] == exp.elapsed
                if exp.elapsed == 0:
                    assert ts.step_type[i] == FIRST and ts.reward[i] == 0.0
                    continue
                assert ts.reward[i] == exp.reward
                ended = exp.terminated or exp.truncated
                assert ts.step_type[i] == (LAST if ended else MID)
                assert ts.discount[i] == (0.0 if exp.terminated else 1.0)
                if ended:
                    seen_last[f"discount {int(ts.discount[i])}"] += 1
    assert seen_last["discount 0"] > 0 and seen_last["discount 1"] > 0, seen_last


def test_async_send_recv():
    num_envs, batch_size, max_steps = 6, 2, 40
    ref = Reference(default_layout(), max_steps)
    rng = np.random.default_rng(6)
    actions_of: dict[int, int] = {}
    rows_per_env = np.zeros(num_envs, dtype=int)
    with envpool.make(
        "GridWorld-v0",
        num_envs=num_envs,
        batch_size=batch_size,
        num_threads=3,
        max_episode_steps=max_steps,
    ) as env:
        assert env.is_async
        env.async_reset()
        for _ in range(600):
            obs, reward, terminated, truncated, info = env.recv()
            ids = info["env_id"]
            assert obs.shape == (batch_size, 3, 9, 9)
            assert ids.shape == (batch_size,)
            assert len(set(ids.tolist())) == batch_size
            assert ((ids >= 0) & (ids < num_envs)).all()
            for row, env_id in enumerate(ids.tolist()):
                if env_id not in actions_of:  # the async_reset row
                    exp = ref.reset(env_id, position(info, row))
                else:
                    exp = ref.step(env_id, actions_of[env_id], position(info, row))
                assert_row(exp, obs, reward, terminated, truncated, info, row)
                rows_per_env[env_id] += 1
            actions = rng.integers(0, 4, size=batch_size)
            actions_of.update(zip(ids.tolist(), actions.tolist(), strict=True))
            env.send(actions, ids)
    assert (rows_per_env > 0).all(), rows_per_env


# 4. Per-env options.


def test_per_env_slip_prob():
    num_envs, num_steps = 3, 3000
    layout = default_layout()
    ref = Reference(layout, 100)
    rng = np.random.default_rng(7)
    off_course = np.zeros(num_envs, dtype=int)
    moves = np.zeros(num_envs, dtype=int)
    with envpool.make("GridWorld-v0", num_envs=num_envs, seed=8, slip_prob=[0.0, 0.5, 1.0]) as env:
        assert env.single_observation_space.shape == (3, 9, 9)
        _, info = env.reset()
        before = [position(info, i) for i in range(num_envs)]
        ref.reset(0, before[0])
        for _ in range(num_steps):
            actions = rng.integers(0, 4, size=num_envs)
            obs, reward, terminated, truncated, info = env.step(actions)
            # Env 0 never slips: it follows the reference exactly.
            assert_row(
                ref.step(0, int(actions[0]), position(info, 0)),
                obs,
                reward,
                terminated,
                truncated,
                info,
                0,
            )
            for i in range(num_envs):
                after = position(info, i)
                if info["elapsed_step"][i] > 0:
                    # Slipping or not, the agent took one legal move.
                    assert after in {ref.move(before[i], a) for a in range(4)}
                    moves[i] += 1
                    off_course[i] += after != ref.move(before[i], int(actions[i]))
                before[i] = after
    rate = off_course / moves
    assert off_course[0] == 0
    # Env 2 always takes a random action (the chosen one only 1 time in 4), env
    # 1 half the time; a blocked move can coincide with the chosen one.
    assert 0.45 < rate[2] < 0.85, rate
    assert 0.2 < rate[1] < rate[2] - 0.1, rate


# 5. Bad options.


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"layout": "#####/#G.G#/#####"}, "exactly one goal 'G', found 2"),
        ({"layout": "#####/#...#/#####"}, "exactly one goal 'G', found 0"),
        ({"layout": "#####/#.G#/#####"}, "not rectangular"),
        ({"layout": "#####/#.xG#/#####"}, "character 'x'"),
        ({"layout": "#####/##G##/#####"}, "floor cell"),
        ({"layout": ""}, "empty"),
        ({"slip_prob": 1.5}, "slip_prob must be in \\[0, 1\\]"),
        ({"slip_prob": -0.1}, "slip_prob"),
    ],
    ids=["two-goals", "no-goal", "ragged", "bad-char", "no-floor", "empty", "slip>1", "slip<0"],
)
def test_bad_options_raise_value_error(options, message):
    with pytest.raises(ValueError, match=message):
        envpool.make_spec("GridWorld-v0", **options)
    with pytest.raises(ValueError, match=message):
        envpool.make("GridWorld-v0", num_envs=2, **options)
    # Nothing is left broken.
    with envpool.make("GridWorld-v0", num_envs=2) as env:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (2, 3, 9, 9)
        env.step(np.array([1, 2]))


def test_bad_per_env_layout_raises_value_error():
    # The spec sees env 0's layout; env 1's is checked when it is built.
    with pytest.raises(ValueError, match="found 2"):
        envpool.make("GridWorld-v0", num_envs=2, layout=["#G.", "#GG"])


# 6. Seeding.


def rollout(env, actions: np.ndarray) -> list[np.ndarray]:
    obs, info = env.reset()
    out = [obs.copy(), info["position"].copy()]
    for a in actions:
        obs, reward, terminated, truncated, info = env.step(a)
        out += [obs.copy(), reward.copy(), terminated.copy(), truncated.copy()]
        out += [info["position"].copy(), info["elapsed_step"].copy()]
    return out


def test_same_seed_same_trajectories():
    num_envs = 4
    actions = np.random.default_rng(9).integers(0, 4, size=(300, num_envs))
    runs = []
    for num_threads in (1, 4):
        with envpool.make(
            "GridWorldSlippery-v0", num_envs=num_envs, seed=42, num_threads=num_threads
        ) as env:
            runs.append(rollout(env, actions))
    for a, b in zip(*runs, strict=True):
        np.testing.assert_array_equal(a, b)


def test_different_seeds_different_starts():
    num_envs = 8
    starts = []
    for seed in (0, 1000):
        with envpool.make("GridWorld-v0", num_envs=num_envs, seed=seed) as env:
            _, info = env.reset()
            starts.append(info["position"].copy())
            # Env i is seeded with seed + i: its starts differ across the pool.
            assert len({tuple(p) for p in starts[-1]}) > 1
            # reset(seed=...) replays make(seed=...).
            _, info = env.reset(seed=seed)
            np.testing.assert_array_equal(info["position"], starts[-1])
    assert (starts[0] != starts[1]).any(axis=1).sum() >= num_envs // 2, starts


def test_different_seeds_different_slips():
    actions = np.zeros((200, 2), dtype=np.int64)
    runs = []
    for seed in (1, 2):
        with envpool.make(
            "GridWorld-v0", num_envs=2, seed=seed, slip_prob=1.0, layout=SMALL_LAYOUT
        ) as env:
            env.reset()
            runs.append(np.stack([env.step(a)[4]["position"].copy() for a in actions]))
    assert not np.array_equal(runs[0], runs[1])
