"""The batched multi-agent front end (envpool/multi_agent.py) over the mpe2 tasks: spaces
as PettingZoo gives them, zero-copy results, async mode, the autoreset modes, seeding,
and bad input (clear errors, the pool stays usable)."""

from __future__ import annotations

import importlib
import re
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.families.mpe2.tasks import MPE2_MODULES
from envpool.multi_agent import MultiAgentEnvPool


def sample_actions(pool: MultiAgentEnvPool, n: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    actions = {}
    for agent in pool.possible_agents:
        space = pool.action_space(agent)
        if hasattr(space, "n"):
            actions[agent] = rng.integers(0, space.n, n)
        else:
            actions[agent] = rng.random((n, *space.shape), dtype=np.float32)
    return actions


def test_every_mpe2_scenario_is_registered() -> None:
    assert set(MPE2_MODULES) <= set(envpool.list_all_envs())
    assert set(envpool.registry.list_families()["mpe2"]) == set(MPE2_MODULES)


@pytest.mark.parametrize("continuous", [False, True], ids=["discrete", "continuous"])
@pytest.mark.parametrize("task_id", sorted(MPE2_MODULES))
def test_spaces_and_agents_equal_pettingzoos(task_id: str, continuous: bool) -> None:
    pytest.importorskip("mpe2")
    module = importlib.import_module(f"mpe2.{MPE2_MODULES[task_id]}")
    ref = module.parallel_env(continuous_actions=continuous)
    pool = envpool.make(task_id, num_envs=2, continuous_actions=continuous)
    assert isinstance(pool, MultiAgentEnvPool)
    assert pool.possible_agents == ref.possible_agents
    assert pool.agents == ref.possible_agents
    assert pool.max_num_agents == ref.max_num_agents
    for agent in ref.possible_agents:
        assert pool.observation_space(agent) == ref.observation_space(agent), agent
        assert pool.action_space(agent) == ref.action_space(agent), agent
    assert list(pool.single_observation_space) == ref.possible_agents
    pool.close()


def test_results_are_views_into_the_batch() -> None:
    pool = envpool.make("SimpleSpread-v3", num_envs=4, seed=0)
    obs, infos = pool.reset()
    obs, rewards, terminations, truncations, infos = pool.step(sample_actions(pool, 4))
    agents = pool.possible_agents
    for agent in agents:
        assert obs[agent].shape == (4, *pool.observation_space(agent).shape)
        assert obs[agent].dtype == np.float32
        for value in (obs[agent], rewards[agent], terminations[agent], infos[agent]["active"]):
            assert not value.flags.owndata  # a view, not a copy
        assert rewards[agent].shape == terminations[agent].shape == (4,)
        assert infos[agent]["active"].all()
        np.testing.assert_array_equal(infos[agent]["env_id"], np.arange(4))
    # the agents' observations and rewards are columns of the same rows
    assert obs[agents[0]].base is obs[agents[1]].base  # the batch block
    assert rewards[agents[0]].base is rewards[agents[1]].base
    pool.close()


def test_envs_are_independent_of_batching_and_seeded_per_env() -> None:
    """Env i of a pool of 4 seeded 10 is env 0 of a pool of 1 seeded 10 + i."""
    n, steps = 4, 30
    actions = [sample_actions(envpool.make("SimpleTag-v3", num_envs=n), n, s) for s in range(steps)]
    pool = envpool.make("SimpleTag-v3", num_envs=n, seed=10)
    pool.reset()
    batched = [pool.step(a) for a in actions]
    for i in range(n):
        single = envpool.make("SimpleTag-v3", num_envs=1, seed=10 + i)
        single.reset()
        for t, a in enumerate(actions):
            result = single.step({agent: v[i : i + 1] for agent, v in a.items()})
            for part, whole in zip(result[:4], batched[t][:4], strict=True):
                for agent in pool.possible_agents:
                    np.testing.assert_array_equal(part[agent][0], whole[agent][i])
        single.close()
    pool.close()


def test_reset_with_a_seed_replays() -> None:
    pool = envpool.make("SimpleAdversary-v3", num_envs=3, seed=0)
    first, _ = pool.reset(seed=7)
    first = {a: v.copy() for a, v in first.items()}
    pool.step(sample_actions(pool, 3))
    again, _ = pool.reset(seed=7)
    for agent in pool.possible_agents:
        np.testing.assert_array_equal(first[agent], again[agent])
    assert pool.np_random_seed == (7, 8, 9)
    pool.close()


def test_async_send_recv_matches_sync() -> None:
    """send/recv with batch_size < num_envs: rows are envs, found by env_id, and each
    equals the same env stepped by a sync pool."""
    n = 4
    sync = envpool.make("SimpleSpread-v3", num_envs=n, seed=5)
    pool = envpool.make("SimpleSpread-v3", num_envs=n, batch_size=2, seed=5)
    assert pool.is_async
    agent0 = pool.possible_agents[0]
    sync_obs, _ = sync.reset()
    sync_obs = {a: v.copy() for a, v in sync_obs.items()}
    pool.async_reset()
    for _ in range(2):
        obs, _rewards, _terms, _truncs, infos = pool.recv()
        for row, env_id in enumerate(infos[agent0]["env_id"]):
            for agent in pool.possible_agents:
                np.testing.assert_array_equal(obs[agent][row], sync_obs[agent][env_id])
    for t in range(3):
        actions = sample_actions(sync, n, t)
        expected = sync.step(actions)
        pool.send(actions, np.arange(n))
        for _ in range(2):
            obs, rewards, terms, truncs, infos = pool.recv()
            assert obs[agent0].shape[0] == 2
            for row, env_id in enumerate(infos[agent0]["env_id"]):
                for agent in pool.possible_agents:
                    np.testing.assert_array_equal(obs[agent][row], expected[0][agent][env_id])
                    assert rewards[agent][row] == expected[1][agent][env_id]
                    assert terms[agent][row] == expected[2][agent][env_id]
                    assert truncs[agent][row] == expected[3][agent][env_id]
    pool.close()
    sync.close()


def test_same_step_autoreset_keeps_the_final_step_results() -> None:
    """same_step: an ended env's row holds its reset observation, its final observation
    is in infos[agent]["final_obs"], and rewards and flags are the final step's, as in
    next_step mode, whose following step gives the same reset observation."""
    cycles, n = 3, 2
    nxt = envpool.make("SimpleTag-v3", num_envs=n, seed=1, max_cycles=cycles)
    same = envpool.make(
        "SimpleTag-v3", num_envs=n, seed=1, max_cycles=cycles, autoreset_mode="same_step"
    )
    nxt.reset()
    same.reset()
    actions = [sample_actions(nxt, n, t) for t in range(cycles + 1)]
    for t in range(cycles):
        a = nxt.step(actions[t])
        b = same.step(actions[t])
        for agent in nxt.possible_agents:
            np.testing.assert_array_equal(a[1][agent], b[1][agent])
            np.testing.assert_array_equal(a[3][agent], b[3][agent])
        ended = t == cycles - 1
        for agent in nxt.possible_agents:
            assert b[3][agent].all() == ended
            if ended:
                np.testing.assert_array_equal(b[4][agent]["final_obs"], a[0][agent])
                assert b[4][agent]["_final_obs"].all()
            else:
                np.testing.assert_array_equal(b[0][agent], a[0][agent])
    reset_obs = nxt.step(actions[cycles])[0]
    for agent in nxt.possible_agents:
        np.testing.assert_array_equal(b[0][agent], reset_obs[agent])
    nxt.close()
    same.close()


def test_disabled_autoreset_needs_a_reset() -> None:
    pool = envpool.make("Simple-v3", num_envs=2, seed=0, max_cycles=2, autoreset_mode="disabled")
    pool.reset()
    actions = sample_actions(pool, 2)
    pool.step(actions)
    _, _, _, truncations, _ = pool.step(actions)
    assert truncations["agent_0"].all()
    obs, _ = pool.reset(env_id=[1])
    assert obs["agent_0"].shape == (1, 4)


@pytest.mark.parametrize(
    ("change", "error", "words"),
    [
        (lambda a: {**a, "agent_9": a["agent_0"]}, ValueError, "unknown agent 'agent_9'"),
        (lambda a: {k: v for k, v in a.items() if k != "agent_1"}, ValueError, "lack agent"),
        (lambda a: {**a, "agent_0": a["agent_0"][:1]}, ValueError, "must have shape (2,)"),
        (lambda a: {**a, "agent_0": a["agent_0"] + 5}, ValueError, "out of range [0, 4]"),
        (lambda a: {**a, "agent_0": a["agent_0"] * 1.0}, TypeError, "integer dtype"),
        (lambda a: list(a.values()), TypeError, "dict keyed by agent name"),
    ],
    ids=["unknown-agent", "missing-agent", "wrong-shape", "out-of-range", "float", "not-a-dict"],
)
def test_bad_discrete_actions_raise_and_the_pool_stays_usable(
    change: Any, error: type, words: str
) -> None:
    pool = envpool.make("SimpleSpread-v3", num_envs=2, seed=0)
    pool.reset()
    actions = sample_actions(pool, 2)
    with pytest.raises(error, match=re.escape(words)):
        pool.step(change(actions))
    obs, rewards, *_ = pool.step(actions)
    assert obs["agent_0"].shape == (2, 18)
    pool.close()


@pytest.mark.parametrize(
    ("value", "error", "words"),
    [
        (np.zeros((2, 4), np.float32), ValueError, "must have shape (2, 5)"),
        (np.zeros((2, 5), np.int64), TypeError, "float dtype"),
        (
            np.array([[0.0] * 5, [0.0, np.nan, 0.0, 0.0, 0.0]], np.float32),
            ValueError,
            "the action of agent 'agent_1' for env 1 is not finite",
        ),
    ],
    ids=["wrong-shape", "integer", "nan"],
)
def test_bad_continuous_actions_raise_and_the_pool_stays_usable(
    value: np.ndarray, error: type, words: str
) -> None:
    pool = envpool.make("SimpleSpread-v3", num_envs=2, seed=0, continuous_actions=True)
    pool.reset()
    actions = sample_actions(pool, 2)
    with pytest.raises(error, match=re.escape(words)) as raised:
        pool.step({**actions, "agent_1": value})
    assert "agent 'agent_1'" in str(raised.value) and "''s" not in str(raised.value)
    pool.step(actions)
    pool.close()


def test_bad_async_sends_raise_and_the_pool_stays_usable() -> None:
    """In async mode a send with the wrong number of rows, an env id out of range or an
    env still in flight raises before anything runs; the batch in flight still arrives."""
    pool = envpool.make("SimpleSpread-v3", num_envs=4, batch_size=2, seed=0)
    pool.async_reset()
    agent0 = pool.possible_agents[0]
    ids = pool.recv()[4][agent0]["env_id"].copy()
    with pytest.raises(ValueError, match=re.escape("must have shape (2,) (one per env)")):
        pool.send(sample_actions(pool, 3), ids)
    with pytest.raises(IndexError, match="env_id 9 is out of range"):
        pool.send(sample_actions(pool, 2), np.array([ids[0], 9]))
    pool.send(sample_actions(pool, 2), ids)
    with pytest.raises(envpool.CallOrderError, match="still in flight"):
        pool.send(sample_actions(pool, 2), ids)
    seen = set()
    for _ in range(2):  # the two envs of async_reset not yet received, and the two sent
        obs, *_, infos = pool.recv()
        assert obs[agent0].shape == (2, 18)
        seen.update(infos[agent0]["env_id"].tolist())
    assert seen == {0, 1, 2, 3}
    pool.close()


@pytest.mark.parametrize(
    ("task_id", "options", "error", "words"),
    [
        ("SimpleSpread-v3", {"N": 0}, ValueError, "N must be at least 1"),
        ("SimpleSpread-v3", {"local_ratio": 1.5}, ValueError, "Must be between 0 and 1"),
        ("SimpleSpread-v3", {"local_ratio": float("nan")}, ValueError, "Must be between 0 and 1"),
        ("SimpleSpread-v3", {"N": 2.5}, TypeError, "option 'N' must be int"),
        ("SimpleSpread-v3", {"continuous_actions": 1}, TypeError, "must be bool"),
        ("Simple-v3", {"num_agent_neighbors": 1}, TypeError, "unknown option"),
        (
            "SimpleSpread-v3",
            {"num_agent_neighbors": 0},
            ValueError,
            "num_agent_neighbors must be a positive integer or None",
        ),
        ("SimpleTag-v3", {"num_obstacles": -1}, ValueError, "must be >= 0"),
        ("SimpleWorldComm-v3", {"num_food": 0}, ValueError, "num_food must be at least 1"),
        ("SimpleWorldComm-v3", {"num_forests": -1}, ValueError, "num_forests must be at least 0"),
        ("CollectTreasure-v1", {"num_collectors": 0}, ValueError, "num_collectors must be >= 1"),
        ("CollectTreasure-v1", {"num_deposits": 7}, ValueError, "num_deposits must be at most 6"),
        ("SimpleFormation-v1", {"N": 0}, ValueError, "N must be at least 1"),
        ("SimpleSpread-v3", {"render_mode": "ansi"}, ValueError, "has no text rendering"),
    ],
)
def test_out_of_range_options_raise_and_the_next_make_works(
    task_id: str, options: dict[str, Any], error: type, words: str
) -> None:
    with pytest.raises(error, match=re.escape(words)):
        envpool.make(task_id, num_envs=2, **options)
    with pytest.raises(error, match=re.escape(words)):
        envpool.make_pettingzoo(task_id, **options)
    pool = envpool.make(task_id, num_envs=2, seed=0)
    pool.reset()
    pool.step(sample_actions(pool, 2))
    pool.close()


def test_unknown_agent_spaces_and_other_front_ends_are_refused() -> None:
    pool = envpool.make("SimplePush-v3", num_envs=1)
    with pytest.raises(ValueError, match="unknown agent 'nobody'"):
        pool.observation_space("nobody")
    with pytest.raises(ValueError, match="unknown agent"):
        pool.action_space("nobody")
    pool.close()
    with pytest.raises(ValueError, match="no dm_env front end"):
        envpool.make("SimplePush-v3", env_type="dm")


def test_spec_describes_the_agents() -> None:
    spec = envpool.make_spec("SimpleWorldComm-v3", num_good=1)
    assert spec.is_multi_agent
    assert list(spec.agent_action_spaces) == [
        "leadadversary_0",
        "adversary_0",
        "adversary_1",
        "adversary_2",
        "agent_0",
    ]
    assert spec.agent_action_spaces["leadadversary_0"].n == 20
    assert dict(spec.action_space.spaces) == spec.agent_action_spaces
    assert dict(spec.observation_space.spaces) == spec.agent_observation_spaces
    assert not envpool.make_spec("CartPole-v1").is_multi_agent


def test_docs_snippets_run() -> None:
    """Every ```python snippet of docs/multi_agent.md runs as written."""
    pytest.importorskip("pettingzoo")
    from pathlib import Path

    doc = Path(__file__).resolve().parent.parent / "docs" / "multi_agent.md"
    snippets = re.findall(r"```python\n(.*?)```", doc.read_text(), flags=re.S)
    assert len(snippets) == 3
    for snippet in snippets:
        if "import supersuit" in snippet and importlib.util.find_spec("supersuit") is None:
            continue  # the SuperSuit recipe (bench extra; tests/test_supersuit.py)
        exec(compile(snippet, str(doc), "exec"), {})
