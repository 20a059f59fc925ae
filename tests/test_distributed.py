"""envpool.distributed: trajectory cutting, the weight cache, the trajectory store, fault
tolerance (a killed actor, a stalled learner, a killed shard), an end-to-end run on
simulated nodes, and the example.

The cutter and learner tests need no Ray and run anywhere. Every test that starts Ray
runs only inside a network namespace with loopback alone (see distributed_netns.py),
and skips elsewhere; they share one simulated cluster (a head and two worker nodes).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

if os.environ.get("ENVPOOL_REQUIRE_NETNS"):  # CI: fail, rather than skip, without Ray
    import ray
else:
    ray = pytest.importorskip("ray")
from distributed_netns import require_only_loopback
from ray.exceptions import GetTimeoutError, RayActorError

import envpool
from envpool.distributed import (
    PPOConfig,
    RolloutActor,
    RunConfig,
    StoreReader,
    TrajectoryCutter,
    TrajectoryShard,
    WeightBoard,
    WeightFetcher,
    WeightPublisher,
    make_shards,
    train,
)
from envpool.distributed.launcher import stop_actors
from envpool.distributed.policy import init_weights
from envpool.distributed.trajectory import FIELDS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "distributed_cartpole.py"
TRAJECTORY_KEYS = {*FIELDS, "env_id", "finished_returns", "actor_id"}
CARTPOLE_MAX_STEPS = 500
FINAL = -1234.5  # the logp the cutter test sends with actions chosen for a final obs


# --- helpers ---------------------------------------------------------------------------


def check_transitions(traj: dict, length: int, max_steps: int) -> None:
    """One trajectory is whole: every field `length` rows, and rows follow each other
    within one env (a new episode starts at a reset obs after an episode end)."""
    for key in FIELDS:
        assert len(traj[key]) == length, (key, len(traj[key]))
    assert traj["obs"].dtype == np.float32 and traj["next_obs"].dtype == np.float32
    assert traj["obs"].shape == traj["next_obs"].shape == (length, 4)
    done = traj["terminated"] | traj["truncated"]
    elapsed = traj["elapsed_step"]
    # CartPole pays 1 per step; a reset row (reward 0) must never be recorded.
    np.testing.assert_array_equal(traj["reward"], np.ones(length))
    assert (traj["logp"] <= 0).all() and (traj["logp"] != FINAL).all()
    assert (np.diff(traj["policy_version"]) >= 0).all()
    for t in range(length):
        # truncation happens exactly at the step limit, termination never after it
        if traj["truncated"][t]:
            assert elapsed[t] + 1 == max_steps, (t, elapsed[t])
        assert elapsed[t] + 1 <= max_steps
        if t + 1 == length:
            break
        if done[t]:
            assert elapsed[t + 1] == 0, (t, elapsed[t + 1])
            assert not np.array_equal(traj["obs"][t + 1], traj["next_obs"][t])
        else:
            assert elapsed[t + 1] == elapsed[t] + 1, (t, elapsed[t], elapsed[t + 1])
            np.testing.assert_array_equal(traj["next_obs"][t], traj["obs"][t + 1])


def check_stored(traj: dict, length: int) -> None:
    """A trajectory as the store holds it: whole, and tagged with where it came from."""
    assert set(traj) == TRAJECTORY_KEYS
    check_transitions(traj, length, CARTPOLE_MAX_STEPS)
    # the returns of the episodes that ended in this trajectory, one per episode end
    returns = traj["finished_returns"]
    assert returns.ndim == 1 and ((returns >= 1) & (returns <= CARTPOLE_MAX_STEPS)).all()
    assert returns.size == int((traj["terminated"] | traj["truncated"]).sum())


def proc_rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError(f"no VmRSS for pid {pid}")


def actor_pid(actor: Any) -> int:
    return ray.get(actor.__ray_call__.remote(lambda self: os.getpid()), timeout=30)


def wait_for(condition: Any, timeout: float, what: str, every: float = 0.1) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


def start_actors(
    n: int, board: Any, shards: list[Any], num_envs: int = 4, length: int = 16
) -> tuple[list[Any], list[Any]]:
    actors = [
        RolloutActor.remote(i, "CartPole-v1", num_envs, board, shards, length, 7, 1)
        for i in range(n)
    ]
    runs = [a.run.remote() for a in actors]
    # up (a process each, importing envpool), so later timeouts measure the run alone
    ray.get([a.stats.remote() for a in actors], timeout=120)
    return actors, runs


def kill_all(*handles: Any) -> None:
    for h in handles:
        ray.kill(h)


def weights_digest(weights: dict[str, np.ndarray]) -> str:
    return hashlib.sha1(b"".join(weights[k].tobytes() for k in sorted(weights))).hexdigest()


# --- the trajectory cutter (no Ray) -------------------------------------------------------


def drive_cutter(length: int, batches: int, max_steps: int, seed: int = 3) -> tuple:
    """Steps an async pool with random actions through a cutter, keeping the raw stream."""
    cutter = TrajectoryCutter(length)
    rng = np.random.default_rng(seed)
    stream: dict[int, list[dict]] = defaultdict(list)
    cut: list[dict] = []
    pool = envpool.make(
        "CartPole-v1",
        num_envs=4,
        batch_size=2,
        num_threads=1,
        seed=seed,
        max_episode_steps=max_steps,
    )
    try:
        pool.async_reset()
        for version in range(batches):
            obs, reward, terminated, truncated, info = pool.recv()
            env_id, elapsed = info["env_id"], info["elapsed_step"]
            action = rng.integers(0, 2, len(env_id))
            logp = rng.uniform(-2.0, -0.01, len(env_id))
            logp[terminated | truncated] = FINAL  # the pool ignores these actions
            pool.send(action, env_id)
            for i, e in enumerate(env_id.tolist()):
                stream[e].append(
                    {
                        "obs": np.array(obs[i]),
                        "reward": float(reward[i]),
                        "terminated": bool(terminated[i]),
                        "truncated": bool(truncated[i]),
                        "elapsed_step": int(elapsed[i]),
                        "action": int(action[i]),
                        "logp": float(logp[i]),
                        "version": version,
                    }
                )
            got = cutter.observe(
                env_id, obs, reward, terminated, truncated, elapsed, action, logp, version
            )
            for traj in got:
                # a trajectory is handed over the moment its env's last row arrives
                assert int(traj["env_id"]) in env_id.tolist()
            cut.extend(got)
    finally:
        pool.close()
    return cutter, stream, cut


def expected_transitions(rows: list[dict]) -> list[dict]:
    """The transitions in one env's raw rows, built independently of the cutter."""
    out = []
    for prev, row in itertools.pairwise(rows):
        if prev["terminated"] or prev["truncated"]:
            assert row["elapsed_step"] == 0 and row["reward"] == 0  # next_step autoreset
            continue
        out.append(
            {
                "obs": prev["obs"],
                "next_obs": row["obs"],
                "action": prev["action"],
                "reward": row["reward"],
                "terminated": row["terminated"],
                "truncated": row["truncated"],
                "logp": prev["logp"],
                "policy_version": prev["version"],
                "elapsed_step": prev["elapsed_step"],
            }
        )
    return out


def test_cutter_cuts_whole_consecutive_trajectories_per_env() -> None:
    length, max_steps = 16, 15
    _, stream, cut = drive_cutter(length, batches=800, max_steps=max_steps)
    assert len(cut) >= 40
    per_env: dict[int, list[dict]] = defaultdict(list)
    for traj in cut:
        assert set(traj) == {*FIELDS, "env_id"}
        assert traj["env_id"].dtype == np.int32
        check_transitions(traj, length, max_steps)
        per_env[int(traj["env_id"])].append(traj)
    assert sorted(per_env) == [0, 1, 2, 3]
    saw = {"terminated": 0, "truncated": 0}
    for e, trajs in per_env.items():
        expected = expected_transitions(stream[e])
        # an env's trajectories are its transitions, in order, with no gap or overlap
        assert len(trajs) == len(expected) // length
        for k, traj in enumerate(trajs):
            for t in range(length):
                want = expected[k * length + t]
                for key, value in want.items():
                    np.testing.assert_array_equal(traj[key][t], value, err_msg=f"{key} t={t}")
        for key in saw:
            saw[key] += sum(bool(traj[key].any()) for traj in trajs)
    # random actions end episodes both ways within 15 steps
    assert saw["terminated"] > 0 and saw["truncated"] > 0


def test_cutter_records_no_action_chosen_for_a_final_obs() -> None:
    _, stream, cut = drive_cutter(8, batches=300, max_steps=10, seed=5)
    finals = sum(r["logp"] == FINAL for rows in stream.values() for r in rows)
    assert finals > 10  # the stream had final obs, and actions sent for them ...
    for traj in cut:  # ... none of which made it into a trajectory
        assert (traj["logp"] != FINAL).all()
        assert (traj["reward"] == 1).all()


def test_cutter_holds_no_view_of_the_pools_batches() -> None:
    # A row kept as a view of a recv'd batch would keep the engine's whole batch block
    # alive (one per row, length x the memory a trajectory needs): rows are copies.
    cutter, _, _ = drive_cutter(1000, batches=60, max_steps=500)
    rows = [r for buf in cutter._envs.values() for k in ("obs", "next_obs") for r in buf.rows[k]]
    assert len(rows) > 100
    assert all(r.flags.owndata for r in rows)


def test_cutter_rejects_bad_length_and_discards_partial_trajectories() -> None:
    for bad in (0, -3):
        with pytest.raises(ValueError, match="trajectory length"):
            TrajectoryCutter(bad)
    cutter, _, _ = drive_cutter(1000, batches=50, max_steps=500)
    assert cutter._envs  # partial trajectories are buffered ...
    cutter.discard()
    assert not cutter._envs  # ... and dropped whole
    one = TrajectoryCutter(1)
    obs = np.zeros((2, 4), np.float32)
    no = np.zeros(2, bool)
    ids = np.array([0, 1], np.int32)
    assert (
        one.observe(ids, obs, np.zeros(2), no, no, np.zeros(2), np.zeros(2), np.zeros(2), 0) == []
    )
    got = one.observe(ids, obs + 1, np.ones(2), no, no, np.ones(2), np.ones(2), -np.ones(2), 1)
    assert [int(t["env_id"]) for t in got] == [0, 1]
    assert all(len(t["obs"]) == 1 and t["policy_version"][0] == 0 for t in got)


def test_cutter_keeps_the_pools_observation_dtype() -> None:
    # uint8 frames stored as float32 would make every trajectory 4x larger
    cutter = TrajectoryCutter(3)
    ids = np.array([0], np.int32)
    no = np.zeros(1, bool)
    frames = np.arange(5 * 84 * 84, dtype=np.int64).reshape(5, 1, 84, 84).astype(np.uint8)
    got = []
    for t in range(4):
        got += cutter.observe(
            ids, frames[t], np.ones(1), no, no, np.full(1, t), np.zeros(1), np.zeros(1), 0
        )
    [traj] = got
    for key in ("obs", "next_obs"):
        assert traj[key].dtype == np.uint8 and traj[key].nbytes == 3 * 84 * 84
    np.testing.assert_array_equal(traj["obs"], frames[:3, 0])
    np.testing.assert_array_equal(traj["next_obs"], frames[1:4, 0])


# --- the learner's staleness rule (no Ray) ----------------------------------------------


def fake_trajectory(versions: list[int], returns: tuple = ()) -> dict:
    n = len(versions)
    rng = np.random.default_rng(n)
    return {
        "obs": rng.standard_normal((n, 4)).astype(np.float32),
        "next_obs": rng.standard_normal((n, 4)).astype(np.float32),
        "action": rng.integers(0, 2, n),
        "reward": np.ones(n),
        "terminated": np.zeros(n, bool),
        "truncated": np.zeros(n, bool),
        "logp": np.full(n, np.log(0.5)),
        "policy_version": np.asarray(versions),
        "elapsed_step": np.arange(n),
        "env_id": np.int32(0),
        "finished_returns": np.asarray(returns, dtype=np.float64),
        "actor_id": np.int32(0),
    }


def test_learner_drops_trajectories_older_than_max_staleness() -> None:
    if not os.environ.get("ENVPOOL_REQUIRE_NETNS"):
        pytest.importorskip("torch")
    from envpool.distributed import PPOLearner

    learner = PPOLearner(4, 2, PPOConfig(max_staleness=2, epochs=1, minibatches=1))
    learner.version = 5
    batch = [
        fake_trajectory([5] * 8, returns=(10.0,)),  # current
        fake_trajectory([3] * 8),  # 2 behind: kept
        fake_trajectory([2] * 8, returns=(20.0, 30.0)),  # 3 behind: dropped
        fake_trajectory([1, 1, 5, 5, 5, 5, 5, 5]),  # its oldest step is 4 behind: dropped
    ]
    metrics = learner.update(batch)
    assert metrics["trained_on"] == 2
    assert learner.dropped_stale == 2
    assert learner.version == 6
    assert learner.env_steps == 16  # only the kept trajectories' steps are trained on
    # finished episodes count even from a dropped trajectory (they did happen)
    assert learner.episodes == 3 and learner.mean_return() == pytest.approx(20.0)
    # a batch that is all stale trains nothing and does not advance the version
    assert learner.update([fake_trajectory([0] * 8)]) == {"trained_on": 0}
    assert learner.version == 6 and learner.dropped_stale == 3


# --- everything below starts Ray: in a loopback-only network namespace only -----------


@pytest.fixture(scope="module")
def cluster() -> Any:
    """A simulated cluster: a head (driver, board, shards) and two 2-CPU worker nodes."""
    require_only_loopback()
    from ray.cluster_utils import Cluster

    store = 80 * 1024 * 1024
    sim = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 1, "object_store_memory": store, "include_dashboard": False},
    )
    workers = [sim.add_node(num_cpus=2, object_store_memory=store) for _ in range(2)]
    try:
        ray.init(address=sim.address, log_to_driver=False)
        sim.wait_for_nodes()
        # The helper actors below are defined here, and Ray's workers cannot import
        # this file: send them by value.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        yield SimpleNamespace(
            head=sim.head_node.node_id, workers=[n.node_id for n in workers], cluster=sim
        )
    finally:
        ray.shutdown()
        sim.shutdown()


def test_cluster_has_only_loopback_addresses(cluster: Any) -> None:
    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert len(nodes) == 3
    assert {n["NodeManagerAddress"] for n in nodes} <= {"127.0.0.1", "localhost"}


@ray.remote(num_cpus=0)
class FetcherGroup:
    """Several actor-side weight fetchers in one process (cheap stand-ins for actors)."""

    def __init__(self, board: Any, n: int) -> None:
        self.fetchers = [WeightFetcher(board) for _ in range(n)]

    def poll(self) -> list[tuple[int, str | None]]:
        out = []
        for f in self.fetchers:
            version, weights = f.latest()
            out.append((version, None if weights is None else weights_digest(weights)))
        return out

    def fetches(self) -> list[int]:
        return [f.fetches for f in self.fetchers]

    def node(self) -> str:
        return ray.get_runtime_context().get_node_id()


def test_weight_cache_puts_each_version_once_whatever_the_number_of_fetchers(
    cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    real_put = ray.put
    puts: list[Any] = []

    def counting_put(value: Any, *args: Any, **kwargs: Any) -> Any:
        puts.append(value)
        return real_put(value, *args, **kwargs)

    monkeypatch.setattr(ray, "put", counting_put)
    board = WeightBoard.remote()
    publisher = WeightPublisher(board)
    # 16 fetchers: two processes on each worker node, four fetchers in each.
    groups = [
        FetcherGroup.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False)
        ).remote(board, 4)
        for node in cluster.workers
        for _ in range(2)
    ]
    n_fetchers = 16
    try:
        assert sorted(ray.get([g.node.remote() for g in groups])) == sorted(cluster.workers * 2)
        # Before any version is posted a fetcher has nothing.
        assert all(r == (-1, None) for g in ray.get([g.poll.remote() for g in groups]) for r in g)
        versions = 4
        for v in range(versions):
            weights = init_weights(4, 2, seed=v)
            assert publisher.publish(weights) == v
            polled = [r for g in ray.get([g.poll.remote() for g in groups]) for r in g]
            assert polled == [(v, weights_digest(weights))] * n_fetchers
            # asked again with nothing newer: no fetch
            again = [r for g in ray.get([g.poll.remote() for g in groups]) for r in g]
            assert again == [(v, None)] * n_fetchers
            # one copy per node (the learner's and the two workers'), not one per fetcher
            where = ray.experimental.get_object_locations([publisher._refs[-1]])
            nodes = set(where[publisher._refs[-1]]["node_ids"])
            assert nodes <= {cluster.head, *cluster.workers}
            assert set(cluster.workers) <= nodes
        # Three versions in a burst: each fetcher jumps to the newest, fetching it once.
        for v in range(versions, versions + 3):
            publisher.publish(init_weights(4, 2, seed=v))
        newest = weights_digest(init_weights(4, 2, seed=versions + 2))
        polled = [r for g in ray.get([g.poll.remote() for g in groups]) for r in g]
        assert polled == [(versions + 2, newest)] * n_fetchers
        fetches = [n for g in ray.get([g.fetches.remote() for g in groups]) for n in g]
        assert fetches == [versions + 1] * n_fetchers
        # The learner put each version exactly once, whatever the number of fetchers.
        assert publisher.puts == len(puts) == versions + 3
        stats = ray.get(board.stats.remote())
        assert stats["version"] == versions + 2
        assert stats["reads"] == n_fetchers * (1 + 2 * versions + 1)
        # The board refuses an old version.
        with pytest.raises(ValueError, match="not newer"):
            ray.get(board.post.remote(1, [publisher._refs[-1]]))
    finally:
        kill_all(board, *groups)


# --- the trajectory store -------------------------------------------------------------------


def item(i: int) -> dict:
    return {"i": i}


def test_fifo_shard_applies_back_pressure_and_keeps_order(cluster: Any) -> None:
    shard = TrajectoryShard.remote(2)
    try:
        # one call at a time: Ray does not order concurrent calls to an async actor
        assert [ray.get(shard.put.remote(item(i))) for i in range(2)] == [1, 2]
        blocked = shard.put.remote(item(2))
        ready, _ = ray.wait([blocked], timeout=1.0)
        assert not ready, "a put into a full fifo shard must wait"
        assert ray.get(shard.stats.remote())["size"] == 2
        assert [t["i"] for t in ray.get(shard.take.remote(1))] == [0]  # oldest first
        assert ray.get(blocked, timeout=10) == 2  # the take made room
        assert [t["i"] for t in ray.get(shard.take.remote(5))] == [1, 2]
        assert ray.get(shard.take.remote(3, timeout=0.2)) == []  # empty: waits, then []
        # a take waiting on an empty shard gets the next put
        waiting = shard.take.remote(3, timeout=10.0)
        time.sleep(0.3)
        ray.get(shard.put.remote(item(3)))
        assert [t["i"] for t in ray.get(waiting, timeout=10)] == [3]
        stats = ray.get(shard.stats.remote())
        assert stats["put"] == stats["taken"] == 4 and stats["waits"] == 1
        assert stats["evicted"] == 0 and stats["size"] == 0
    finally:
        kill_all(shard)


def test_drain_releases_blocked_puts(cluster: Any) -> None:
    shard = TrajectoryShard.remote(2)
    try:
        ray.get([shard.put.remote(item(i)) for i in range(2)])
        blocked = shard.put.remote(item(2))
        assert not ray.wait([blocked], timeout=0.5)[0]
        assert ray.get(shard.drain.remote()) == 2
        assert ray.get(blocked, timeout=10) == 1
        assert [t["i"] for t in ray.get(shard.take.remote(5))] == [2]
    finally:
        kill_all(shard)


def test_replay_shard_evicts_oldest_and_samples_uniformly(cluster: Any) -> None:
    shard = TrajectoryShard.remote(4, "replay", seed=3)
    try:
        assert ray.get(shard.sample.remote(5)) == []  # empty
        sizes = [ray.get(shard.put.remote(item(i)), timeout=10) for i in range(10)]  # no wait
        assert sizes == [1, 2, 3, 4, 4, 4, 4, 4, 4, 4]
        stats = ray.get(shard.stats.remote())
        assert stats["evicted"] == 6 and stats["size"] == 4 and stats["waits"] == 0
        draws = 4000
        counts = np.bincount([t["i"] for t in ray.get(shard.sample.remote(draws))], minlength=10)
        assert counts[:6].sum() == 0  # the six oldest were evicted
        # uniform over the four kept: chi-square with 3 dof, p ~ 1e-4 at 21
        expected = draws / 4
        chi2 = float((((counts[6:] - expected) ** 2) / expected).sum())
        assert chi2 < 21.0, counts
        assert ray.get(shard.stats.remote())["size"] == 4  # sampling removes nothing
        reader = StoreReader([shard], per_request=3, mode="replay")
        batch = reader.next_batch(7, timeout=10)
        assert len(batch) >= 7 and {t["i"] for t in batch} <= {6, 7, 8, 9}
    finally:
        kill_all(shard)


def test_store_rejects_bad_capacity_and_mode(cluster: Any) -> None:
    for args in ((0,), (-1,), (2, "lifo")):
        with pytest.raises(ValueError):
            make_shards(1, *args)
    with pytest.raises(ValueError, match="num_shards"):
        make_shards(0, 4)


def test_reader_prefetches_from_every_shard(cluster: Any) -> None:
    shards = make_shards(3, 8)
    try:
        # one at a time: Ray does not order concurrent calls to an async actor
        for i in range(4):
            ray.get([s.put.remote(item(10 * k + i)) for k, s in enumerate(shards)])
        reader = StoreReader(shards, per_request=2)
        assert len(reader.inflight) == 3  # one request in flight per shard from the start
        got = []
        while len(got) < 12:
            batch = reader.next_batch(4, timeout=10)
            assert batch
            got.extend(t["i"] for t in batch)
            assert len(reader.inflight) == 3
        assert sorted(got) == sorted(10 * k + i for k in range(3) for i in range(4))
        for k in range(3):  # fifo within each shard
            mine = [i for i in got if i // 10 == k]
            assert mine == sorted(mine)
        assert reader.next_batch(1, timeout=0.5) == [] and reader.failures == []
    finally:
        kill_all(*shards)


# --- fault tolerance ---------------------------------------------------------------------------


def test_killed_actor_restarts_and_only_whole_trajectories_reach_the_store(cluster: Any) -> None:
    length = 16
    board = WeightBoard.remote()
    publisher = WeightPublisher(board)
    publisher.publish(init_weights(4, 2, seed=0))
    shards = make_shards(2, 4)
    actors, runs = start_actors(2, board, shards, num_envs=4, length=length)
    reader = StoreReader(shards, per_request=2)
    got: list[dict] = []

    def read(n: int) -> None:
        batch = reader.next_batch(n, timeout=20)
        assert batch, "no trajectories arrived"
        got.extend(batch)
        publisher.publish(init_weights(4, 2, seed=publisher.version + 1))

    try:
        while {int(t["actor_id"]) for t in got} != {0, 1}:
            read(4)
        old_pid = actor_pid(actors[0])
        before = ray.get(actors[0].stats.remote())
        assert before["restarted"] is False and before["trajectories"] > 0
        ray.kill(actors[0], no_restart=False)
        killed_at = len(got)

        def restarted_and_producing() -> bool:
            read(2)
            try:  # wait_for's deadline, not this call's, bounds the restart
                s = ray.get(actors[0].stats.remote(), timeout=5)
            except GetTimeoutError:
                return False
            return s["restarted"] and s["trajectories"] >= 3

        wait_for(restarted_and_producing, 60, "the killed actor to restart and produce")

        def new_life_arrived() -> bool:  # past what the shards held when it was killed
            read(4)
            return sum(int(t["actor_id"]) == 0 for t in got[killed_at:]) >= 3

        wait_for(new_life_arrived, 60, "the restarted actor's trajectories")
        while len(got) < 20:  # enough trajectories of both lives to check below
            read(4)
        assert actor_pid(actors[0]) != old_pid
        after = ray.get(actors[0].stats.remote())
        # the new life fetched the newest weights (it refreshes after every recv)
        assert after["version"] >= before["version"]
        assert ray.get(actors[1].stats.remote())["restarted"] is False
        assert reader.failures == []  # the shards never failed
        stop_actors(actors, runs, shards)
        counts = ray.get(runs, timeout=30)  # the killed actor's run was retried
        assert all(c["env_steps"] > 0 for c in counts)
    finally:
        kill_all(*actors, *shards, board)
    for traj in got:
        check_stored(traj, length)
    versions = [int(t["policy_version"].max()) for t in got]
    assert max(versions) > 0  # the actors picked up weights published during the run


def test_stalled_learner_blocks_actors_without_growing_memory(cluster: Any) -> None:
    capacity, n_shards = 2, 2
    board = WeightBoard.remote()
    WeightPublisher(board).publish(init_weights(4, 2))
    shards = make_shards(n_shards, capacity)
    actors, runs = start_actors(1, board, shards, num_envs=8, length=8)
    actor = actors[0]
    try:

        def full() -> bool:
            return [s["size"] for s in ray.get([x.stats.remote() for x in shards])] == [
                capacity
            ] * n_shards

        wait_for(full, 60, "the shards to fill")
        time.sleep(1.0)  # the actor finishes its next trajectory and blocks on a put
        pid = actor_pid(actor)
        first, rss_first = ray.get(actor.stats.remote()), proc_rss_kib(pid)
        samples = []
        for _ in range(6):
            time.sleep(0.5)
            samples.append((ray.get(actor.stats.remote()), proc_rss_kib(pid)))
        for stats, rss in samples:
            assert stats["env_steps"] == first["env_steps"], "a blocked actor must not step"
            assert stats["trajectories"] == first["trajectories"]
            assert rss - rss_first < 2048, f"RSS grew {rss - rss_first} KiB while stalled"
        shard_stats = ray.get([s.stats.remote() for s in shards])
        assert [s["size"] for s in shard_stats] == [capacity] * n_shards
        assert sum(s["waits"] for s in shard_stats) >= 1
        assert first["trajectories"] == capacity * n_shards
        # the learner comes back: the actor goes on
        reader = StoreReader(shards, per_request=capacity)
        batch = reader.next_batch(capacity * n_shards, timeout=20)
        assert len(batch) >= capacity * n_shards
        for traj in batch:
            check_stored(traj, 8)
        wait_for(
            lambda: ray.get(actor.stats.remote())["env_steps"] > first["env_steps"],
            30,
            "the actor to resume",
        )
        stop_actors(actors, runs, shards)
    finally:
        kill_all(*actors, *shards, board)


def test_killed_shard_loses_at_most_its_buffer_and_the_run_goes_on(cluster: Any) -> None:
    length, capacity, per_request = 8, 4, 2
    board = WeightBoard.remote()
    WeightPublisher(board).publish(init_weights(4, 2))
    shards = make_shards(2, capacity)
    actors, runs = start_actors(2, board, shards, num_envs=4, length=length)
    reader = StoreReader(shards, per_request=per_request)
    got: list[dict] = []
    try:
        while len(got) < 16:
            got.extend(reader.next_batch(4, timeout=20))

        # The learner pauses so that shard 0 fills and the kill loses a full buffer. Both
        # actors' pending puts can target shard 1 while it is full: take from shard 1
        # then, or they stay blocked there with shard 0 never filling.
        def shard0_full() -> bool:
            sizes = [s["size"] for s in ray.get([x.stats.remote() for x in shards])]
            if sizes[0] == capacity:
                return True
            if sizes[1] == capacity:
                got.extend(ray.get(shards[1].take.remote(1)))
            return False

        wait_for(shard0_full, 30, "shard 0 to fill")
        ray.kill(shards[0], no_restart=False)
        killed_at = len(got)

        def restarted_shard_serves() -> bool:
            got.extend(reader.next_batch(4, timeout=20))
            try:
                s = ray.get(shards[0].stats.remote(), timeout=5)
            except (RayActorError, GetTimeoutError):  # still restarting
                return False
            return s["restarted"] and s["taken"] >= 4

        wait_for(restarted_shard_serves, 60, "the restarted shard to serve again")
        while len(got) < killed_at + 16:  # later batches keep arriving
            got.extend(reader.next_batch(4, timeout=20))
        assert ray.get(shards[1].stats.remote())["restarted"] is False
        remaining = stop_actors(actors, runs, shards)
        remaining += sum(ray.get([s.drain.remote() for s in shards]))  # put after the last drain
        produced = sum(c["trajectories"] for c in ray.get(runs, timeout=30))
        # pending requests of the reader that came back after the stop
        got.extend(reader.next_batch(10**6, timeout=2))
    finally:
        kill_all(*actors, *shards, board)
    lost = produced - len(got) - remaining
    # The killed shard's buffer, full when it was killed (a take it had not answered
    # yet could add a request's worth): nothing more, nothing from the other shard.
    # A put the shard applied just before it died, but whose reply died with it, is
    # retried on the other shard, so its trajectory is not lost: at most one such put
    # per actor (each has one in flight).
    n_actors = len(actors)
    assert capacity - n_actors <= lost <= capacity + per_request, (produced, len(got), remaining)
    # and that retry never makes a trajectory arrive twice
    keys = {(int(t["actor_id"]), int(t["env_id"]), t["obs"].tobytes()) for t in got}
    assert len(keys) == len(got)
    # the loss is reported: by the reader when it had a request at the dead shard, and
    # always by the shard itself (stats()["restarted"], as in train()'s report)
    assert all(f.startswith("shard 0") for f in reader.failures)
    for traj in got:
        check_stored(traj, length)


# --- end to end -----------------------------------------------------------------------------


def test_train_on_two_simulated_nodes_reports_consistently(cluster: Any) -> None:
    config = RunConfig(
        num_actors=2,
        envs_per_actor=4,
        trajectory_length=32,
        num_shards=2,
        shard_capacity=4,
        batch_trajectories=4,
        max_updates=4,
        max_seconds=90,
        ppo=PPOConfig(epochs=2),
    )
    report = train(config)
    assert report["updates"] == 4
    assert report["weight_puts"] == report["updates"] + 1
    assert report["board"]["version"] == report["updates"]
    assert report["solved"] is False and report["seconds_to_solve"] is None
    assert report["shard_failures"] == []
    # 4 updates of at least 4 trajectories (a batch may overshoot by a request of 2), none
    # stale: max_staleness (4) is never exceeded in 4 updates
    assert report["dropped_stale"] == 0
    assert 4 * 4 * 32 <= report["learner_env_steps"] <= 4 * 5 * 32
    assert report["learner_env_steps"] % config.trajectory_length == 0
    assert report["actor_env_steps"] >= report["learner_env_steps"]
    assert len(report["actors"]) == 2
    for a in report["actors"]:
        assert a["env_steps"] > 0 and a["trajectories"] > 0 and a["restarted"] is False
        assert 0 <= a["version"] <= report["updates"]
    assert all(not s.get("restarted") for s in report["shards"])
    assert report["config"]["num_actors"] == 2
    assert report["startup_seconds"] > 0  # the clock starts once both actors step
    # the run's actors are gone: their CPUs are free again
    wait_for(
        lambda: ray.available_resources().get("CPU", 0) >= 5, 30, "the actors' CPUs to be freed"
    )


def test_stop_actors_returns_when_both_actors_are_blocked_on_a_full_shard(cluster: Any) -> None:
    # One slot for two actors that each finish 4 trajectories per recv: both end up
    # blocked on the full shard, and one drain frees one of them only.
    board = WeightBoard.remote()
    WeightPublisher(board).publish(init_weights(4, 2))
    shards = make_shards(1, 1)
    actors, runs = start_actors(2, board, shards, num_envs=8, length=8)
    try:
        # the first put fills the slot; every later put waits, at most one per actor
        wait_for(
            lambda: ray.get(shards[0].stats.remote())["waits"] >= 2,
            120,
            "both actors to block on the full shard",
        )
        start = time.monotonic()
        stop_actors(actors, runs, shards)  # raises if the runs have not returned in 60 s
        assert time.monotonic() - start < 20
        counts = ray.get(runs, timeout=1)
        assert all(c["env_steps"] > 0 and c["trajectories"] >= 1 for c in counts)
    finally:
        kill_all(*actors, *shards, board)


def test_train_names_actors_that_do_not_start_in_time_and_frees_them(cluster: Any) -> None:
    config = RunConfig(num_actors=2, envs_per_actor=2, startup_timeout=0.001, max_updates=1)
    with pytest.raises(RuntimeError, match=r"actors \[0, 1\] did not start stepping within"):
        train(config)
    wait_for(
        lambda: ray.available_resources().get("CPU", 0) >= 5, 30, "the actors' CPUs to be freed"
    )


def test_example_runs_in_smoke_mode() -> None:
    require_only_loopback()
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--smoke"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tempfile.gettempdir(),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "updates" in out and "env steps/s" in out and "solved" in out, out
