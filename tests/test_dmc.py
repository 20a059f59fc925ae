"""The DMC tasks side by side with dm_control 1.0.50 (dm_control/suite/*.py).

Every envpool episode starts at the state in its reset info (qpos0/qvel0 and the
model values the task drew, e.g. "geom_pos:target");
``envpool.families.dmc.tasks.start_dm_control_episode`` loads it into ``suite.load(domain,
task)``, and both take the same random actions through a whole episode, to the
time limit. Observations, rewards and discounts must be bit-identical and step
types equal. dm_control computes exp, log1p, cosh and so on with numpy, whose own
SIMD kernels differ from libm's in the last bit for a few to 30 percent of
arguments; the DMC envs call numpy's kernels (cpp/envpool/numpy/ufuncs.h, linalg.h), and
test_numpy_kernels_are_in_use checks that they were found.

Frames (the ``pixels`` observation of from_pixels=True) are compared with
dm_control's ``physics.render`` of the same state, pixel for pixel.

Initial states are compared as distributions (two-sample Kolmogorov-Smirnov per
coordinate of qpos and of the randomised model values). Options and bad input
are checked as behaviour.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from importlib import metadata

import numpy as np
import pytest

import envpool
from envpool.families.dmc import tasks as dmc_tasks

# dm_control picks its renderer when imported; EGL is the offscreen one envpool uses.
os.environ.setdefault("MUJOCO_GL", "egl")
pytest.importorskip("dm_control")
with warnings.catch_warnings():  # glfw's "no DISPLAY" warning on import
    warnings.simplefilter("ignore")
    from dm_control import suite

ALL_TASKS = sorted(dmc_tasks.TASKS)
# ENVPOOL_DMC_SEEDS=n runs n episodes (seeds 0..n-1) per task instead of one.
SEEDS = range(int(os.environ.get("ENVPOOL_DMC_SEEDS", "1")))
# ENVPOOL_DMC_MAX_STEPS=n stops each side-by-side episode after n steps (CI's
# AddressSanitizer run, where whole episodes of every task take too long).
MAX_STEPS = int(os.environ.get("ENVPOOL_DMC_MAX_STEPS", "0")) or None


def _load(domain: str, task: str, **task_kwargs):
    return suite.load(domain, task, task_kwargs=task_kwargs or None)


def _assert_observation_equal(ours, theirs, where: str) -> None:
    assert list(theirs) == [k for k in ours if k in theirs], where
    for key, value in theirs.items():
        got = np.asarray(ours[key])
        assert got.dtype == np.float64, (where, key)
        np.testing.assert_array_equal(got, value, err_msg=f"{where}: {key}")


def _replay(task_id: str, domain: str, task: str, seed: int, **options):
    """Runs one whole episode in both; returns the number of steps."""
    env = envpool.make(task_id, env_type="dm", num_envs=1, seed=seed, **options)
    ref = _load(domain, task, **{k: v for k, v in options.items() if k == "time_limit"})
    ts = env.reset()
    first = dmc_tasks.start_dm_control_episode(ref, ts.observation, 0)
    _assert_observation_equal(
        {k: v[0] for k, v in ts.observation.items()}, first.observation, "reset"
    )
    spec = ref.action_spec()
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        action = rng.uniform(spec.minimum, spec.maximum)
        ts = env.step(action[None])
        expected = ref.step(action)
        steps += 1
        where = f"{task_id} seed {seed} step {steps}"
        _assert_observation_equal(
            {k: v[0] for k, v in ts.observation.items()}, expected.observation, where
        )
        assert ts.reward[0] == expected.reward, (where, ts.reward[0], expected.reward)
        assert ts.discount[0] == expected.discount, where
        assert int(ts.step_type[0]) == int(expected.step_type), where
        if expected.last() or steps == MAX_STEPS:
            break
    env.close()
    return steps


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
@pytest.mark.parametrize("domain_task", ALL_TASKS, ids=[dmc_tasks.task_id(*t) for t in ALL_TASKS])
@pytest.mark.parametrize("seed", SEEDS)
def test_whole_episode_matches_dm_control(domain_task, seed):
    domain, task = domain_task
    steps = _replay(dmc_tasks.task_id(domain, task), domain, task, seed)
    reference = _load(domain, task)
    assert steps == min(int(np.ceil(reference._step_limit - 1e-9)), MAX_STEPS or 10**9)


@pytest.mark.numpy_sensitive
@pytest.mark.cpu_sensitive
def test_numpy_kernels_are_in_use():
    envpool.make("CartpoleSwingup-v1", num_envs=1)  # loads envpool._dmc
    import envpool._dmc as module

    assert sorted(dmc_tasks.NUMPY_LOOPS) == sorted([*module.NUMPY_FUNCTIONS, "blas"])


def test_time_limit_option_ends_the_episode_with_discount_one():
    assert _replay("CartpoleSwingup-v1", "cartpole", "swingup", 0, time_limit=1.0) == 100


def test_frame_skip_repeats_the_action_and_sums_rewards():
    env = envpool.make("CartpoleSwingup-v1", env_type="dm", num_envs=1, seed=5, frame_skip=4)
    ref = _load("cartpole", "swingup")
    ts = env.reset()
    dmc_tasks.start_dm_control_episode(ref, ts.observation, 0)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        action = rng.uniform(-1, 1, size=1)
        ts = env.step(action[None])
        reward = 0.0
        for _ in range(4):
            expected = ref.step(action)
            reward += expected.reward
            if expected.last():
                break
        steps += 1
        _assert_observation_equal(
            {k: v[0] for k, v in ts.observation.items()}, expected.observation, f"step {steps}"
        )
        assert ts.reward[0] == reward
        assert int(ts.step_type[0]) == int(expected.step_type)
        if expected.last():
            break
    assert steps == 250 and ts.discount[0] == 1.0


@pytest.mark.parametrize("n_poles", [1, 4])
def test_n_poles_option_builds_dm_controls_model(n_poles):
    env = envpool.make("CartpoleSwingup-v1", env_type="dm", num_envs=1, seed=2, n_poles=n_poles)
    ref = suite.load("cartpole", "three_poles", task_kwargs={"num_poles": n_poles})
    ts = env.reset()
    assert env.observation_spec()["position"].shape == (1 + 2 * n_poles,)
    dmc_tasks.start_dm_control_episode(ref, ts.observation, 0)
    for _ in range(50):
        action = np.array([0.3])
        ts = env.step(action[None])
        expected = ref.step(action)
        _assert_observation_equal(
            {k: v[0] for k, v in ts.observation.items()}, expected.observation, "step"
        )


def test_gymnasium_front_end_has_a_dict_space_in_dm_controls_order():
    env = envpool.make(
        "WalkerWalk-v1" if ("walker", "walk") in dmc_tasks.TASKS else "CartpoleSwingup-v1",
        num_envs=3,
        seed=0,
    )
    obs, info = env.reset()
    ref = _load(*next(k for k in ALL_TASKS if dmc_tasks.task_id(*k) == env.spec.id))
    assert list(env.single_observation_space) == list(ref.observation_spec())
    for key, spec in ref.observation_spec().items():
        assert env.single_observation_space[key].shape == spec.shape
        assert obs[key].shape == (3, *spec.shape) and obs[key].dtype == np.float64
    assert env.single_action_space.dtype == np.float64
    np.testing.assert_array_equal(env.single_action_space.low, ref.action_spec().minimum)
    assert info["qpos0"].shape[0] == 3
    env.close()


def _ks_statistic(a: np.ndarray, b: np.ndarray) -> float:
    values = np.sort(np.concatenate([a, b]))
    cdf_a = np.searchsorted(np.sort(a), values, side="right") / len(a)
    cdf_b = np.searchsorted(np.sort(b), values, side="right") / len(b)
    return float(np.max(np.abs(cdf_a - cdf_b)))


def _dm_control_starts(domain: str, task: str, n: int, keys: list[str]) -> dict[str, np.ndarray]:
    env = _load(domain, task)
    env.task._random = np.random.RandomState(12345)  # a fixed stream
    starts: dict[str, list[np.ndarray]] = {"qpos0": [], "qvel0": []}
    starts.update({k: [] for k in keys})
    for _ in range(n):
        env.reset()
        physics = env.physics
        starts["qpos0"].append(physics.data.qpos.copy())
        starts["qvel0"].append(physics.data.qvel.copy())
        for key in keys:
            field, _, name = key.partition(":")
            values = getattr(physics.named.model, field)
            starts[key].append(
                np.array(values[name] if name else values[:], dtype=np.float64).ravel()
            )
    return {k: np.array(v) for k, v in starts.items()}


# One task per domain (each domain draws its starts in one place).
DISTRIBUTION_TASKS = sorted(
    {domain: (domain, task) for domain, task in reversed(ALL_TASKS)}.values()
)


@pytest.mark.parametrize(
    "domain_task", DISTRIBUTION_TASKS, ids=[dmc_tasks.task_id(*t) for t in DISTRIBUTION_TASKS]
)
def test_initial_state_distribution_matches_dm_control(domain_task):
    domain, task = domain_task
    n = 400
    env = envpool.make(dmc_tasks.task_id(domain, task), num_envs=n, seed=1000)
    _, info = env.reset()
    env.close()
    keys = [k for k in info if ":" in k or k == "wrap_prm"]
    theirs = _dm_control_starts(domain, task, n, keys)
    # Critical value of the two-sample KS test at alpha = 1e-4 per coordinate.
    critical = 2.15 * np.sqrt(2 / n)
    for key, reference in theirs.items():
        ours = np.asarray(info[key], dtype=np.float64).reshape(n, -1)
        for column in range(ours.shape[1]):
            a, b = ours[:, column], reference[:, column]
            if np.ptp(a) == 0 and np.ptp(b) == 0:
                assert a[0] == b[0], (key, column)
                continue
            statistic = _ks_statistic(a, b)
            assert statistic < critical, (
                f"{key}[{column}]: KS statistic {statistic:.3f} >= {critical:.3f}"
            )


@pytest.mark.parametrize("option", [{"n_links": 5}, {"no_such_option": 1}])
def test_unknown_task_option_names_it(option):
    with pytest.raises(TypeError, match=next(iter(option))):
        envpool.make("CartpoleSwingup-v1", num_envs=1, **option)


def test_dm_controls_random_option_points_to_seed():
    with pytest.raises(TypeError, match="seed"):
        envpool.make("CartpoleSwingup-v1", num_envs=1, random=3)


@pytest.mark.parametrize("value", [0, -1, 2.5, "3", True])
def test_bad_n_poles_is_a_value_error(value):
    with pytest.raises(ValueError, match="n_poles"):
        envpool.make("CartpoleSwingup-v1", num_envs=1, n_poles=value)


@pytest.mark.parametrize(
    ("option", "value"), [("time_limit", 0.0), ("frame_skip", 0), ("control_timestep", 0.015)]
)
def test_bad_option_value_is_a_value_error(option, value):
    with pytest.raises(ValueError, match=option):
        envpool.make("CartpoleSwingup-v1", num_envs=1, **{option: value})


def test_bad_actions_are_rejected_and_the_pool_stays_usable():
    env = envpool.make("CartpoleSwingup-v1", num_envs=2, seed=0)
    env.reset()
    with pytest.raises(ValueError):
        env.step(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"(?i)nan|finite"):
        env.step(np.array([[np.nan], [0.0]]))
    obs, reward, terminated, truncated, _ = env.step(np.zeros((2, 1)))
    assert obs["position"].shape == (2, 3) and np.isfinite(reward).all()
    env.close()


def test_dm_control_version_mismatch_is_an_import_error_naming_the_fix(monkeypatch):
    real_version = metadata.version

    def fake_version(name: str) -> str:
        return "1.0.0" if name == "dm-control" else real_version(name)

    monkeypatch.setattr(metadata, "version", fake_version)
    with pytest.raises(ImportError, match=r"dm-control==1\.0\.50"):
        dmc_tasks.model_file("cartpole", n_poles=5)


@pytest.mark.parametrize(
    ("task_id", "camera_id"), [("CheetahRun-v1", 0), ("WalkerWalk-v1", 1), ("ReacherEasy-v1", 0)]
)
def test_pixels_equal_dm_controls_render(task_id, camera_id):
    domain, task = dmc_tasks.domain_task(task_id)
    num_envs = 3  # frames drawn from both worker threads
    env = envpool.make(
        task_id,
        env_type="dm",
        num_envs=num_envs,
        num_threads=2,
        seed=4,
        from_pixels=True,
        pixels_only=False,
        camera_id=camera_id,
        width=80,
        height=60,
    )
    try:
        ts = env.reset()
    except envpool.EnvError as exc:
        if "EGL" in str(exc) and not os.environ.get("ENVPOOL_REQUIRE_RENDER"):
            pytest.skip(f"no offscreen OpenGL here: {exc}")
        raise
    assert list(env.spec.observation_spec)[-1] == "pixels"
    refs = [_load(domain, task) for _ in range(num_envs)]
    for i, ref in enumerate(refs):
        dmc_tasks.start_dm_control_episode(ref, ts.observation, i)
    rng = np.random.default_rng(0)
    spec = refs[0].action_spec()
    for step in range(15):
        actions = rng.uniform(spec.minimum, spec.maximum, size=(num_envs, *spec.shape))
        ts = env.step(actions)
        for i, ref in enumerate(refs):
            ref.step(actions[i])
            frame = ref.physics.render(60, 80, camera_id=camera_id)
            np.testing.assert_array_equal(
                ts.observation["pixels"][i], frame, err_msg=f"env {i} step {step}"
            )
    env.close()


def test_pixels_only_observation_holds_only_the_frame():
    try:
        env = envpool.make("CartpoleSwingup-v1", num_envs=2, from_pixels=True)
        obs, _ = env.reset()
    except envpool.EnvError as exc:
        if "EGL" in str(exc) and not os.environ.get("ENVPOOL_REQUIRE_RENDER"):
            pytest.skip(f"no offscreen OpenGL here: {exc}")
        raise
    assert list(obs) == ["pixels"] and obs["pixels"].shape == (2, 84, 84, 3)
    assert obs["pixels"].dtype == np.uint8 and obs["pixels"].std() > 0
    env.close()


@pytest.mark.parametrize("domain_task", ALL_TASKS, ids=[dmc_tasks.task_id(*t) for t in ALL_TASKS])
def test_the_option_lists_name_every_option_a_task_takes(domain_task, capsys):
    """The TypeError for an unknown option and `envpool info` list the same options,
    the model-choosing ones (n_poles, n_links, use_peg, ...) included, and each listed
    option is accepted with its listed default."""
    from envpool.cli import main as cli_main
    from envpool.registry import get_task

    task_id = dmc_tasks.task_id(*domain_task)
    with pytest.raises(TypeError) as err:
        envpool.make_spec(task_id, no_such_option=1)
    listed = re.search(r"Options of this task: (.*)\.$", str(err.value)).group(1).split(", ")
    assert cli_main(["info", task_id, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["options"]
    assert sorted(listed) == sorted(shown)
    model_options = dmc_tasks._MODEL_OPTIONS.get(domain_task[0], {})
    assert set(model_options) <= set(listed)
    assert set(get_task(task_id).extra_options) == set(model_options)
    for name in listed:
        if name != "model_file":  # a path made when the pool is made
            envpool.make_spec(task_id, **{name: shown[name]})
