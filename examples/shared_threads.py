"""Several pools on one set of worker threads, and one pool per NUMA node.

A training pool and an evaluation pool (and pools of other tasks) made with one
``envpool.make_thread_pool()`` share its threads instead of each starting one per
core. Past one NUMA node, one pool per node keeps each pool's threads and memory
on its node (docs/scaling.md); on a one-node machine that is one pool.
"""

from __future__ import annotations

import threading

import numpy as np

import envpool
from envpool import numa


def train_and_eval() -> None:
    shared = envpool.make_thread_pool()  # one thread per CPU this process may use
    train = envpool.make("CartPole-v1", num_envs=16, batch_size=8, thread_pool=shared, seed=0)
    evaluate = envpool.make("CartPole-v1", num_envs=4, thread_pool=shared, seed=1000)
    other_task = envpool.make("Pendulum-v1", num_envs=8, thread_pool=shared)
    train.async_reset()
    evaluate.reset()
    other_task.reset()
    steps = 0
    for _ in range(200):
        _, _, _, _, info = train.recv()
        train.send(np.random.randint(0, 2, size=8), info["env_id"])
        evaluate.step(np.zeros(4, dtype=np.int64))
        other_task.step(np.zeros((8, 1), dtype=np.float32))
        steps += 8 + 4 + 8
    print(f"{shared}: 3 pools stepped {steps} env steps on {shared.num_threads} shared threads")
    for env in (train, evaluate, other_task):
        env.close()


def one_pool_per_node() -> None:
    nodes = numa.nodes()
    pools = [
        envpool.make(
            "CartPole-v1",
            num_envs=2 * len(node.cpus),
            batch_size=len(node.cpus),
            numa_node=node.id,  # threads, env memory and batch memory on this node
        )
        for node in nodes
    ]
    counts = [0] * len(pools)

    def drive(k: int) -> None:  # one Python thread per pool
        env = pools[k]
        env.async_reset()
        for _ in range(100):
            _, _, _, _, info = env.recv()
            env.send(np.zeros(len(info["env_id"]), dtype=np.int64), info["env_id"])
            counts[k] += len(info["env_id"])

    threads = [threading.Thread(target=drive, args=(k,)) for k in range(len(pools))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for node, env, count in zip(nodes, pools, counts, strict=True):
        print(f"node {node.id} ({len(node.cpus)} CPUs): {env.num_envs} envs, {count} env steps")
        env.close()


if __name__ == "__main__":
    train_and_eval()
    one_pool_per_node()
