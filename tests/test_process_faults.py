"""Process-level faults: many pools made and dropped, Ctrl-C during a blocking
call, and interpreter exit with slow work in flight. Each runs in a fresh
interpreter, so that thread counts and memory are its own."""

from __future__ import annotations

import json
import os

import pytest
from conftest import run_python
from fault_env import prelude

pytestmark = pytest.mark.asan

STATUS = """
def status(key):
    with open("/proc/self/status") as f:
        return int(next(line for line in f if line.startswith(key)).split()[1])
"""

CYCLE = """
import gc, json, numpy as np, envpool

def cycle(i, task):
    # Alternate the ways a pool can end: closed or just dropped, sync or
    # async, with or without work left in flight.
    env = envpool.make(task, num_envs=4, num_threads=2, batch_size=4 if i % 3 else 2)
    if i % 3:
        env.reset()
        env.step(np.zeros(4, dtype=np.int64))
    else:
        env.async_reset()
        env.recv()
    if i % 2:
        env.close()
    del env

def measure(task, warmup, count):
    for i in range(warmup):
        cycle(i, task)
    gc.collect()
    threads, rss = status("Threads:"), status("VmRSS:")
    for i in range(count):
        cycle(i, task)
    gc.collect()
    return {"threads": status("Threads:") - threads, "rss_kb": status("VmRSS:") - rss}
"""


@pytest.mark.parametrize(
    ("task", "count", "max_rss_kb"),
    # An Atari env holds its emulator and ROM (hundreds of kB); a classic
    # control pool leaks nothing per pool, up to allocator noise.
    [("CartPole-v1", 1000, 4096), ("Pong-v5", 30, 3072)],
)
def test_making_and_dropping_pools_leaks_no_threads_or_memory(task, count, max_rss_kb):
    code = STATUS + CYCLE + f"print(json.dumps(measure({task!r}, 10, {count})))"
    done = run_python(code, timeout=120)
    assert done.returncode == 0, done.stderr
    growth = json.loads(done.stdout)
    assert growth["threads"] == 0, growth
    if "asan" not in os.environ.get("LD_PRELOAD", ""):
        # AddressSanitizer's quarantine holds freed memory back on purpose.
        assert growth["rss_kb"] < max_rss_kb, growth


CTRL_C = """
import os, signal, threading, time
import numpy as np

# A process started as a background job inherits SIGINT as ignored, and Python
# then installs no KeyboardInterrupt handler: install the one these tests rely on.
signal.signal(signal.SIGINT, signal.default_int_handler)

def interrupt_after(seconds):
    sent = {}
    def fire():
        sent["at"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)
    threading.Timer(seconds, fire).start()
    return sent

def blocked_call_latency(call):
    sent = interrupt_after(0.3)
    try:
        call()
    except KeyboardInterrupt:
        return time.monotonic() - sent["at"]
    raise AssertionError("the call returned instead of being interrupted")
"""


def test_ctrl_c_interrupts_a_blocking_sync_step_and_the_pool_goes_on(fault_env_dir):
    code = (
        prelude(fault_env_dir)
        + CTRL_C
        + """
env = envpool.make("Fault-v0", num_envs=2, num_threads=2, sleep_us=1_000_000)
env.reset(seed=0)
# The calling thread runs env code in a sync step until it has seen steps
# take over 1 ms; from then on it leaves them to the workers and only waits.
env.step(np.zeros(2, dtype=np.int64))
latency = blocked_call_latency(lambda: env.step(np.zeros(2, dtype=np.int64)))
# The interrupted step's round is finished and dropped by the next call.
obs, *_ = env.step(np.zeros(2, dtype=np.int64))
print(latency, obs[:, 1].tolist())
"""
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    latency, steps = done.stdout.split(" ", 1)
    assert float(latency) < 0.5
    assert json.loads(steps) == [3.0, 3.0]


def test_ctrl_c_interrupts_a_blocking_recv_and_the_work_stays_in_flight(fault_env_dir):
    code = (
        prelude(fault_env_dir)
        + CTRL_C
        + """
env = envpool.make("Fault-v0", num_envs=4, batch_size=2, num_threads=2, sleep_us=2_000_000)
env.async_reset()
env.recv()
env.recv()
env.send(np.zeros(2, dtype=np.int64), env_id=[1, 2])
latency = blocked_call_latency(env.recv)
obs, _, _, _, info = env.recv()
print(latency, sorted(info["env_id"].tolist()), obs[:, 1].tolist())
"""
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    latency, rest = done.stdout.split(" ", 1)
    assert float(latency) < 0.5
    assert rest.split() == ["[1,", "2]", "[1.0,", "1.0]"]


def test_exit_with_slow_work_in_flight_waits_only_for_running_steps(fault_env_dir):
    """Eight 1-second steps queued on one thread: exit finishes the step that is
    running and drops the queued ones, so it takes about 1 s, not 8."""
    code = (
        prelude(fault_env_dir)
        + """
import time
import numpy as np
env = envpool.make("Fault-v0", num_envs=8, batch_size=1, num_threads=1, sleep_us=1_000_000)
env.async_reset()
for _ in range(8):
    env.recv()
env.send(np.zeros(8, dtype=np.int64))
print(time.monotonic(), flush=True)
"""
    )
    import time

    done = run_python(code, timeout=30)
    ended = time.monotonic()
    assert done.returncode == 0, done.stderr
    assert ended - float(done.stdout) < 4.0
