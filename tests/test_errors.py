"""Bad input and bad call order: a clear Python exception, never a crash or a
hang, and the pool keeps working afterwards."""

from __future__ import annotations

import copy
import pickle
import textwrap
import threading

import numpy as np
import pytest
from conftest import assert_steps_ok, call_with_timeout, run_python

import envpool

pytestmark = pytest.mark.asan

# make() arguments.


def test_unknown_task_id_suggests_close_matches():
    with pytest.raises(ValueError, match="CartPole-v1"):
        envpool.make("CartPole-v2")
    with pytest.raises(ValueError, match="Pendulum-v1"):
        envpool.make("pendulum-v1")
    with pytest.raises(ValueError):
        envpool.make("NoSuchTask-v0")


def test_unknown_option_is_type_error_naming_it():
    with pytest.raises(TypeError, match="gravity"):
        envpool.make("Pendulum-v1", gravity=9.8)
    with pytest.raises(TypeError, match="num_env"):
        envpool.make("CartPole-v1", num_env=4)


def test_option_of_wrong_type_is_rejected():
    with pytest.raises(TypeError, match="'g'"):
        envpool.make("Pendulum-v1", g="strong")


def test_unknown_env_type():
    with pytest.raises(ValueError, match="env_type"):
        envpool.make("CartPole-v1", env_type="gymnax")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_envs": 0},
        {"num_envs": -3},
        {"num_envs": 2, "batch_size": 0},
        {"num_envs": 2, "batch_size": 3},
        {"num_envs": 2, "num_threads": -1},
        {"autoreset_mode": "sometimes"},
    ],
)
def test_bad_pool_arguments_are_value_errors(kwargs):
    with pytest.raises(ValueError):
        envpool.make("CartPole-v1", **kwargs)


# Actions.


@pytest.fixture
def cartpole():
    env = envpool.make("CartPole-v1", num_envs=3)
    env.reset(seed=0)
    yield env
    env.close()


@pytest.fixture
def pendulum():
    env = envpool.make("Pendulum-v1", num_envs=2)
    env.reset(seed=0)
    yield env
    env.close()


@pytest.mark.parametrize(
    "actions",
    [np.zeros(2, np.int64), np.zeros(4, np.int64), np.zeros((3, 1), np.int64)],
)
def test_wrong_action_shape_discrete(cartpole, actions):
    with pytest.raises(ValueError):
        cartpole.step(actions)
    assert_steps_ok(cartpole)


@pytest.mark.parametrize("actions", [np.int64(0), 0, np.array(0), None])
def test_scalar_action_is_a_type_error_as_in_gymnasium(cartpole, actions):
    with pytest.raises(TypeError):
        cartpole.step(actions)
    assert_steps_ok(cartpole)


@pytest.mark.parametrize(
    "actions", [np.zeros(2, np.float32), np.zeros((2, 2), np.float32), np.zeros((3, 1))]
)
def test_wrong_action_shape_continuous(pendulum, actions):
    with pytest.raises(ValueError):
        pendulum.step(actions)
    assert_steps_ok(pendulum)


@pytest.mark.parametrize(
    "actions",
    [
        np.array([0, 1, 2]),
        np.array([0, -1, 1]),
        np.array([0, 1, 255], np.uint8),
        np.array([0, 1, 2**64 - 1], np.uint64),
        np.array([0, 1, -128], np.int8),
    ],
)
def test_out_of_range_discrete_action(cartpole, actions):
    with pytest.raises(ValueError):
        cartpole.step(actions)
    assert_steps_ok(cartpole)


def test_rejected_actions_do_not_leak_into_the_next_step(cartpole):
    with envpool.make("CartPole-v1", num_envs=3) as ref:
        ref.reset(seed=0)
        with pytest.raises(ValueError):
            cartpole.step(np.array([1, 1, 7]))
        obs, *_ = cartpole.step(np.array([0, 0, 0]))
        ref_obs, *_ = ref.step(np.array([0, 0, 0]))
        np.testing.assert_array_equal(obs, ref_obs)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_non_finite_continuous_action(pendulum, bad, dtype):
    actions = np.array([[0.0], [bad]], dtype=dtype)
    with pytest.raises(ValueError):
        pendulum.step(actions)
    assert_steps_ok(pendulum)


@pytest.mark.parametrize(
    "actions",
    [
        np.array(["0", "1", "0"]),
        np.array([0, 1, 0], dtype=object),
        np.array([True, False, True]),
        ["a", "b", "c"],
        [None, None, None],
    ],
    ids=["str", "object", "bool", "pylist-str", "pylist-none"],
)
def test_non_numeric_discrete_action_is_type_error(cartpole, actions):
    with pytest.raises(TypeError):
        cartpole.step(actions)
    assert_steps_ok(cartpole)


@pytest.mark.parametrize(
    "actions",
    [np.array([["0.5"], ["1"]]), np.array([[0.5], [1.0]], dtype=object), [[None], [None]]],
    ids=["str", "object", "pylist-none"],
)
def test_non_numeric_continuous_action_is_type_error(pendulum, actions):
    with pytest.raises(TypeError):
        pendulum.step(actions)
    assert_steps_ok(pendulum)


# env_id.


@pytest.mark.parametrize("env_id", [[3], [0, 5], [-1], np.array([2**40])])
def test_env_id_out_of_range_is_index_error(cartpole, env_id):
    with pytest.raises(IndexError):
        cartpole.step(np.zeros(len(env_id), np.int64), env_id=env_id)
    assert_steps_ok(cartpole)


def test_duplicate_env_id_is_value_error(cartpole):
    with pytest.raises(ValueError):
        cartpole.step(np.zeros(2, np.int64), env_id=[1, 1])
    with pytest.raises(ValueError):
        cartpole.step(np.zeros(3, np.int64), env_id=[0, 2, 0])
    assert_steps_ok(cartpole)
    assert_steps_ok(cartpole, env_id=[1])


def test_env_id_and_actions_disagree_in_length(cartpole):
    with pytest.raises(ValueError):
        cartpole.step(np.zeros(3, np.int64), env_id=[0, 1])
    assert_steps_ok(cartpole)


def test_env_id_of_wrong_type_or_dims(cartpole):
    with pytest.raises(TypeError):
        cartpole.step(np.zeros(1, np.int64), env_id=[0.0])
    with pytest.raises(TypeError):
        cartpole.step(np.zeros(1, np.int64), env_id=["0"])
    with pytest.raises(ValueError):
        cartpole.step(np.zeros(2, np.int64), env_id=[[0, 1]])
    assert_steps_ok(cartpole)


def test_bad_env_id_in_async_mode():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.async_reset()
        _, _, _, _, info = call_with_timeout(env.recv)
        ids = info["env_id"]
        with pytest.raises(IndexError):
            env.send(np.zeros(2, np.int64), env_id=[0, 4])
        with pytest.raises(ValueError):
            env.send(np.zeros(2, np.int64), env_id=[ids[0], ids[0]])
        with pytest.raises(ValueError):
            env.send(np.zeros(2, np.int64), env_id=ids[:1])
        # None of the rejected sends took effect: the envs are sendable.
        env.send(np.zeros(2, np.int64), env_id=ids)
        for _ in range(2):
            call_with_timeout(env.recv)


# Call order.


def test_send_to_env_in_flight_async():
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.async_reset()
        # All four are in flight (or unreceived): any send is refused.
        for ids in ([0], [3], [1, 2]):
            with pytest.raises(envpool.CallOrderError):
                env.send(np.zeros(len(ids), np.int64), env_id=ids)
        _, _, _, _, info = call_with_timeout(env.recv)
        received = info["env_id"].tolist()
        others = sorted(set(range(4)) - set(received))
        with pytest.raises(envpool.CallOrderError):
            env.send(np.zeros(1, np.int64), env_id=others[:1])
        # A rejected mixed send changes nothing for the envs that were fine.
        with pytest.raises(envpool.CallOrderError):
            env.send(np.zeros(2, np.int64), env_id=[received[0], others[0]])
        env.send(np.zeros(2, np.int64), env_id=received)
        got = set()
        for _ in range(2):
            got.update(call_with_timeout(env.recv)[4]["env_id"].tolist())
        assert got == {0, 1, 2, 3}


def test_rejected_async_step_changes_nothing():
    # step() = send + recv. With fewer than batch_size envs in flight the recv
    # part is refused; the call must not leave the env half-sent.
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        env.async_reset()
        call_with_timeout(env.recv)
        call_with_timeout(env.recv)
        with pytest.raises(envpool.CallOrderError):
            call_with_timeout(lambda: env.step(np.zeros(1, np.int64), env_id=[0]))
        # Env 0 was not left in flight: it can be sent like the others.
        env.send(np.zeros(2, np.int64), env_id=[0, 1])
        _, _, _, _, info = call_with_timeout(env.recv)
        assert sorted(info["env_id"].tolist()) == [0, 1]
        np.testing.assert_array_equal(info["elapsed_step"], [1, 1])


def test_send_twice_without_recv_sync(cartpole):
    cartpole.send(np.zeros(3, np.int64))
    with pytest.raises(envpool.CallOrderError):
        cartpole.send(np.zeros(3, np.int64))
    with pytest.raises(envpool.CallOrderError):
        cartpole.step(np.zeros(3, np.int64))
    _, _, _, _, info = call_with_timeout(cartpole.recv)
    np.testing.assert_array_equal(info["env_id"], [0, 1, 2])
    np.testing.assert_array_equal(info["elapsed_step"], [1, 1, 1])
    assert_steps_ok(cartpole)


def test_recv_with_nothing_in_flight_raises_instead_of_blocking(cartpole):
    with pytest.raises(envpool.CallOrderError):
        call_with_timeout(cartpole.recv)
    assert_steps_ok(cartpole)
    with pytest.raises(envpool.CallOrderError):
        call_with_timeout(cartpole.recv)
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2) as env:
        with pytest.raises(envpool.CallOrderError):
            call_with_timeout(env.recv)
        env.async_reset()
        call_with_timeout(env.recv)
        call_with_timeout(env.recv)
        with pytest.raises(envpool.CallOrderError):
            call_with_timeout(env.recv)
        # One env in flight is less than a batch: still an error, not a wait.
        env.send(np.zeros(1, np.int64), env_id=[0])
        with pytest.raises(envpool.CallOrderError):
            call_with_timeout(env.recv)
        env.send(np.zeros(1, np.int64), env_id=[1])
        np.testing.assert_array_equal(
            sorted(call_with_timeout(env.recv)[4]["env_id"].tolist()), [0, 1]
        )


# close().


def _calls(env):
    n = env.num_envs
    return {
        "step": lambda: env.step(np.zeros(n, np.int64)),
        "send": lambda: env.send(np.zeros(n, np.int64)),
        "recv": env.recv,
        "reset": env.reset,
        "async_reset": env.async_reset,
    }


@pytest.mark.parametrize("call", ["step", "send", "recv", "reset", "async_reset"])
@pytest.mark.parametrize("batch_size", [None, 2])
def test_every_call_after_close_raises(batch_size, call):
    env = envpool.make("CartPole-v1", num_envs=4, batch_size=batch_size)
    env.reset(seed=0)
    env.close()
    assert env.closed
    with pytest.raises(envpool.CallOrderError, match="closed"):
        call_with_timeout(_calls(env)[call])
    env.close()  # idempotent


def test_context_manager_closes():
    with envpool.make("CartPole-v1", num_envs=2) as env:
        env.reset()
    assert env.closed
    with pytest.raises(envpool.CallOrderError):
        env.step(np.zeros(2, np.int64))


@pytest.mark.parametrize("batch_size", [None, 2, 1])
def test_close_with_work_in_flight(batch_size):
    env = envpool.make("Acrobot-v1", num_envs=4, batch_size=batch_size, num_threads=2)
    env.reset(seed=0)
    env.send(np.zeros(4, np.int64))
    call_with_timeout(env.close)
    call_with_timeout(env.close)
    with pytest.raises(envpool.CallOrderError):
        env.recv()


def test_close_while_another_thread_steps():
    env = envpool.make("CartPole-v1", num_envs=8, num_threads=2)
    env.reset(seed=0)
    errors = []
    stop = threading.Event()

    def stepper():
        try:
            while not stop.is_set():
                env.step(np.zeros(8, np.int64))
        except envpool.CallOrderError:
            pass
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=stepper, daemon=True)
    thread.start()
    try:
        call_with_timeout(lambda: stop.wait(0.2))
        call_with_timeout(env.close)
    finally:
        stop.set()
        thread.join(20)
    assert not thread.is_alive(), "stepping thread hung after close()"
    assert not errors, errors


# Process-level robustness.


def test_interpreter_exit_without_close_does_not_hang():
    proc = run_python(
        """
        import numpy as np
        import envpool

        sync = envpool.make("CartPole-v1", num_envs=8, num_threads=2)
        sync.reset()
        sync.send(np.zeros(8, np.int64))  # a round in flight
        asyn = envpool.make("Pendulum-v1", num_envs=8, batch_size=3, num_threads=2)
        asyn.async_reset()
        info = asyn.recv()[4]
        asyn.send(np.zeros((3, 1), np.float32), env_id=info["env_id"])  # more in flight
        dm = envpool.make_dm("Acrobot-v1", num_envs=4, batch_size=2)
        dm.async_reset()
        idle = envpool.make("MountainCar-v0", num_envs=2)  # never reset
        cycle = {"pool": envpool.make("CartPole-v1", num_envs=2)}
        cycle["self"] = cycle  # only the cycle collector frees it
        print("done", flush=True)
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert "done" in proc.stdout


def test_interpreter_exit_while_a_daemon_thread_steps():
    # An actor thread still stepping when the main thread returns.
    proc = run_python(
        """
        import threading
        import time
        import numpy as np
        import envpool

        env = envpool.make("CartPole-v1", num_envs=4, num_threads=2)
        env.reset()
        started = threading.Event()

        def loop():
            while True:
                env.step(np.zeros(4, np.int64))
                started.set()

        threading.Thread(target=loop, daemon=True).start()
        started.wait(10)
        time.sleep(0.05)
        print("done", flush=True)
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert "done" in proc.stdout


# fork(): the child inherits pools whose worker threads do not exist there.
# Each child has a watchdog that turns a hang into exit status 1 with a
# traceback on stderr.

_FORK_PRELUDE = """
import faulthandler
import gc
import os
import sys
import time
import numpy as np
import envpool

env = envpool.make("CartPole-v1", num_envs=4, num_threads=2)
env.reset(seed=0)
env.step(np.zeros(4, np.int64))
asyn = envpool.make("CartPole-v1", num_envs=4, batch_size=2, num_threads=2)
asyn.async_reset()
time.sleep(0.3)  # let the workers go to sleep
"""

_FORK_PARENT = """
_, status = os.waitpid(pid, 0)
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    print("child status", status, file=sys.stderr, flush=True)
    sys.exit(3)
env.step(np.zeros(4, np.int64))
asyn.recv()
asyn.recv()
print("parent ok", flush=True)
"""


def _run_fork(child: str) -> None:
    body = textwrap.indent(textwrap.dedent(child), "    ")
    code = (
        _FORK_PRELUDE
        + "pid = os.fork()\n"
        + "if pid == 0:\n"
        + "    faulthandler.dump_traceback_later(5, exit=True)\n"
        + body
        + "\n    os._exit(0)\n"
        + _FORK_PARENT
    )
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert "parent ok" in proc.stdout


def test_fork_child_calls_raise_call_order_error():
    _run_fork(
        """
        calls = (
            lambda: env.step(np.zeros(4, np.int64)),
            lambda: env.reset(seed=0),
            lambda: asyn.recv(),
            lambda: asyn.send(np.zeros(2, np.int64), env_id=[0, 1]),
            lambda: asyn.async_reset(),
        )
        for call in calls:
            try:
                call()
            except envpool.CallOrderError:
                continue
            os._exit(10)
        env.close()
        asyn.close()
        """
    )


def test_fork_child_can_make_a_new_pool():
    _run_fork(
        """
        child = envpool.make("CartPole-v1", num_envs=2, num_threads=2)
        child.reset(seed=0)
        child.step(np.zeros(2, np.int64))
        child.close()
        """
    )


def test_fork_child_dropping_inherited_pools_does_not_hang():
    _run_fork(
        """
        del env, asyn
        gc.collect()
        """
    )


def test_fork_child_exiting_normally_does_not_hang():
    # Interpreter shutdown in the child destroys the inherited pools.
    _run_fork("sys.exit(0)")


def test_pickling_a_pool_is_type_error():
    for env in (
        envpool.make("CartPole-v1", num_envs=2),
        envpool.make_dm("CartPole-v1", num_envs=2),
    ):
        with pytest.raises(TypeError, match="pickle"):
            pickle.dumps(env)
        with pytest.raises(TypeError):
            copy.deepcopy(env)
        env.close()


def test_two_threads_hammering_one_pool():
    steps_per_thread = 150
    env = envpool.make(
        "Pendulum-v1", num_envs=4, num_threads=2, max_episode_steps=10 * steps_per_thread
    )
    env.reset(seed=0)
    seen: list[int] = []
    errors = []
    lock = threading.Lock()

    def worker(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(steps_per_thread):
                actions = rng.uniform(-2, 2, (4, 1)).astype(np.float32)
                obs, reward, terminated, truncated, info = env.step(actions)
                assert obs.shape == (4, 3) and np.all(np.isfinite(obs))
                assert np.all(np.isfinite(reward))
                np.testing.assert_array_equal(info["env_id"], [0, 1, 2, 3])
                elapsed = info["elapsed_step"]
                assert np.all(elapsed == elapsed[0]), elapsed
                assert not terminated.any() and not truncated.any()
                with lock:
                    seen.append(int(elapsed[0]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(s,), daemon=True) for s in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "threads hung"
    assert not errors, errors
    # Serialised: every step of either thread advanced every env exactly once.
    assert sorted(seen) == list(range(1, 2 * steps_per_thread + 1))
    assert_steps_ok(env)
    env.close()


def test_threads_mixing_step_and_reset():
    env = envpool.make("CartPole-v1", num_envs=4, num_threads=2)
    env.reset(seed=0)
    errors = []

    def stepper():
        try:
            for _ in range(200):
                _, _, _, _, info = env.step(np.zeros(4, np.int64))
                np.testing.assert_array_equal(info["env_id"], [0, 1, 2, 3])
        except BaseException as exc:
            errors.append(exc)

    def resetter():
        try:
            for s in range(50):
                obs, info = env.reset(seed=s)
                assert obs.shape == (4, 4)
                np.testing.assert_array_equal(info["elapsed_step"], 0)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=f, daemon=True) for f in (stepper, resetter)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "threads hung"
    assert not errors, errors
    assert_steps_ok(env)
    env.close()
