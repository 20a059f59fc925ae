"""Worker threads shared by several pools: ``make(..., thread_pool=make_thread_pool())``.

Each pool normally starts threads of its own, so four pools made with one thread per
core ask for four threads per core. Pools given one ThreadPool run their envs on its
threads instead: every worker visits the pools with work in turn, so a pool that is
stepping gets every thread while the others wait for their next call. What a pool
returns does not depend on which threads ran it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from envpool import bindings, numa

THREAD_POOL_VARIABLE = "ENVPOOL_THREAD_POOL"
"""Set to a number of threads (0: one per CPU this process may use): every pool made
without num_threads, numa_node or thread_pool shares one process-wide ThreadPool."""

_default: ThreadPool | None = None
_default_from_env = False
_lock = threading.Lock()


class ThreadPool:
    """A set of worker threads that pools share; make one with make_thread_pool().

    The threads stop once the ThreadPool and every pool made with it are gone.
    """

    def __init__(self, handle: Any, num_threads: int, cpus: tuple[int, ...], numa_node: int | None):
        self._handle = handle
        self._num_threads = num_threads
        self._cpus = cpus
        self._numa_node = numa_node

    @property
    def num_threads(self) -> int:
        return self._num_threads

    @property
    def numa_node(self) -> int | None:
        """The NUMA node whose CPUs the threads run on (None: any CPU)."""
        return self._numa_node

    @property
    def cpus(self) -> tuple[int, ...]:
        """The CPUs the threads may run on (empty: any)."""
        return self._cpus

    def __repr__(self) -> str:
        where = f", numa_node={self._numa_node}" if self._numa_node is not None else ""
        return f"ThreadPool(num_threads={self._num_threads}{where})"


def make_thread_pool(
    num_envs_capacity: int | None = None,
    num_threads: int | None = None,
    thread_affinity_offset: int = -1,
    numa_node: int | None = None,
) -> ThreadPool:
    """Starts ``num_threads`` worker threads for pools to share (``make(..., thread_pool=...)``).

    num_threads defaults to one per CPU this process may use (of ``numa_node`` when given).
    thread_affinity_offset >= 0 pins thread i to the (offset + i)-th of those CPUs, as
    make()'s does; numa_node keeps the threads on that node's CPUs (envpool.numa.nodes()).
    The signature starts as the original EnvPool's, ``make_thread_pool(num_envs_capacity,
    num_threads=0, thread_affinity_offset=-1)``, so its calls carry over: pass
    num_threads by keyword. num_envs_capacity is checked but sets no limit here, as
    envs live in their pools and any number of pools may share the threads.
    """
    _core = bindings.extension("_core")

    if num_envs_capacity is not None and (
        isinstance(num_envs_capacity, bool)
        or not isinstance(num_envs_capacity, int)
        or num_envs_capacity < 1
    ):
        raise ValueError(
            f"num_envs_capacity must be a positive int or None, got {num_envs_capacity!r} "
            "(the first argument is the original EnvPool's capacity; pass num_threads=... "
            "by keyword)"
        )
    cpus: tuple[int, ...] = ()
    if numa_node is not None:
        cpus = numa.node_cpus(numa_node)
    if isinstance(thread_affinity_offset, bool) or not isinstance(thread_affinity_offset, int):
        raise TypeError(
            f"thread_affinity_offset must be an int, got {type(thread_affinity_offset).__name__}"
        )
    if thread_affinity_offset < -1:
        raise ValueError(f"thread_affinity_offset must be >= -1, got {thread_affinity_offset}")
    if num_threads is None or num_threads == 0:
        num_threads = len(cpus) if cpus else len(numa.allowed_cpus())
    if isinstance(num_threads, bool) or not isinstance(num_threads, int):
        raise TypeError(f"num_threads must be an int or None, got {type(num_threads).__name__}")
    if num_threads < 1:
        raise ValueError(f"num_threads must be >= 1 (or None: one per CPU), got {num_threads}")
    handle = _core._make_worker_group(num_threads, list(cpus), thread_affinity_offset)
    return ThreadPool(handle, num_threads, cpus, numa_node)


def set_default_thread_pool(pool: ThreadPool | None) -> ThreadPool | None:
    """Makes ``pool`` the thread pool of every later make() that names no num_threads,
    numa_node or thread_pool (None: pools start threads of their own again). Returns
    the previous default."""
    global _default, _default_from_env
    if pool is not None and not isinstance(pool, ThreadPool):
        raise TypeError(
            f"set_default_thread_pool takes a ThreadPool (envpool.make_thread_pool()) or None, "
            f"got {type(pool).__name__}"
        )
    with _lock:
        previous = _default
        _default = pool
        _default_from_env = True  # an explicit choice overrides the variable
    return previous


def get_default_thread_pool() -> ThreadPool | None:
    """The process-wide default thread pool: set_default_thread_pool()'s, or one made from
    the environment variable ENVPOOL_THREAD_POOL on first use, or None."""
    global _default, _default_from_env
    with _lock:
        if not _default_from_env:
            _default_from_env = True
            text = os.environ.get(THREAD_POOL_VARIABLE, "").strip()
            if text:
                try:
                    threads = int(text)
                except ValueError:
                    raise ValueError(
                        f"{THREAD_POOL_VARIABLE} must be a number of threads (0: one per CPU), "
                        f"got {text!r}"
                    ) from None
                if threads < 0:
                    raise ValueError(f"{THREAD_POOL_VARIABLE} must be >= 0, got {threads}")
                _default = make_thread_pool(num_threads=threads or None)
        return _default


def _reset_after_fork() -> None:
    # A child inherits the parent's default but not its threads.
    global _default, _default_from_env, _lock
    _lock = threading.Lock()
    _default = None
    _default_from_env = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)
