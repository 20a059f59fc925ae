"""The machine's NUMA topology, read from sysfs: which CPUs and how much memory each node has.

The kernel documents the files in Documentation/ABI/stable/sysfs-devices-node:
``/sys/devices/system/node/online`` lists the online nodes, and each ``nodeN/`` holds
``cpulist`` (ranges such as ``0-15,128-143``), ``cpumap`` (the same set as comma-separated
32-bit hex words), ``distance`` (relative access costs to every online node, 10 = local)
and ``meminfo``. A kernel without NUMA support has no ``node/`` folder: the machine is
then one node holding every online CPU.

``make(..., numa_node=k)`` and ``make_thread_pool(numa_node=k)`` use this to keep a pool's
threads and its batch memory on node k (docs/scaling.md).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

SYSFS_ROOT = "/sys"


@dataclass(frozen=True)
class NumaNode:
    """One NUMA node: its id, its CPUs, its memory and its distances to the online nodes."""

    id: int
    cpus: tuple[int, ...]
    """Online CPUs of the node (a memory-only node has none)."""
    memory_kb: int | None
    """MemTotal of the node, None where sysfs does not say."""
    distances: dict[int, int]
    """Node id -> relative access cost from this node (10 is local)."""


def parse_cpulist(text: str) -> tuple[int, ...]:
    """``"0-3,8,10-11"`` -> ``(0, 1, 2, 3, 8, 10, 11)``; an empty list gives ``()``."""
    cpus: set[int] = set()
    for part in text.strip().split(","):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\d+)(?:-(\d+))?(?::(\d+)/(\d+))?", part)
        if match is None:
            raise ValueError(f"not a CPU list: {text.strip()!r}")
        first = int(match.group(1))
        last = int(match.group(2) or first)
        if last < first:
            raise ValueError(f"descending range {part!r} in CPU list {text.strip()!r}")
        if match.group(3):  # "0-31:2/4": the first 2 of every 4 (cpuset syntax)
            used, group = int(match.group(3)), int(match.group(4))
            cpus.update(c for c in range(first, last + 1) if (c - first) % group < used)
        else:
            cpus.update(range(first, last + 1))
    return tuple(sorted(cpus))


def parse_cpumap(text: str) -> tuple[int, ...]:
    """``"00000000,0000ff0f"`` (32-bit hex words, most significant first) -> the CPUs set in it."""
    words = text.strip().split(",")
    try:
        value = int("".join(w.strip().rjust(8, "0") for w in words), 16)
    except ValueError:
        raise ValueError(f"not a CPU mask: {text.strip()!r}") from None
    return tuple(bit for bit in range(value.bit_length()) if value >> bit & 1)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _memory_kb(meminfo: str | None) -> int | None:
    if meminfo is None:
        return None
    match = re.search(r"MemTotal:\s+(\d+)\s*kB", meminfo)
    return int(match.group(1)) if match else None


def read_topology(sysfs_root: str | os.PathLike[str] = SYSFS_ROOT) -> list[NumaNode]:
    """The online NUMA nodes, in id order (one node of every CPU without NUMA support)."""
    root = Path(sysfs_root)
    node_dir = root / "devices" / "system" / "node"
    online_cpus_text = _read(root / "devices" / "system" / "cpu" / "online")
    online_cpus = set(parse_cpulist(online_cpus_text)) if online_cpus_text is not None else None
    if not node_dir.is_dir():
        all_cpus = online_cpus if online_cpus is not None else set(range(os.cpu_count() or 1))
        return [NumaNode(0, tuple(sorted(all_cpus)), None, {0: 10})]
    online_text = _read(node_dir / "online")
    if online_text is not None:
        ids = parse_cpulist(online_text)  # the same range syntax
    else:
        ids = tuple(sorted(int(p.name[4:]) for p in node_dir.glob("node*") if p.name[4:].isdigit()))
    nodes = []
    for node_id in ids:
        path = node_dir / f"node{node_id}"
        cpulist = _read(path / "cpulist")
        if cpulist is not None:
            cpus = parse_cpulist(cpulist)
        else:
            cpumap = _read(path / "cpumap")
            cpus = parse_cpumap(cpumap) if cpumap is not None else ()
        if online_cpus is not None:
            cpus = tuple(c for c in cpus if c in online_cpus)
        distance_text = _read(path / "distance")
        costs = [int(d) for d in distance_text.split()] if distance_text else []
        distances = dict(zip(ids, costs, strict=True)) if len(costs) == len(ids) else {node_id: 10}
        memory = _memory_kb(_read(path / "meminfo"))
        nodes.append(NumaNode(node_id, cpus, memory, distances))
    return nodes


def allowed_cpus() -> set[int]:
    """The CPUs this process may run on (its affinity mask)."""
    try:
        return set(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


def nodes(sysfs_root: str | os.PathLike[str] = SYSFS_ROOT) -> list[NumaNode]:
    """The nodes with CPUs this process may use, each with only those CPUs: where pools go."""
    allowed = allowed_cpus() if sysfs_root == SYSFS_ROOT else None
    usable = []
    for node in read_topology(sysfs_root):
        cpus = tuple(c for c in node.cpus if allowed is None or c in allowed)
        if cpus:
            usable.append(NumaNode(node.id, cpus, node.memory_kb, node.distances))
    return usable


def node_cpus(node_id: int, sysfs_root: str | os.PathLike[str] = SYSFS_ROOT) -> tuple[int, ...]:
    """The CPUs of node ``node_id`` this process may use; ValueError naming the nodes if none."""
    if isinstance(node_id, bool) or not isinstance(node_id, int):
        raise TypeError(f"numa_node must be an int or None, got {type(node_id).__name__}")
    usable = nodes(sysfs_root)
    for node in usable:
        if node.id == node_id:
            return node.cpus
    ids = ", ".join(str(n.id) for n in usable)
    raise ValueError(
        f"numa_node={node_id} is not a NUMA node with CPUs this process may use; "
        f"use one of: {ids} (envpool.numa.nodes() lists them)"
    )
