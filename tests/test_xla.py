"""env.xla(): the pool stepped inside jax.jit through XLA's FFI. A lax.scan rollout
must give exactly the trajectories of the same rollout through step() from Python,
in sync and async mode; bad input must raise a clear error, inside jit too, and
leave the pool usable."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import envpool

pytestmark = [pytest.mark.asan, pytest.mark.jax]

# One task per family (DMC has dict observations, Box2D continuous actions, ...).
FAMILY_TASKS = [
    "CartPole-v1",
    "Pendulum-v1",
    "FrozenLake-v1",
    "LunarLanderContinuous-v3",
    "Hopper-v5",
    "CheetahRun-v1",
    "StarpilotEasy-v0",
    "PointMaze_UMaze-v3",
]


def _canonical(x: Any) -> np.ndarray:
    """A numpy result as jax holds it (64-bit values in 32 bits without x64)."""
    x = np.asarray(x)
    return x.astype(jax.dtypes.canonicalize_dtype(x.dtype))


def _assert_same_tree(got: Any, expected: Any, where: str = "") -> None:
    if isinstance(expected, dict):
        assert isinstance(got, dict), where
        assert list(got) == list(expected), where
        for key in expected:
            _assert_same_tree(got[key], expected[key], f"{where}/{key}")
        return
    if isinstance(expected, (list, tuple)):
        assert len(got) == len(expected), where
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            _assert_same_tree(g, e, f"{where}[{i}]")
        return
    want = _canonical(expected)
    have = np.asarray(got)
    assert have.dtype == want.dtype, where
    np.testing.assert_array_equal(have, want, err_msg=where)


def _actions(env: Any, steps: int, seed: int) -> np.ndarray:
    """Per env and per step of that env, a random valid action: (num_envs, steps, ...)."""
    space = env.single_action_space
    space.seed(seed)
    table = np.stack(
        [np.stack([space.sample() for _ in range(steps)]) for _ in range(env.num_envs)]
    )
    if table.dtype.kind == "f":
        return table.astype(np.float32)
    return table.astype(np.int32)


def _python_rollout(env: Any, table: np.ndarray, steps: int) -> list[tuple[Any, ...]]:
    """Steps the pool from Python; each env's k-th action is table[env, k]."""
    count = np.zeros(env.num_envs, dtype=np.int64)
    out = []
    if env.is_async:
        env.async_reset()
        result = env.recv()
        out.append(jax.tree.map(np.array, result))
    else:
        obs, info = env.reset()
        result = None
    for _ in range(steps):
        ids = result[4]["env_id"] if result is not None else np.arange(env.num_envs)
        action = table[ids, count[ids]]
        count[ids] += 1
        result = env.step(action, ids if env.is_async else None)
        out.append(jax.tree.map(np.array, result))
    return out


def _jit_rollout(
    env: Any, table: np.ndarray, steps: int, split: bool = False
) -> list[tuple[Any, ...]]:
    """The same rollout as _python_rollout, as one jitted lax.scan over xla()'s step
    (or, with split, its send followed by its recv)."""
    handle, recv, send, step = env.xla()
    table = jnp.asarray(table)
    if env.is_async:
        env.async_reset()
        handle, first = jax.jit(recv)(handle)
        ids = first[4]["env_id"]
    else:
        env.reset()
        ids = jnp.arange(env.num_envs, dtype=jnp.int32)

    def body(carry: Any, _: Any) -> Any:
        handle, ids, count = carry
        action = table[ids, count[ids]]
        count = count.at[ids].add(1)
        env_id = ids if env.is_async else None
        if split:
            handle, result = recv(send(handle, action, env_id))
        else:
            handle, result = step(handle, action, env_id)
        return (handle, result[4]["env_id"], count), result

    count = jnp.zeros(env.num_envs, dtype=jnp.int32)
    _, results = jax.jit(lambda c: jax.lax.scan(body, c, None, length=steps))((handle, ids, count))
    rows = [jax.tree.map(lambda x, i=i: np.asarray(x[i]), results) for i in range(steps)]
    return [jax.tree.map(np.asarray, first), *rows] if env.is_async else rows


def _per_env(results: list[tuple[Any, ...]]) -> dict[int, list[tuple[Any, ...]]]:
    """Each env's rows in order; async batches mix envs differently run to run."""
    rows: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for result in results:
        for r, env_id in enumerate(np.asarray(result[4]["env_id"])):
            rows[int(env_id)].append(jax.tree.map(lambda x, r=r: np.asarray(x)[r], result))
    return rows


@pytest.mark.parametrize(
    ("task", "steps", "kwargs"),
    [
        ("CartPole-v1", 300, {}),
        ("Pong-v5", 60, {}),
        ("HalfCheetah-v5", 120, {}),
    ],
)
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_jit_scan_rollout_is_bit_identical_to_python_steps(task, steps, kwargs, mode):
    num_envs = 4
    batch_size = num_envs if mode == "sync" else 2
    make = dict(num_envs=num_envs, batch_size=batch_size, num_threads=2, seed=3, **kwargs)
    python_env = envpool.make(task, env_type="gymnasium", **make)
    jit_env = envpool.make(task, env_type="gymnasium", **make)
    table = _actions(python_env, steps, seed=1)
    expected = _python_rollout(python_env, table, steps)
    got = _jit_rollout(jit_env, table, steps)
    if mode == "sync":
        for k, (g, e) in enumerate(zip(got, expected, strict=True)):
            _assert_same_tree(list(g[:4]), list(e[:4]), f"step {k}")
            _assert_same_tree(g[4], e[4], f"step {k} info")
    else:
        got_rows, expected_rows = _per_env(got), _per_env(expected)
        for env_id in range(num_envs):
            n = min(len(got_rows[env_id]), len(expected_rows[env_id]))
            assert n > 0
            for k in range(n):
                g, e = got_rows[env_id][k], expected_rows[env_id][k]
                _assert_same_tree(list(g[:4]), list(e[:4]), f"env {env_id} row {k}")
                _assert_same_tree(g[4], e[4], f"env {env_id} row {k} info")
    if task == "CartPole-v1":  # the rollout crossed episode ends
        assert any(np.asarray(r[2]).any() for r in got)
    python_env.close()
    jit_env.close()


@pytest.mark.parametrize("task", ["CartPole-v1", "Pong-v5"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_separate_send_and_recv_keep_their_order_under_jit(task, mode):
    """send and recv as two custom calls in one scan body: XLA must run them in the
    order the handle gives (on a GPU the pool call runs in stream order)."""
    num_envs = 4
    make = dict(num_envs=num_envs, batch_size=num_envs if mode == "sync" else 2, seed=7)
    python_env = envpool.make(task, env_type="gymnasium", num_threads=2, **make)
    jit_env = envpool.make(task, env_type="gymnasium", num_threads=2, **make)
    table = _actions(python_env, 40, seed=3)
    expected = _per_env(_python_rollout(python_env, table, 40))
    got = _per_env(_jit_rollout(jit_env, table, 40, split=True))
    for env_id in range(num_envs):
        n = min(len(got[env_id]), len(expected[env_id]))
        assert n > 0
        for k in range(n):
            _assert_same_tree(list(got[env_id][k][:4]), list(expected[env_id][k][:4]))


@pytest.mark.parametrize("split", [False, True])
def test_each_call_compiles_to_one_custom_call_in_a_scan(split):
    """A scan that stacks Pong frames: XLA's GPU compiler once fused the envpool call
    with the dynamic slices around it and ran it twice per iteration (a recv with
    nothing in flight, or every step taken twice). Checked on the compiled program of
    whatever device jax uses."""
    env = envpool.make("Pong-v5", env_type="gymnasium", num_envs=4, num_threads=2, seed=0)
    handle, recv, send, step = env.xla()
    table = jnp.zeros((4, 8), jnp.int32)

    def body(carry: Any, k: jax.Array) -> Any:
        handle, count = carry
        action = table[jnp.arange(4), count]
        if split:
            handle, result = recv(send(handle, action))
        else:
            handle, result = step(handle, action)
        return (handle, count + 1), result

    scan = jax.jit(lambda c: jax.lax.scan(body, c, jnp.arange(8)))
    hlo = scan.lower((jnp.asarray(handle), jnp.zeros(4, jnp.int32))).compile().as_text()
    targets = ["envpool_send", "envpool_recv"] if split else ["envpool_step"]
    for target in targets:
        assert hlo.count(f'custom_call_target="{target}"') == 1, target
    env.reset()
    _, results = scan((jnp.asarray(handle), jnp.zeros(4, jnp.int32)))
    assert np.asarray(results[4]["elapsed_step"])[:, 0].tolist() == list(range(1, 9))
    env.close()


def test_close_lets_dispatched_calls_finish():
    """Steps dispatched without waiting (on a GPU they run after Python returns) run
    before close() closes the pool, instead of failing with 'the pool is closed'."""
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    results = []
    for k in range(30):
        handle, result = step(handle, jnp.full(2, k % 2, jnp.int32))
        results.append(result)
    env.close()
    assert np.asarray(results[-1][4]["elapsed_step"]).tolist() == [30, 30]


def test_failed_call_leaves_exit_quiet_and_trace_shows_the_order():
    """A call that failed (here: on a closed pool) raised where it was used; jax must
    not raise it again at interpreter exit. ENVPOOL_XLA_TRACE=1 lists the pool calls."""
    script = """
        import jax, jax.numpy as jnp, numpy as np, envpool
        env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
        env.reset()
        handle, recv, send, step = env.xla()
        handle = send(handle, jnp.zeros(2, jnp.int32))
        handle, _ = recv(handle)
        handle, _ = step(handle, jnp.zeros(2, jnp.int32))
        env.close()
        try:
            jax.block_until_ready(step(handle, jnp.zeros(2, jnp.int32)))
        except jax.errors.JaxRuntimeError as e:
            print("raised:", "closed" in str(e))
        """
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env={**os.environ, "ENVPOOL_XLA_TRACE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),
    )
    assert out.returncode == 0, out.stderr
    assert "raised: True" in out.stdout
    assert "Exception ignored" not in out.stderr, out.stderr
    lines = out.stderr.splitlines()
    kinds = [line.split()[1] for line in lines if line.startswith("envpool-xla")]
    assert kinds == ["send", "recv", "send", "recv", "send"], out.stderr


@pytest.mark.parametrize("task", FAMILY_TASKS)
def test_every_family_steps_under_jit_as_from_python(task):
    python_env = envpool.make(task, env_type="gymnasium", num_envs=2, seed=5)
    jit_env = envpool.make(task, env_type="gymnasium", num_envs=2, seed=5)
    table = _actions(python_env, 20, seed=2)
    expected = _python_rollout(python_env, table, 20)
    got = _jit_rollout(jit_env, table, 20)
    for k, (g, e) in enumerate(zip(got, expected, strict=True)):
        _assert_same_tree(g[0], e[0], f"step {k} obs")
        _assert_same_tree(list(g[1:4]), list(e[1:4]), f"step {k}")
        _assert_same_tree(g[4], e[4], f"step {k} info")


def test_float64_outputs_stay_float64_with_x64():
    """With jax_enable_x64 the float64 observations and rewards come through unrounded."""
    script = textwrap.dedent(
        """
        import jax, numpy as np, envpool
        assert jax.config.jax_enable_x64
        a = envpool.make("HalfCheetah-v5", env_type="gymnasium", num_envs=2, seed=0)
        b = envpool.make("HalfCheetah-v5", env_type="gymnasium", num_envs=2, seed=0)
        a.reset(); b.reset()
        handle, recv, send, step = b.xla()
        act = np.random.default_rng(0).uniform(-1, 1, (30, 2, 6))
        for k in range(30):
            obs, rew, *_ = a.step(act[k])
            handle, (jobs, jrew, *_rest) = jax.jit(step)(handle, act[k])
            assert jobs.dtype == np.float64 and jrew.dtype == np.float64
            np.testing.assert_array_equal(np.asarray(jobs), obs)
            np.testing.assert_array_equal(np.asarray(jrew), rew)
        print("ok")
        """
    )
    env = {**os.environ, "JAX_ENABLE_X64": "1"}
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tempfile.gettempdir(),  # the installed envpool, not the source folder
    )
    assert out.returncode == 0, out.stderr
    assert "ok" in out.stdout


def test_eager_calls_outside_jit():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=3, seed=0)
    handle, recv, send, step = env.xla()
    obs0, _ = env.reset()
    handle = send(handle, np.ones(3, np.int32))
    handle, (obs, reward, terminated, truncated, info) = recv(handle)
    assert obs.shape == (3, 4) and obs.dtype == jnp.float32
    assert reward.dtype == jnp.float32 and terminated.dtype == jnp.bool_
    np.testing.assert_array_equal(np.asarray(info["env_id"]), [0, 1, 2])
    np.testing.assert_array_equal(np.asarray(info["elapsed_step"]), [1, 1, 1])
    assert not np.array_equal(np.asarray(obs), obs0.astype(np.float32))
    handle, _ = step(handle, jnp.zeros(3, jnp.int32))
    assert isinstance(handle, jax.Array) and handle.shape == (8,)
    env.close()


def test_same_step_autoreset_final_obs_under_jit():
    kwargs = dict(num_envs=2, seed=0, autoreset_mode="same_step")
    python_env = envpool.make("CartPole-v1", env_type="gymnasium", **kwargs)
    jit_env = envpool.make("CartPole-v1", env_type="gymnasium", **kwargs)
    table = _actions(python_env, 80, seed=0)
    expected = _python_rollout(python_env, table, 80)
    got = _jit_rollout(jit_env, table, 80)
    ends = 0
    for g, e in zip(got, expected, strict=True):
        _assert_same_tree(list(g[:4]), list(e[:4]))
        _assert_same_tree(g[4], e[4])
        ends += int(np.asarray(g[4]["_final_obs"]).sum())
    assert ends > 0


def test_dm_front_end_time_steps_under_jit():
    python_env = envpool.make("CartPole-v1", env_type="dm", num_envs=2, seed=0)
    jit_env = envpool.make("CartPole-v1", env_type="dm", num_envs=2, seed=0)
    python_env.reset()
    jit_env.reset()
    handle, recv, send, step = jit_env.xla()
    jstep = jax.jit(step)
    saw_last = False
    for k in range(60):
        action = np.array([k % 2, (k // 3) % 2], np.int32)
        ts = python_env.step(action)
        handle, jts = jstep(handle, action)
        np.testing.assert_array_equal(np.asarray(jts.step_type), np.asarray(ts.step_type))
        np.testing.assert_array_equal(np.asarray(jts.reward), _canonical(ts.reward))
        np.testing.assert_array_equal(np.asarray(jts.discount), _canonical(ts.discount))
        np.testing.assert_array_equal(
            np.asarray(jts.observation.obs), _canonical(ts.observation.obs)
        )
        saw_last |= bool((np.asarray(jts.step_type) == 2).any())
    assert saw_last


def test_original_api_pool_keeps_its_conventions_under_jit():
    env = envpool.make("Pong-v5", env_type="gym", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    handle, (obs, reward, terminated, truncated, info) = jax.jit(step)(
        handle, np.zeros(2, np.int32)
    )
    assert reward.dtype == jnp.float32
    assert info["terminated"].dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(info["players"]["env_id"]), [0, 1])
    assert info["reward"].dtype == jnp.float32 and info["lives"].dtype == jnp.int32
    assert "game_return" not in info


def test_bad_action_shape_and_dtype_raise_while_tracing():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        jax.jit(step)(handle, jnp.zeros(3, jnp.int32))
    with pytest.raises(TypeError, match="integer dtype"):
        jax.jit(step)(handle, jnp.zeros(2, jnp.float32))
    with pytest.raises(TypeError, match="handle"):
        jax.jit(step)(jnp.zeros(4, jnp.uint8), jnp.zeros(2, jnp.int32))
    handle, result = jax.jit(step)(handle, jnp.zeros(2, jnp.int32))  # still usable
    assert result[0].shape == (2, 4)


def test_out_of_range_action_inside_jit_raises_and_the_pool_stays_usable():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    jstep = jax.jit(step)
    with pytest.raises(jax.errors.JaxRuntimeError, match="out of range"):
        jax.block_until_ready(jstep(handle, jnp.array([0, 7], jnp.int32)))
    handle, (obs, *_rest) = jstep(handle, jnp.array([0, 1], jnp.int32))
    assert np.isfinite(np.asarray(obs)).all()
    env.step(np.array([1, 1]))  # and from Python


def test_nan_continuous_action_inside_jit_raises():
    env = envpool.make("Pendulum-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    with pytest.raises(jax.errors.JaxRuntimeError, match="not finite"):
        jax.block_until_ready(jax.jit(step)(handle, jnp.full((2, 1), jnp.nan)))
    handle, _ = jax.jit(step)(handle, jnp.zeros((2, 1)))


def test_recv_with_nothing_in_flight_raises_instead_of_hanging():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    with pytest.raises(jax.errors.JaxRuntimeError, match="nothing in flight"):
        jax.block_until_ready(jax.jit(recv)(handle))


def test_async_send_needs_env_id():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=4, batch_size=2, seed=0)
    env.async_reset()
    handle, recv, send, step = env.xla()
    handle, result = recv(handle)
    with pytest.raises(ValueError, match="pass env_id"):
        send(handle, jnp.zeros(2, jnp.int32))
    handle = send(handle, jnp.zeros(2, jnp.int32), result[4]["env_id"])
    handle, result = recv(handle)
    assert result[0].shape == (2, 4)


def test_sync_send_must_step_every_env():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=4, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    with pytest.raises(ValueError, match="steps every env"):
        send(handle, jnp.zeros(2, jnp.int32), jnp.array([0, 1]))


def test_closed_pool_handle_raises():
    env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2, seed=0)
    env.reset()
    handle, recv, send, step = env.xla()
    jstep = jax.jit(step)
    handle, _ = jstep(handle, jnp.zeros(2, jnp.int32))
    env.close()
    with pytest.raises(jax.errors.JaxRuntimeError, match="closed"):
        jax.block_until_ready(jstep(handle, jnp.zeros(2, jnp.int32)))
    with pytest.raises(envpool.CallOrderError, match="closed"):
        env.xla()


def test_env_exception_inside_jit_raises_and_the_pool_recovers(fault_env_dir):
    """An out-of-tree env package (the fault-injection env) gets xla() too."""
    env = envpool.make("Fault-v0", env_type="gymnasium", num_envs=2, throw_at_step=[-1, 3])
    env.reset(seed=0)
    handle, recv, send, step = env.xla()
    jstep = jax.jit(step)
    ones = jnp.ones(2, jnp.int32)
    handle, _ = jstep(handle, ones)
    handle, _ = jstep(handle, ones)
    with pytest.raises(jax.errors.JaxRuntimeError, match="injected failure at step 3"):
        jax.block_until_ready(jstep(handle, ones))
    handle, (obs, reward, terminated, truncated, info) = jstep(handle, ones)
    assert np.asarray(info["env_id"]).tolist() == [0, 1]
    env.close()


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tempfile.gettempdir(),  # the installed envpool, not the source folder
    )


def test_plain_use_does_not_import_jax():
    out = _run(
        """
        import sys, numpy as np, envpool
        env = envpool.make("CartPole-v1", num_envs=2)
        env.reset(); env.step(np.zeros(2, int))
        assert "jax" not in sys.modules, "envpool imported jax"
        """
    )
    assert out.returncode == 0, out.stderr


def test_xla_without_jax_names_the_install():
    out = _run(
        """
        import sys
        sys.modules["jax"] = None  # as if jax were not installed
        import envpool
        env = envpool.make("CartPole-v1", num_envs=2)
        try:
            env.xla()
        except ImportError as e:
            print(e)
        """
    )
    assert out.returncode == 0, out.stderr
    assert "pip install 'envpool[jax]'" in out.stdout


@pytest.mark.skipif(
    os.environ.get("ENVPOOL_SLOW") != "1", reason="full PPO training; set ENVPOOL_SLOW=1"
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ppo_jax_xla_example_solves_cartpole(seed):
    """examples/ppo_jax_xla.py exits non-zero unless its greedy policy averages >= 475."""
    script = Path(__file__).resolve().parents[1] / "examples" / "ppo_jax_xla.py"
    done = subprocess.run(
        [sys.executable, str(script), "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tempfile.gettempdir(),
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "greedy policy: mean return" in done.stdout
