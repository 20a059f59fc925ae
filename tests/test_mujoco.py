"""The MuJoCo tasks against gymnasium's own v5 envs (gymnasium/envs/mujoco/*_v5.py).

Every envpool episode starts at the state in its reset info (``info["qpos0"]``,
``info["qvel0"]``); that state is loaded into ``gymnasium.make(task).unwrapped``
with ``set_state``, and both then take the same random float32 actions through
whole episodes, terminations, time limits and autoresets included. Observations,
rewards must agree bit for bit (on any CPU: see EXACT_OBS and EXACT_REWARD), info
values too (within 1e-6 under numpy 1.x), and flags exactly.

Initial states are compared as distributions (two-sample Kolmogorov-Smirnov
per coordinate, plus the deterministic parts of each task's reset), options as
behaviour (the same option given to both must keep them in step), and bad
actions must be rejected without touching the pool.

numpy 1.x: gymnasium's reward terms built from float32 actions (the control
costs) are promoted to float64 under numpy 1.x but stay float32 under numpy 2
(NEP 50). envpool follows numpy 2, so under numpy 1.x rewards are only compared
within 1e-6, never exactly.

``python tests/test_mujoco.py [TASK ...]`` prints the largest differences per
task without stopping at the first one.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from conftest import assert_steps_ok

import envpool

TASKS = [
    "Ant-v5",
    "HalfCheetah-v5",
    "Hopper-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5",
    "InvertedPendulum-v5",
    "Pusher-v5",
    "Reacher-v5",
    "Swimmer-v5",
    "Walker2d-v5",
]

ATOL = 1e-6
NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"

# Tasks whose observation must be bit-exact: all of them. Reacher and
# InvertedDoublePendulum take np.sin/np.cos of joint angles, which numpy may compute
# with its own SIMD kernels on some CPUs; envpool calls numpy's own loops there
# (envpool.numpy_parity), so the result is numpy's on any CPU.
EXACT_OBS = set(TASKS)

# Tasks whose reward must be bit-exact under numpy 2: all of them. Reacher and Pusher
# take np.linalg.norm, a BLAS ddot whose rounding depends on the CPU's OpenBLAS kernel
# (an FMA chain on AVX-512, separate products on AVX2): envpool calls numpy's ddot.
EXACT_REWARD = set() if NUMPY_1 else set(TASKS)

# How many steps each lockstep test compares per env.
EPISODE_STEPS = 1000
OPTION_STEPS = 300


# --------------------------------------------------------------------------
# helpers


@pytest.fixture(autouse=True, scope="module")
def _run_in_tmp_dir(tmp_path_factory):
    """MuJoCo appends its warnings (e.g. HumanoidStandup's deprecated settotalmass)
    to MUJOCO_LOG.TXT in the working directory: keep that file out of the checkout."""
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path_factory.mktemp("mujoco_cwd"))
        yield


def make_ref(task: str, **options: Any) -> Any:
    """gymnasium's own env for ``task`` (without wrappers); imports gymnasium's MuJoCo envs."""
    return gym.make(task, disable_env_checker=True, **options).unwrapped


def max_steps(task: str) -> int:
    """The task's gymnasium TimeLimit."""
    return gym.spec(task).max_episode_steps


def diff(ours: Any, theirs: Any) -> float:
    """Largest absolute difference; 0 for equal arrays (NaN equals NaN), inf for a
    shape mismatch or a NaN/inf on one side only."""
    ours = np.asarray(ours, dtype=np.float64)
    theirs = np.asarray(theirs, dtype=np.float64)
    if ours.shape != theirs.shape:
        return np.inf
    same = (ours == theirs) | (np.isnan(ours) & np.isnan(theirs))
    if same.all():
        return 0.0
    with np.errstate(invalid="ignore"):
        d = np.abs(ours - theirs)[~same]
    return float(np.max(np.nan_to_num(d, nan=np.inf)))


def describe(ours: Any, theirs: Any) -> str:
    """The differing entries of two arrays, for a failure message."""
    ours = np.atleast_1d(np.asarray(ours, dtype=np.float64))
    theirs = np.atleast_1d(np.asarray(theirs, dtype=np.float64))
    if ours.shape != theirs.shape:
        return f"shape {ours.shape} != gymnasium's {theirs.shape}"
    bad = np.flatnonzero((ours != theirs) & ~(np.isnan(ours) & np.isnan(theirs)))
    items = ", ".join(
        f"[{k}] {ours.flat[k]!r} vs {theirs.flat[k]!r} (diff {ours.flat[k] - theirs.flat[k]:.3g})"
        for k in bad[:6]
    )
    more = f" and {len(bad) - 6} more" if len(bad) > 6 else ""
    return f"{len(bad)} of {ours.size} entries differ (ours vs gymnasium): {items}{more}"


def reward_tolerance(reward: Any, info: dict) -> float:
    """How far a reward (or a reward term in info) may be from gymnasium's: ATOL,
    plus under numpy 1.x the float32 rounding of the control costs that numpy 1.x
    computes in float64 (relative to the largest reward term; 5x actions make
    control costs in the hundreds)."""
    if not NUMPY_1:
        return ATOL
    terms = [abs(float(reward))]
    terms += [abs(float(v)) for k, v in info.items() if k.startswith("reward")]
    return ATOL + 1e-6 * max(terms)


def random_actions(
    rng: np.random.Generator, space: Any, num_envs: int, scale: float = 1.0
) -> np.ndarray:
    """Uniform float32 actions within ``scale`` times the bounds."""
    low = np.asarray(space.low, np.float64) * scale
    high = np.asarray(space.high, np.float64) * scale
    return rng.uniform(low, high, size=(num_envs, *space.shape)).astype(np.float32)


class Lockstep:
    """An envpool pool and one gymnasium env per pool env, stepped side by side.

    ``options`` go to envpool; ``ref_options`` (one dict per env, default
    ``options`` for every env) to gymnasium. With ``strict`` every difference
    beyond what is allowed fails at once; otherwise differences are only
    recorded (``summary()``), for the diagnostic ``__main__``.
    """

    def __init__(
        self,
        task: str,
        num_envs: int = 2,
        seed: int = 0,
        options: dict[str, Any] | None = None,
        ref_options: list[dict[str, Any]] | None = None,
        strict: bool = True,
    ) -> None:
        options = dict(options or {})
        self.task = task
        self.num_envs = num_envs
        self.strict = strict
        self.env = envpool.make_gymnasium(task, num_envs=num_envs, seed=seed, **options)
        if ref_options is None:
            ref_options = [options] * num_envs
        # gymnasium's envs with their TimeLimit (the flag we check truncation
        # against), and the MujocoEnv inside each
        self.wrapped = [gym.make(task, disable_env_checker=True, **kw) for kw in ref_options]
        self.refs = [w.unwrapped for w in self.wrapped]
        self.max_steps = max_steps(task)
        self.exact_obs = task in EXACT_OBS
        self.exact_reward = task in EXACT_REWARD
        self.elapsed = np.zeros(num_envs, dtype=np.int64)
        self.ended = np.zeros(num_envs, dtype=bool)
        self.compared = np.zeros(num_envs, dtype=np.int64)
        self.exact_obs_steps = np.zeros(num_envs, dtype=np.int64)
        self.exact_reward_steps = np.zeros(num_envs, dtype=np.int64)
        self.terminations = np.zeros(num_envs, dtype=np.int64)
        self.truncations = np.zeros(num_envs, dtype=np.int64)
        self.episodes = np.zeros(num_envs, dtype=np.int64)
        self.max_diff: dict[str, float] = {}
        self.problems: list[str] = []
        self._ref_seed = 0

    def close(self) -> None:
        self.env.close()

    def __enter__(self) -> Lockstep:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- checks ------------------------------------------------------------

    def _fail(self, message: str) -> None:
        if self.strict:
            pytest.fail(message)
        if len(self.problems) < 20:
            self.problems.append(message)

    def _compare(
        self, kind: str, ours: Any, theirs: Any, where: str, exact: bool, tol: float = ATOL
    ) -> float:
        d = diff(ours, theirs)
        self.max_diff[kind] = max(self.max_diff.get(kind, 0.0), d)
        if d > (0.0 if exact else tol):
            bound = "exactly" if exact else f"within {tol:.3g}"
            self._fail(f"{where}: {kind} not equal {bound}: {describe(ours, theirs)}")
        return d

    def _compare_info(
        self, info: dict, i: int, ref_info: dict, where: str, tol: float = ATOL
    ) -> None:
        for key, value in ref_info.items():
            if key not in info:
                self._fail(f"{where}: info lacks gymnasium's key {key!r}")
                continue
            self._compare(f"info[{key!r}]", info[key][i], value, where, self.exact_reward, tol=tol)

    def _sync(self, i: int, obs: np.ndarray, info: dict, where: str) -> None:
        """Loads env i's new episode into gymnasium and checks the reset row."""
        ref = self.refs[i]
        # gymnasium's reset: restarts the TimeLimit and calls mj_resetData
        self.wrapped[i].reset(seed=self._ref_seed)
        self._ref_seed += 1
        ref.set_state(np.array(info["qpos0"][i]), np.array(info["qvel0"][i]))
        self._compare("reset obs", obs[i], ref._get_obs(), where, self.exact_obs)
        self._compare_info(info, i, ref._get_reset_info(), where)
        if info["elapsed_step"][i] != 0:
            self._fail(f"{where}: elapsed_step {info['elapsed_step'][i]} on a reset row")
        self.elapsed[i] = 0
        self.ended[i] = False

    # -- driving -----------------------------------------------------------

    def reset(self) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset()
        np.testing.assert_array_equal(info["env_id"], np.arange(self.num_envs))
        for i in range(self.num_envs):
            self._sync(i, obs, info, f"{self.task} env {i} reset")
        return obs, info

    def step(self, actions: np.ndarray) -> tuple:
        out = self.env.step(actions)
        obs, reward, terminated, truncated, info = out
        np.testing.assert_array_equal(info["env_id"], np.arange(self.num_envs))
        for i in range(self.num_envs):
            where = (
                f"{self.task} env {i}, episode {self.episodes[i]}, "
                f"episode step {self.elapsed[i] + 1} (step {self.compared[i] + 1} compared)"
            )
            if self.ended[i]:  # next_step autoreset: this step only reset env i
                where = f"{self.task} env {i}, reset after episode {self.episodes[i]}"
                if reward[i] != 0 or terminated[i] or truncated[i]:
                    self._fail(f"{where}: reset row has reward/flags set")
                self.episodes[i] += 1
                self._sync(i, obs, info, where)
                continue
            g_obs, g_reward, g_term, g_trunc, g_info = self.wrapped[i].step(actions[i])
            self.elapsed[i] += 1
            self.compared[i] += 1
            assert g_trunc == (self.elapsed[i] >= self.max_steps)  # the TimeLimit's doing
            tol = reward_tolerance(g_reward, g_info)
            d_obs = self._compare("obs", obs[i], g_obs, where, self.exact_obs)
            d_reward = self._compare(
                "reward", reward[i], g_reward, where, self.exact_reward, tol=tol
            )
            self.exact_obs_steps[i] += d_obs == 0
            self.exact_reward_steps[i] += d_reward == 0
            if bool(terminated[i]) != bool(g_term):
                self._fail(f"{where}: terminated {terminated[i]}, gymnasium's {g_term}")
            if bool(truncated[i]) != g_trunc:
                self._fail(
                    f"{where}: truncated {truncated[i]}, gymnasium's TimeLimit "
                    f"({self.max_steps} steps) gives {g_trunc}"
                )
            if info["elapsed_step"][i] != self.elapsed[i]:
                self._fail(f"{where}: elapsed_step {info['elapsed_step'][i]}")
            self._compare_info(info, i, g_info, where, tol=tol)
            self.terminations[i] += bool(terminated[i])
            self.truncations[i] += bool(truncated[i])
            self.ended[i] = bool(terminated[i] or truncated[i])
        return out

    def run(self, steps: int, rng: np.random.Generator, scale: float = 1.0) -> None:
        """Random actions until every env has compared ``steps`` steps (and the
        reset after an episode that ended on the last of them)."""
        space = self.env.single_action_space
        while self.compared.min() < steps or self.ended.any():
            self.step(random_actions(rng, space, self.num_envs, scale))

    def summary(self) -> str:
        n = self.compared
        diffs = ", ".join(f"{k} {v:.3g}" for k, v in sorted(self.max_diff.items()) if v > 0)
        return (
            f"{self.task}: steps compared {n.tolist()}, bit-exact obs "
            f"{self.exact_obs_steps.tolist()}, bit-exact reward "
            f"{self.exact_reward_steps.tolist()}, terminated {self.terminations.tolist()}, "
            f"truncated {self.truncations.tolist()}; max diffs: {diffs or 'none'}"
        )


def ks_statistic(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sample Kolmogorov-Smirnov statistic: the largest gap between the
    empirical CDFs of ``a`` and ``b``."""
    a = np.sort(np.asarray(a, dtype=np.float64))
    b = np.sort(np.asarray(b, dtype=np.float64))
    points = np.concatenate([a, b])
    cdf_a = np.searchsorted(a, points, side="right") / len(a)
    cdf_b = np.searchsorted(b, points, side="right") / len(b)
    return float(np.max(np.abs(cdf_a - cdf_b)))


def ks_critical(n: int, m: int, alpha: float) -> float:
    """The statistic above which two samples of sizes n and m differ at level alpha
    (asymptotic two-sided critical value)."""
    return float(np.sqrt(-np.log(alpha / 2) / 2) * np.sqrt((n + m) / (n * m)))


# --------------------------------------------------------------------------
# registry and spaces


def test_registry_lists_the_tasks():
    from envpool.families.mujoco import tasks as mujoco_tasks

    assert sorted(mujoco_tasks.TASKS) == sorted(TASKS)
    registered = set(envpool.list_all_envs())
    for task in TASKS:
        assert task in registered
        assert mujoco_tasks.TASKS[task][1] == max_steps(task)


@pytest.mark.parametrize("task", TASKS)
def test_spaces_match_gymnasium(task):
    ref = make_ref(task)
    spec = envpool.make_spec(task)
    assert spec.config["max_episode_steps"] == max_steps(task)
    with envpool.make_gymnasium(task, num_envs=2) as env:
        for ours in (env.single_action_space, spec.action_space):
            theirs = ref.action_space
            assert isinstance(ours, gym.spaces.Box)
            assert ours.dtype == theirs.dtype == np.float32
            assert ours.shape == theirs.shape
            np.testing.assert_array_equal(ours.low, theirs.low)
            np.testing.assert_array_equal(ours.high, theirs.high)
            assert ours == theirs
        for ours in (env.single_observation_space, spec.observation_space):
            theirs = ref.observation_space
            assert isinstance(ours, gym.spaces.Box)
            assert ours.shape == theirs.shape
            assert ours.dtype == theirs.dtype == np.float64
            np.testing.assert_array_equal(ours.low, theirs.low)
            np.testing.assert_array_equal(ours.high, theirs.high)


def _gym_option_defaults(task: str) -> dict[str, Any]:
    """gymnasium's constructor options of the task, with their defaults."""
    cls = type(make_ref(task))
    params = inspect.signature(cls.__init__).parameters
    skip = {"self", "kwargs", "default_camera_config"}  # rendering only
    return {k: p.default for k, p in params.items() if k not in skip}


@pytest.mark.parametrize("task", TASKS)
def test_options_mirror_gymnasium_constructor(task):
    """Every gymnasium constructor option is an envpool option, with the same default."""
    config = envpool.make_spec(task).config
    for name, default in _gym_option_defaults(task).items():
        assert name in config, f"{task}: gymnasium's option {name!r} is missing"
        ours = config[name]
        if isinstance(default, tuple):
            assert tuple(ours) == default, (name, ours, default)
        elif isinstance(default, bool):
            assert ours is default or ours == default, (name, ours, default)
        elif isinstance(default, (int, float)):
            assert float(ours) == float(default), (name, ours, default)
        else:
            assert ours == default, (name, ours, default)


# --------------------------------------------------------------------------
# 1. whole episodes, step for step


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
@pytest.mark.parametrize("task", TASKS)
def test_episodes_match_gymnasium(task):
    """Both envs of a pool through EPISODE_STEPS steps of random actions."""
    with Lockstep(task, num_envs=2, seed=11) as lock:
        obs, info = lock.reset()
        assert not np.array_equal(info["qpos0"][0], info["qpos0"][1]), "envs share a start"
        lock.run(EPISODE_STEPS, np.random.default_rng(1))
        print(lock.summary())
        assert (lock.compared >= EPISODE_STEPS).all()
        # each env finished at least one episode and was compared past its reset
        assert (lock.terminations + lock.truncations >= 1).all()
        assert (lock.episodes >= 1).all()
        if max_steps(task) < EPISODE_STEPS:
            assert (lock.truncations >= EPISODE_STEPS // max_steps(task) - 1).all()


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
def test_numpy_kernels_are_in_use():
    """Reacher's and Pusher's norms and Reacher's sines call numpy's own BLAS and
    loops (their rounding depends on the CPU); without them the lockstep tests
    above could pass on one CPU and fail on the next."""
    from envpool.families.mujoco import tasks as mujoco_tasks

    envpool.make("Reacher-v5", num_envs=1).close()  # loads envpool._mujoco
    assert {"blas", "sin", "cos"} <= set(mujoco_tasks.NUMPY_LOOPS)


def test_inverted_double_pendulum_long_run():
    """InvertedDoublePendulum's penalties square numpy float64 scalars with ``**``,
    which numpy computes with libm's pow: not always x * x (a port that
    multiplies is off by an ulp in the reward on a few steps in 10,000, in the
    penalty infos more often). A long run catches that."""
    with Lockstep("InvertedDoublePendulum-v5", num_envs=2, seed=11) as lock:
        lock.reset()
        lock.run(5000, np.random.default_rng(1))
        print(lock.summary())


def test_time_limit_overrides_like_gymnasium():
    """max_episode_steps moves the truncation as gymnasium's max_episode_steps does."""
    task = "HalfCheetah-v5"
    env = envpool.make_gymnasium(task, num_envs=1, seed=0, max_episode_steps=7)
    ref = gym.make(task, max_episode_steps=7, disable_env_checker=True)
    with env:
        _, info = env.reset()
        ref.reset(seed=0)
        ref.unwrapped.set_state(info["qpos0"][0].copy(), info["qvel0"][0].copy())
        rng = np.random.default_rng(0)
        for t in range(1, 8):
            a = random_actions(rng, env.single_action_space, 1)
            obs, reward, terminated, truncated, info = env.step(a)
            g_obs, g_reward, g_term, g_trunc, _ = ref.step(a[0])
            np.testing.assert_array_equal(obs[0], g_obs)
            assert (bool(terminated[0]), bool(truncated[0])) == (g_term, g_trunc), t
        assert truncated[0]


# --------------------------------------------------------------------------
# 2. reset info


@pytest.mark.parametrize("task", TASKS)
def test_info_has_gymnasium_keys(task):
    ref = make_ref(task)
    _, ref_reset_info = ref.reset(seed=0)
    action = ref.action_space.sample()
    _, _, _, _, ref_step_info = ref.step(action)
    n = 3
    with envpool.make_gymnasium(task, num_envs=n, seed=5) as env:
        obs, info = env.reset()
        assert obs.shape == (n, *ref.observation_space.shape)
        assert obs.dtype == np.float64
        for key, value in ref_reset_info.items():
            assert key in info, f"reset info lacks {key!r}"
            assert info[key].shape == (n, *np.shape(value)), key
        assert info["qpos0"].shape == (n, ref.model.nq)
        assert info["qvel0"].shape == (n, ref.model.nv)
        _, _, _, _, info = env.step(np.stack([action] * n))
        for key, value in ref_step_info.items():
            assert key in info, f"step info lacks {key!r}"
            assert info[key].shape == (n, *np.shape(value)), key


# --------------------------------------------------------------------------
# 3. initial-state distributions

NUM_STARTS = 3000  # initial states drawn from each side
KS_ALPHA = 1e-3  # per task, split over its coordinates (Bonferroni)

# How gymnasium's reset_model perturbs init_qpos / init_qvel: (kind, scale).
RESET_NOISE = {
    "Ant-v5": (("uniform", 0.1), ("normal", 0.1)),
    "HalfCheetah-v5": (("uniform", 0.1), ("normal", 0.1)),
    "Hopper-v5": (("uniform", 0.005), ("uniform", 0.005)),
    "Humanoid-v5": (("uniform", 0.01), ("uniform", 0.01)),
    "HumanoidStandup-v5": (("uniform", 0.01), ("uniform", 0.01)),
    "InvertedDoublePendulum-v5": (("uniform", 0.1), ("normal", 0.1)),
    "InvertedPendulum-v5": (("uniform", 0.01), ("uniform", 0.01)),
    "Swimmer-v5": (("uniform", 0.1), ("uniform", 0.1)),
    "Walker2d-v5": (("uniform", 0.005), ("uniform", 0.005)),
}


def _coordinate_laws(task: str, init_qpos: np.ndarray, init_qvel: np.ndarray) -> list:
    """(name, kind, center, scale) for every qpos and qvel coordinate; kind is
    "uniform" (center +- scale), "normal" (center + scale * N(0, 1)), "const"
    (exactly center) or "other" (checked by KS and task-specific checks only)."""
    nq, nv = len(init_qpos), len(init_qvel)
    laws = []
    if task in RESET_NOISE:
        (qpos_kind, qpos_scale), (qvel_kind, qvel_scale) = RESET_NOISE[task]
        laws += [(f"qpos[{k}]", qpos_kind, init_qpos[k], qpos_scale) for k in range(nq)]
        laws += [(f"qvel[{k}]", qvel_kind, init_qvel[k], qvel_scale) for k in range(nv)]
    elif task == "Reacher-v5":  # arm +- 0.1, goal in a disc, arm velocity +- 0.005
        laws += [(f"qpos[{k}]", "uniform", init_qpos[k], 0.1) for k in range(nq - 2)]
        laws += [(f"qpos[{k}]", "other", 0.0, 0.0) for k in range(nq - 2, nq)]
        laws += [(f"qvel[{k}]", "uniform", init_qvel[k], 0.005) for k in range(nv - 2)]
        laws += [(f"qvel[{k}]", "const", 0.0, 0.0) for k in range(nv - 2, nv)]
    elif task == "Pusher-v5":  # arm at rest, cylinder random, goal fixed at 0
        laws += [(f"qpos[{k}]", "const", init_qpos[k], 0.0) for k in range(nq - 4)]
        laws += [(f"qpos[{k}]", "other", 0.0, 0.0) for k in range(nq - 4, nq - 2)]
        laws += [(f"qpos[{k}]", "const", 0.0, 0.0) for k in range(nq - 2, nq)]
        laws += [(f"qvel[{k}]", "uniform", init_qvel[k], 0.005) for k in range(nv - 4)]
        laws += [(f"qvel[{k}]", "const", 0.0, 0.0) for k in range(nv - 4, nv)]
    else:
        raise AssertionError(f"no reset law for {task}")
    return laws


def _our_starts(task: str, num: int, seed: int) -> np.ndarray:
    """``num`` initial states (qpos then qvel per row) from envpool."""
    rows = []
    with envpool.make_gymnasium(task, num_envs=500, seed=seed) as env:
        while sum(len(r) for r in rows) < num:
            _, info = env.reset()
            rows.append(np.concatenate([info["qpos0"], info["qvel0"]], axis=1))
    return np.concatenate(rows)[:num]


def _gym_starts(task: str, num: int) -> np.ndarray:
    """``num`` initial states from gymnasium, one reset per seed."""
    ref = make_ref(task)
    rows = []
    for seed in range(num):
        ref.reset(seed=seed)
        rows.append(np.concatenate([ref.data.qpos, ref.data.qvel]))
    return np.stack(rows)


@pytest.mark.parametrize("task", TASKS)
def test_initial_states_match_gymnasium(task):
    ref = make_ref(task)
    init_qpos, init_qvel = ref.init_qpos.copy(), ref.init_qvel.copy()  # before any reset
    nq = len(init_qpos)
    ours = _our_starts(task, NUM_STARTS, seed=2024)
    theirs = _gym_starts(task, NUM_STARTS)
    assert ours.shape == theirs.shape
    assert len(np.unique(ours, axis=0)) == len(ours), "repeated initial states"
    laws = _coordinate_laws(task, init_qpos, init_qvel)
    assert len(laws) == ours.shape[1]
    critical = ks_critical(len(ours), len(theirs), KS_ALPHA / len(laws))
    failures = []
    for k, (name, kind, center, scale) in enumerate(laws):
        x, y = ours[:, k], theirs[:, k]
        d = ks_statistic(x, y)
        if d > critical:
            failures.append(
                f"{name}: KS {d:.4f} > {critical:.4f}; ours mean {x.mean():.5g} std "
                f"{x.std():.5g}, gymnasium's mean {y.mean():.5g} std {y.std():.5g}"
            )
        if kind == "const" and not np.all(x == center):
            failures.append(f"{name}: not constant {center}: {np.unique(x)[:5]}")
        if kind == "uniform":
            dev = x - center
            if np.abs(dev).max() > scale * (1 + 1e-9):
                failures.append(f"{name}: outside {center} +- {scale}: {np.abs(dev).max()}")
            if dev.max() < 0.99 * scale or dev.min() > -0.99 * scale:
                failures.append(
                    f"{name}: does not fill {center} +- {scale}: [{dev.min()}, {dev.max()}]"
                )
        if kind == "normal" and abs(x.std() / scale - 1) > 0.05:
            failures.append(f"{name}: std {x.std()}, expected {scale}")
    if task == "Reacher-v5":  # goal: rejection-sampled in the disc of radius 0.2
        goal_ours, goal_theirs = ours[:, nq - 2 : nq], theirs[:, nq - 2 : nq]
        assert np.all(np.linalg.norm(goal_ours, axis=1) < 0.2)
        assert np.all(np.abs(goal_ours) <= 0.2)
        for name, f in [("radius", np.linalg.norm), ("angle", None)]:
            if f is None:
                a = np.arctan2(goal_ours[:, 1], goal_ours[:, 0])
                b = np.arctan2(goal_theirs[:, 1], goal_theirs[:, 0])
            else:
                a, b = f(goal_ours, axis=1), f(goal_theirs, axis=1)
            d = ks_statistic(a, b)
            if d > critical:
                failures.append(f"goal {name}: KS {d:.4f} > {critical:.4f}")
    if task == "Pusher-v5":  # cylinder: x in [-0.3, 0], y in [-0.2, 0.2], > 0.17 from the goal
        cyl_ours, cyl_theirs = ours[:, nq - 4 : nq - 2], theirs[:, nq - 4 : nq - 2]
        assert np.all(np.linalg.norm(cyl_ours, axis=1) > 0.17)
        assert np.all((cyl_ours[:, 0] >= -0.3) & (cyl_ours[:, 0] <= 0.0))
        assert np.all(np.abs(cyl_ours[:, 1]) <= 0.2)
        d = ks_statistic(np.linalg.norm(cyl_ours, axis=1), np.linalg.norm(cyl_theirs, axis=1))
        if d > critical:
            failures.append(f"cylinder distance: KS {d:.4f} > {critical:.4f}")
    assert not failures, f"{task} initial states differ from gymnasium's:\n" + "\n".join(failures)


def test_ks_check_has_power():
    """The KS check above tells the noise laws apart at these sample sizes."""
    rng = np.random.default_rng(0)
    n = NUM_STARTS
    critical = ks_critical(n, n, KS_ALPHA / 50)
    uniform = rng.uniform(-0.1, 0.1, n)
    assert ks_statistic(uniform, rng.uniform(-0.1, 0.1, n)) < critical
    assert ks_statistic(uniform, 0.1 * rng.standard_normal(n)) > critical  # wrong law
    assert ks_statistic(uniform, rng.uniform(-0.125, 0.125, n)) > critical  # scale off 25%
    assert ks_statistic(uniform, rng.uniform(-0.09, 0.11, n)) > critical  # shifted


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
def test_seeding():
    """Env i of a pool is seeded with seed + i; a seed reproduces its episodes."""
    task = "HalfCheetah-v5"
    with envpool.make_gymnasium(task, num_envs=3, seed=7) as a:
        _, info_a = a.reset()
    with envpool.make_gymnasium(task, num_envs=3, seed=7) as b:
        _, info_b = b.reset()
    with envpool.make_gymnasium(task, num_envs=1, seed=8) as c:
        _, info_c = c.reset()
    np.testing.assert_array_equal(info_a["qpos0"], info_b["qpos0"])
    np.testing.assert_array_equal(info_a["qvel0"], info_b["qvel0"])
    np.testing.assert_array_equal(info_a["qpos0"][1], info_c["qpos0"][0])
    assert not np.array_equal(info_a["qpos0"][0], info_a["qpos0"][1])


# --------------------------------------------------------------------------
# 4. options

OPTION_CASES = [
    ("HalfCheetah-v5", {"ctrl_cost_weight": 0.5}),
    ("HalfCheetah-v5", {"forward_reward_weight": 2.0, "reset_noise_scale": 0.3}),
    ("HalfCheetah-v5", {"frame_skip": 2}),
    ("HalfCheetah-v5", {"exclude_current_positions_from_observation": False}),
    (
        "Ant-v5",
        {
            "exclude_current_positions_from_observation": False,
            "include_cfrc_ext_in_observation": False,
        },
    ),
    ("Ant-v5", {"contact_cost_weight": 5e-3, "contact_force_range": (-0.5, 0.5)}),
    ("Ant-v5", {"healthy_z_range": (0.3, 0.9), "healthy_reward": 0.5, "ctrl_cost_weight": 0.1}),
    ("Ant-v5", {"terminate_when_unhealthy": False, "forward_reward_weight": 2.0}),
    ("Ant-v5", {"main_body": 3}),  # body 2 sits at the torso origin
    ("Ant-v5", {"main_body": "torso"}),  # gymnasium takes a body's id or name
    ("Hopper-v5", {"healthy_z_range": (0.3, 1.0)}),
    ("Hopper-v5", {"healthy_z_range": (1.0, 1.4), "healthy_angle_range": (-0.5, 0.5)}),
    ("Hopper-v5", {"terminate_when_unhealthy": False, "healthy_state_range": (-5.0, 5.0)}),
    ("Hopper-v5", {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": 0.1}),
    ("Walker2d-v5", {"xml_file": "walker2d.xml"}),
    ("Walker2d-v5", {"healthy_z_range": (0.9, 1.5), "healthy_angle_range": (-0.5, 0.5)}),
    ("Walker2d-v5", {"terminate_when_unhealthy": False, "healthy_reward": 2.0}),
    (
        "Humanoid-v5",
        {
            "include_cinert_in_observation": False,
            "include_cvel_in_observation": False,
            "include_qfrc_actuator_in_observation": False,
            "exclude_current_positions_from_observation": False,
        },
    ),
    ("Humanoid-v5", {"contact_cost_range": (-1.0, 0.5), "contact_cost_weight": 1e-3}),
    ("Humanoid-v5", {"healthy_z_range": (0.8, 2.1), "forward_reward_weight": 2.0}),
    (
        "HumanoidStandup-v5",
        {"include_cfrc_ext_in_observation": False, "uph_cost_weight": 0.5},
    ),
    ("HumanoidStandup-v5", {"impact_cost_range": (-1.0, 0.5), "impact_cost_weight": 1e-3}),
    ("InvertedDoublePendulum-v5", {"healthy_reward": 5.0, "reset_noise_scale": 0.05}),
    ("InvertedPendulum-v5", {"reset_noise_scale": 0.1, "frame_skip": 4}),
    (
        "Pusher-v5",
        {"reward_near_weight": 1.0, "reward_dist_weight": 0.5, "reward_control_weight": 0.2},
    ),
    ("Pusher-v5", {"xml_file": "pusher.xml"}),
    ("Reacher-v5", {"reward_dist_weight": 2.0, "reward_control_weight": 0.5, "frame_skip": 3}),
    ("Swimmer-v5", {"exclude_current_positions_from_observation": False, "ctrl_cost_weight": 0.01}),
    ("Swimmer-v5", {"forward_reward_weight": 3.0, "reset_noise_scale": 0.5}),
]


# pusher.xml differs from pusher_v5.xml only in the object's density, which shows
# once the arm reaches the object.
INVISIBLE_IN_30_STEPS = {"Pusher-v5:xml_file=pusher.xml", "Ant-v5:main_body=torso"}


def _case_id(case: tuple) -> str:
    task, options = case
    return task + ":" + ",".join(f"{k}={v}".replace(" ", "") for k, v in options.items())


def _outputs_differ(task: str, options: dict, seed: int, steps: int = 30) -> bool:
    """Whether ``options`` change what envpool returns, against the defaults."""
    traces = []
    for opts in ({}, options):
        with envpool.make_gymnasium(task, num_envs=2, seed=seed, **opts) as env:
            rng = np.random.default_rng(seed)
            obs, _ = env.reset()
            trace = [obs]
            for _ in range(steps):
                obs, reward, terminated, _, _ = env.step(
                    random_actions(rng, env.single_action_space, 2)
                )
                trace += [obs, reward, terminated]
            traces.append(trace)
    return any(diff(a, b) != 0 for a, b in zip(*traces, strict=True))


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
@pytest.mark.parametrize("case", OPTION_CASES, ids=_case_id)
def test_option_matches_gymnasium(case):
    task, options = case
    with Lockstep(task, num_envs=2, seed=3, options=options) as lock:
        assert lock.env.single_observation_space.shape == lock.refs[0].observation_space.shape
        assert lock.env.single_action_space == lock.refs[0].action_space
        lock.reset()
        lock.run(OPTION_STEPS, np.random.default_rng(2))
        print(lock.summary())
    if _case_id(case) not in INVISIBLE_IN_30_STEPS:
        assert _outputs_differ(task, options, seed=3), f"{options} changed nothing"


PER_ENV_CASES = [
    ("HalfCheetah-v5", {"ctrl_cost_weight": [0.1, 0.5]}),
    ("HalfCheetah-v5", {"forward_reward_weight": [1.0, 3.0], "reset_noise_scale": [0.1, 0.4]}),
    ("Hopper-v5", {"healthy_z_range": [(0.7, float("inf")), (1.0, 1.4)]}),
    ("Ant-v5", {"contact_force_range": [(-1.0, 1.0), (-0.2, 0.3)], "healthy_reward": [1.0, 2.0]}),
    ("Walker2d-v5", {"xml_file": ["walker2d_v5.xml", "walker2d.xml"]}),
]


@pytest.mark.parametrize("case", PER_ENV_CASES, ids=_case_id)
def test_per_env_options_match_gymnasium(case):
    """A list gives one value per env: env i matches gymnasium made with value i."""
    task, options = case
    ref_options = [{k: v[i] for k, v in options.items()} for i in range(2)]
    with Lockstep(task, num_envs=2, seed=4, options=options, ref_options=ref_options) as lock:
        lock.reset()
        lock.run(OPTION_STEPS, np.random.default_rng(3))
        print(lock.summary())


def test_per_env_option_of_wrong_length():
    with pytest.raises(ValueError, match="ctrl_cost_weight"):
        envpool.make_gymnasium("HalfCheetah-v5", num_envs=2, ctrl_cost_weight=[0.1, 0.2, 0.3])


@pytest.mark.parametrize("task", TASKS)
def test_unknown_option(task):
    with pytest.raises(TypeError, match="not_an_option"):
        envpool.make_gymnasium(task, num_envs=1, not_an_option=1.0)


RANGE_OPTIONS = [
    ("Ant-v5", "healthy_z_range"),
    ("Ant-v5", "contact_force_range"),
    ("Hopper-v5", "healthy_state_range"),
    ("Hopper-v5", "healthy_z_range"),
    ("Hopper-v5", "healthy_angle_range"),
    ("Humanoid-v5", "contact_cost_range"),
    ("Humanoid-v5", "healthy_z_range"),
    ("HumanoidStandup-v5", "impact_cost_range"),
    ("Walker2d-v5", "healthy_z_range"),
    ("Walker2d-v5", "healthy_angle_range"),
]


@pytest.mark.parametrize(("task", "name"), RANGE_OPTIONS)
@pytest.mark.parametrize("value", [(1.0,), (0.0, 1.0, 2.0), (), 1.0, "ab"], ids=repr)
def test_bad_range_option(task, name, value):
    with pytest.raises((ValueError, TypeError), match=name):
        envpool.make_gymnasium(task, num_envs=1, **{name: value})


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("xml_file", ["no_such_model.xml", "/no/such/dir/model.xml"])
def test_missing_xml_file(task, xml_file):
    with pytest.raises((ValueError, OSError), match=re.escape(xml_file)):
        envpool.make_gymnasium(task, num_envs=1, xml_file=xml_file)


def _modified_cheetah(folder: str) -> str:
    """A copy of gymnasium's half_cheetah.xml with weaker back-thigh motors, in ``folder``."""
    from envpool.families.mujoco.tasks import assets_dir

    with open(os.path.join(assets_dir(), "half_cheetah.xml")) as f:
        text = f.read()
    assert text.count('gear="120"') == 2
    path = os.path.join(folder, "my_cheetah.xml")
    with open(path, "w") as f:
        f.write(text.replace('gear="120"', 'gear="40"'))
    return path


@pytest.mark.parametrize("form", ["absolute", "dot-relative"])
def test_xml_file_paths(tmp_path, monkeypatch, form):
    """A path starting with '/' or '.' is used as it is, as gymnasium does."""
    path = _modified_cheetah(str(tmp_path))
    if form == "dot-relative":
        monkeypatch.chdir(tmp_path)
        path = "./my_cheetah.xml"
    options = {"xml_file": path}
    with Lockstep("HalfCheetah-v5", num_envs=2, seed=5, options=options) as lock:
        lock.reset()
        lock.run(100, np.random.default_rng(4))
    assert _outputs_differ("HalfCheetah-v5", options, seed=5)


def test_xml_file_resolves_to_gymnasium_assets():
    import gymnasium.envs.mujoco as gym_mujoco

    from envpool.families.mujoco.tasks import assets_dir

    ours = os.path.realpath(assets_dir())
    theirs = os.path.realpath(os.path.join(os.path.dirname(gym_mujoco.__file__), "assets"))
    assert ours == theirs
    # a name without a path is looked up there: pusher.xml (v4's model) works
    with envpool.make_gymnasium("Pusher-v5", num_envs=1, xml_file="pusher.xml") as env:
        env.reset()


# --------------------------------------------------------------------------
# 5. bad actions


def _bad_shapes(n: int, a: int) -> list[tuple[int, ...]]:
    shapes = [(n, a + 1), (n + 1, a), (n - 1, a), (a,), (n * a,), (n, a, 1), (1, n, a)]
    if a > 1:
        shapes.append((n, a - 1))
    return [s for s in shapes if s != (n, a)]


@pytest.mark.parametrize("task", TASKS)
def test_bad_actions_rejected(task):
    """Wrong shapes and non-finite actions raise ValueError and leave the pool as it
    was: the next good step still matches gymnasium step for step."""
    rng = np.random.default_rng(6)
    with Lockstep(task, num_envs=2, seed=7) as lock:
        env = lock.env
        space = env.single_action_space
        (a,) = space.shape
        lock.reset()
        lock.step(random_actions(rng, space, 2))
        for shape in _bad_shapes(2, a):
            with pytest.raises(ValueError):
                env.step(np.zeros(shape, dtype=np.float32))
            lock.step(random_actions(rng, space, 2))
        for env_id, k, bad in [(0, 0, np.nan), (1, a - 1, np.inf), (1, 0, -np.inf)]:
            actions = random_actions(rng, space, 2)
            actions[env_id, k] = bad
            with pytest.raises(ValueError, match="finite"):
                env.step(actions)
            lock.step(random_actions(rng, space, 2))
        assert_steps_ok(env)


@pytest.mark.parametrize("task", TASKS)
def test_out_of_range_actions_like_gymnasium(task):
    """Actions 5x past the bounds are passed on unclipped, as gymnasium does
    (MuJoCo clamps the controls; the control costs see the raw action)."""
    with Lockstep(task, num_envs=2, seed=8) as lock:
        lock.reset()
        lock.run(60, np.random.default_rng(7), scale=5.0)
        print(lock.summary())


# --------------------------------------------------------------------------
# diagnostics: python tests/test_mujoco.py [TASK ...]

if __name__ == "__main__":
    for name in sys.argv[1:] or TASKS:
        try:
            lock = Lockstep(name, num_envs=2, seed=11, strict=False)
        except Exception as exc:
            print(f"{name}: cannot make: {type(exc).__name__}: {exc}")
            continue
        with lock:
            lock.reset()
            lock.run(EPISODE_STEPS, np.random.default_rng(1))
            print(lock.summary())
            for problem in lock.problems[:5]:
                print("   ", problem[:400])
