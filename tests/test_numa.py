"""NUMA topology from sysfs (envpool.numa), on recorded trees of a 2-node and an 8-node
machine (tests/fixtures/sysfs_*, in the kernel's documented format), and placement:
make(numa_node=k) runs the pool's threads on node k's CPUs and binds its batch memory."""

from __future__ import annotations

import ctypes
import os
import platform
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import envpool
from envpool import numa

FIXTURES = Path(__file__).parent / "fixtures"
TWO_NODE = FIXTURES / "sysfs_2node"
EIGHT_NODE = FIXTURES / "sysfs_8node"


@pytest.mark.parametrize(
    ("text", "cpus"),
    [
        ("0-3,8,10-11\n", (0, 1, 2, 3, 8, 10, 11)),
        ("5", (5,)),
        ("\n", ()),
        ("0-15,128-143", (*range(16), *range(128, 144))),
        ("0-7:2/4", (0, 1, 4, 5)),
        ("3,1,2", (1, 2, 3)),
    ],
)
def test_parse_cpulist(text: str, cpus: tuple[int, ...]) -> None:
    assert numa.parse_cpulist(text) == cpus


@pytest.mark.parametrize("text", ["0-", "a", "3-1", "1,,x"])
def test_parse_cpulist_rejects_garbage(text: str) -> None:
    with pytest.raises(ValueError, match=r"CPU list|descending"):
        numa.parse_cpulist(text)


@pytest.mark.parametrize(
    ("text", "cpus"),
    [
        ("0000000f\n", (0, 1, 2, 3)),
        ("00000001,00000000", (32,)),
        ("ffff0000,ffff0000", (*range(16, 32), *range(48, 64))),
        ("00000000", ()),
    ],
)
def test_parse_cpumap(text: str, cpus: tuple[int, ...]) -> None:
    assert numa.parse_cpumap(text) == cpus


def test_two_node_machine() -> None:
    nodes = numa.read_topology(TWO_NODE)
    assert [n.id for n in nodes] == [0, 1]
    assert nodes[0].cpus == (*range(16), *range(32, 48))
    # CPU 63 is offline (cpu/online says 0-62): no thread goes there
    assert nodes[1].cpus == (*range(16, 32), *range(48, 63))
    assert nodes[0].distances == {0: 10, 1: 21}
    assert nodes[1].distances == {0: 21, 1: 10}
    assert nodes[0].memory_kb == 131928476
    assert numa.node_cpus(1, TWO_NODE) == nodes[1].cpus


def test_eight_node_machine() -> None:
    nodes = numa.read_topology(EIGHT_NODE)
    assert [n.id for n in nodes] == list(range(8))
    for k, node in enumerate(nodes):
        # 16 cores and their SMT siblings 128 CPUs up
        assert node.cpus == (*range(16 * k, 16 * k + 16), *range(128 + 16 * k, 144 + 16 * k))
        for other in range(8):
            expected = 10 if other == k else 12 if other // 4 == k // 4 else 32
            assert node.distances[other] == expected
    every = sorted(c for n in nodes for c in n.cpus)
    assert every == list(range(256))
    assert numa.nodes(EIGHT_NODE) == nodes


@pytest.mark.parametrize("tree", [TWO_NODE, EIGHT_NODE])
def test_cpumap_and_cpulist_agree(tree: Path) -> None:
    for path in sorted((tree / "devices/system/node").glob("node*")):
        assert numa.parse_cpumap((path / "cpumap").read_text()) == numa.parse_cpulist(
            (path / "cpulist").read_text()
        )


def test_cpumap_is_read_where_cpulist_is_missing(tmp_path: Path) -> None:
    tree = tmp_path / "sys"
    shutil.copytree(EIGHT_NODE, tree)
    for path in (tree / "devices/system/node").glob("node*/cpulist"):
        path.unlink()
    assert numa.read_topology(tree) == numa.read_topology(EIGHT_NODE)


def test_a_kernel_without_numa_is_one_node_of_every_online_cpu(tmp_path: Path) -> None:
    tree = tmp_path / "sys"
    shutil.copytree(TWO_NODE, tree)
    shutil.rmtree(tree / "devices/system/node")
    (node,) = numa.read_topology(tree)
    assert node.id == 0 and node.cpus == tuple(range(63))


def test_memory_only_nodes_and_unknown_nodes(tmp_path: Path) -> None:
    tree = tmp_path / "sys"
    shutil.copytree(TWO_NODE, tree)
    node_dir = tree / "devices/system/node"
    (node_dir / "node1" / "cpulist").write_text("\n")  # memory only (say, CXL)
    (node_dir / "node1" / "cpumap").write_text("00000000,00000000\n")
    assert [n.id for n in numa.read_topology(tree)] == [0, 1]
    assert [n.id for n in numa.nodes(tree)] == [0]
    with pytest.raises(ValueError, match=r"numa_node=1 .* use one of: 0"):
        numa.node_cpus(1, tree)
    with pytest.raises(TypeError, match="numa_node must be an int"):
        numa.node_cpus("0", tree)  # type: ignore[arg-type]


def test_this_machine_has_a_node_with_the_processes_cpus() -> None:
    nodes = numa.nodes()
    assert nodes
    assert set().union(*(n.cpus for n in nodes)) <= numa.allowed_cpus()


def _worker_masks(before: set[int]) -> list[set[int]]:
    return [
        os.sched_getaffinity(t) for t in {int(t) for t in os.listdir("/proc/self/task")} - before
    ]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread placement is Linux-only")
@pytest.mark.skipif(len(numa.allowed_cpus()) < 2, reason="needs two CPUs")
def test_numa_node_runs_the_pools_threads_on_that_nodes_cpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # This machine is one node: pretend its second CPU is a node of its own.
    cpus = sorted(numa.allowed_cpus())
    if len(cpus) < 2:  # collection saw two; something in this process narrowed them since
        pytest.skip(f"this thread may now run on CPU {cpus} only; the fake nodes need two")
    fake = [
        numa.NumaNode(0, tuple(cpus[:1]), None, {0: 10, 1: 20}),
        numa.NumaNode(1, tuple(cpus[1:2]), None, {0: 20, 1: 10}),
    ]
    monkeypatch.setattr(numa, "read_topology", lambda root=numa.SYSFS_ROOT: fake)
    before = {int(t) for t in os.listdir("/proc/self/task")}
    with envpool.make("CartPole-v1", num_envs=4, batch_size=2, numa_node=1) as env:
        masks = _worker_masks(before)
        # one thread per CPU of the node unless num_threads says otherwise
        assert env.num_threads == 1
        assert masks == [{cpus[1]}]
        env.async_reset()
        assert len(env.recv()[0]) == 2
    before = {int(t) for t in os.listdir("/proc/self/task")}
    shared = envpool.make_thread_pool(numa_node=0)
    assert shared.num_threads == 1 and shared.numa_node == 0
    assert _worker_masks(before) == [{cpus[0]}]
    # thread_affinity_offset counts within the node's CPUs
    before = {int(t) for t in os.listdir("/proc/self/task")}
    with envpool.make(
        "CartPole-v1",
        num_envs=4,
        batch_size=2,
        num_threads=2,
        numa_node=1,
        thread_affinity_offset=0,
    ):
        assert _worker_masks(before) == [{cpus[1]}, {cpus[1]}]


MPOL_DEFAULT = 0
MPOL_PREFERRED = 1
MPOL_F_ADDR = 2
SYS_GET_MEMPOLICY = {"x86_64": 239, "aarch64": 236}.get(platform.machine())


def _memory_policy(array: np.ndarray) -> tuple[int, int]:
    """(mode, node mask) of the memory policy of the page that holds array's data."""
    libc = ctypes.CDLL(None, use_errno=True)
    mode = ctypes.c_int(-1)
    mask = (ctypes.c_ulong * 16)()
    rc = libc.syscall(
        SYS_GET_MEMPOLICY,
        ctypes.byref(mode),
        mask,
        ctypes.c_ulong(16 * 64),
        ctypes.c_void_p(array.ctypes.data),
        ctypes.c_ulong(MPOL_F_ADDR),
    )
    if rc != 0:
        pytest.skip(f"get_mempolicy failed: errno {ctypes.get_errno()}")
    return mode.value, mask[0]


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or SYS_GET_MEMPOLICY is None,
    reason="needs Linux get_mempolicy",
)
@pytest.mark.parametrize("batch_size", [4, 2])
def test_numa_node_binds_the_batch_memory_to_the_node(batch_size: int) -> None:
    node = numa.nodes()[0].id
    with envpool.make("CartPole-v1", num_envs=4, batch_size=batch_size, numa_node=node) as env:
        env.async_reset()
        obs = env.recv()[0]
        assert _memory_policy(obs) == (MPOL_PREFERRED, 1 << node)
    shared = envpool.make_thread_pool(num_threads=1, numa_node=node)
    with envpool.make("CartPole-v1", num_envs=4, thread_pool=shared) as env:
        obs, _ = env.reset()
        assert _memory_policy(obs) == (MPOL_PREFERRED, 1 << node)
    with envpool.make("CartPole-v1", num_envs=4, batch_size=batch_size) as env:
        env.async_reset()
        assert _memory_policy(env.recv()[0])[0] == MPOL_DEFAULT


@pytest.mark.skipif(len(numa.allowed_cpus()) < 2, reason="needs two CPUs")
def test_bench_scaling_runs_one_pool_per_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/bench_scaling.py's per-node layout, on this machine split into two fake nodes."""
    import importlib.util

    path = Path(__file__).parents[1] / "benchmarks" / "bench_scaling.py"
    spec = importlib.util.spec_from_file_location("bench_scaling", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cpus = sorted(numa.allowed_cpus())
    if len(cpus) < 2:  # collection saw two; something in this process narrowed them since
        pytest.skip(f"this thread may now run on CPU {cpus} only; the fake nodes need two")
    fake = [
        numa.NumaNode(0, tuple(cpus[:1]), None, {0: 10, 1: 20}),
        numa.NumaNode(1, tuple(cpus[1:2]), None, {0: 20, 1: 10}),
    ]
    monkeypatch.setattr(numa, "read_topology", lambda root=numa.SYSFS_ROOT: fake)
    # the fake nodes are judged against the CPUs seen here: the calling thread's own
    # affinity has been seen to narrow during the run in CI (not reproduced locally),
    # which would make node 1 vanish between the two pools' make() calls
    monkeypatch.setattr(numa, "allowed_cpus", lambda: set(cpus))
    result = bench.measure("CartPole-v1", [1, 2], 2, 0.1, 1)
    assert [row["threads"] for row in result["rows"]] == [1, 2]
    assert result["per_node"]["nodes"] == 2 and result["per_node"]["threads"] == 2
    assert result["per_node"]["steps_per_s"] > 0
    assert "per-node pools" in bench.table([result])
