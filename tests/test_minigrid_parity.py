"""MiniGrid-* tasks side by side with minigrid 3.2.0.

Env i of ``envpool.make(id, num_envs=n, seed=s)`` is minigrid's env made with
``gymnasium.make(id)`` and reset with seed ``s + i``, stepped with the same random
actions through autoresets (envpool's next_step mode: the step after an episode's end
resets the env; minigrid's env is reset without a seed, continuing its generator):
image, direction, mission, reward, terminated, truncated and the agent's position
(info["agent_pos"]) compared exactly at every step. ``ENVPOOL_MINIGRID_STEPS`` sets the
steps per run (default 150); each id runs with its own time limit and with a short one
(max_steps=25) that ends many episodes.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces

import envpool

minigrid = pytest.importorskip("minigrid")  # registers the MiniGrid-* ids in gymnasium

STEPS = int(os.environ.get("ENVPOOL_MINIGRID_STEPS", "150"))
NUM_ENVS = 3
# forward more often than the other actions, so that agents reach goals and doors
ACTION_PROBS = np.array([0.15, 0.15, 0.3, 0.1, 0.1, 0.15, 0.05])

TASKS = [t for t in envpool.list_all_envs() if t.startswith("MiniGrid-")]


def test_every_runnable_minigrid_id_is_provided() -> None:
    reference = {t for t in gymnasium.registry if t.startswith("MiniGrid-")}
    from envpool.families.minigrid.tasks import WFC_IDS

    assert set(WFC_IDS) <= reference
    assert set(TASKS) == reference - set(WFC_IDS)
    for task_id in WFC_IDS:
        with pytest.raises(ValueError, match=r"not provided: minigrid 3\.2\.0 cannot run it"):
            envpool.make(task_id)


def interacting(ref: Any, rng: np.random.Generator, num_actions: int) -> int:
    """An action that uses what is in front of minigrid's agent: reach a goal, open
    doors and boxes, pick things up, drop what it no longer needs; else a random one.
    Agents so get keys, unlock doors and pick up targets, which random actions rarely
    do."""
    env = ref.unwrapped
    front = env.grid.get(*env.front_pos)
    if num_actions > 3 and rng.random() < 0.9:
        if front is not None and front.type == "goal":
            return 2
        if front is not None and front.type == "door" and not front.is_open:
            return 5
        if front is not None and front.type == "box" and rng.random() < 0.5:
            return 5
        if front is not None and front.can_pickup() and env.carrying is None:
            return 3
        if front is None and env.carrying is not None and rng.random() < _drop_chance(env):
            return 4
    return int(
        rng.choice(num_actions, p=ACTION_PROBS[:num_actions] / ACTION_PROBS[:num_actions].sum())
    )


def _drop_chance(env: Any) -> float:
    """Keep a key while a door of its color is locked; drop anything else soon, to free
    the hands for the next object."""
    held = env.carrying
    if held.type == "key" and any(
        cell is not None and cell.type == "door" and cell.is_locked and cell.color == held.color
        for cell in env.grid.grid
    ):
        return 0.02
    return 0.5


def same_step(
    counts: dict[str, int], where: str, got: tuple[Any, Any, Any], ref: tuple[Any, Any, Any]
) -> bool:
    """Asserts envpool's (reward, terminated, truncated) equal minigrid's, counts
    minigrid's, and says whether its episode ended."""
    ref_reward, ref_term, ref_trunc = ref
    assert got[0] == ref_reward, where
    assert got[1] == ref_term, where
    assert got[2] == ref_trunc, where
    counts["terminated"] += int(ref_term)
    counts["truncated"] += int(ref_trunc)
    counts["rewarded"] += int(ref_reward > 0)
    return bool(ref_term or ref_trunc)


def lockstep(
    task_id: str, seed: int, steps: int, options: dict[str, Any], interact: bool = False
) -> dict[str, int]:
    env = envpool.make(task_id, num_envs=NUM_ENVS, seed=seed, **options)
    refs = [gymnasium.make(task_id, **options) for _ in range(NUM_ENVS)]
    counts = {"terminated": 0, "truncated": 0, "rewarded": 0}
    try:
        obs, info = env.reset()
        ref_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        done = [False] * NUM_ENVS
        rng = np.random.default_rng(seed)
        num_actions = int(env.single_action_space.n)  # Dynamic-Obstacles has 3
        probs = ACTION_PROBS[:num_actions] / ACTION_PROBS[:num_actions].sum()
        for t in range(steps):
            for i, ref in enumerate(refs):
                where = f"{task_id} {options} seed {seed + i} step {t}"
                np.testing.assert_array_equal(obs["image"][i], ref_obs[i]["image"], where)
                assert obs["direction"][i] == ref_obs[i]["direction"], where
                assert obs["mission"][i] == ref_obs[i]["mission"], where
                np.testing.assert_array_equal(info["agent_pos"][i], ref.unwrapped.agent_pos, where)
            if interact:
                actions = np.array([interacting(ref, rng, num_actions) for ref in refs])
            else:
                actions = rng.choice(num_actions, size=NUM_ENVS, p=probs)
            obs, reward, terminated, truncated, info = env.step(actions)
            for i, ref in enumerate(refs):
                where = f"{task_id} {options} seed {seed + i} step {t} action {actions[i]}"
                if done[i]:
                    ref_obs[i], _ = ref.reset()
                    ref_reward, ref_term, ref_trunc = 0.0, False, False
                else:
                    ref_obs[i], ref_reward, ref_term, ref_trunc, _ = ref.step(int(actions[i]))
                done[i] = same_step(
                    counts,
                    where,
                    (reward[i], terminated[i], truncated[i]),
                    (ref_reward, ref_term, ref_trunc),
                )
    finally:
        env.close()
        for ref in refs:
            ref.close()
    return counts


@pytest.mark.parametrize("task_id", TASKS)
def test_episodes_replay_in_minigrid(task_id: str) -> None:
    lockstep(task_id, 7, STEPS, {})
    short = lockstep(task_id, 100, STEPS, {"max_steps": 25})
    assert short["truncated"] + short["terminated"] >= NUM_ENVS, short
    lockstep(task_id, 21, STEPS, {}, interact=True)


# Tasks whose success (a door unlocked, a target picked up, a goal behind doors) the
# interacting policy reaches: (task, seed, steps).
SUCCESSES = [
    ("MiniGrid-DoorKey-5x5-v0", 1, 400),
    ("MiniGrid-DoorKey-8x8-v0", 1, 400),
    ("MiniGrid-Unlock-v0", 1, 400),
    ("MiniGrid-UnlockPickup-v0", 1, 1000),
    ("MiniGrid-KeyCorridorS3R1-v0", 1, 400),
    ("MiniGrid-KeyCorridorS3R2-v0", 1, 400),
    ("MiniGrid-ObstructedMaze-1Dl-v0", 2, 1000),
    ("MiniGrid-RedBlueDoors-6x6-v0", 1, 400),
    ("MiniGrid-MultiRoom-N2-S4-v0", 1, 400),
    ("MiniGrid-PutNear-6x6-N2-v0", 2, 1000),
]


@pytest.mark.parametrize(("task_id", "seed", "steps"), SUCCESSES)
def test_successes_replay_in_minigrid(task_id: str, seed: int, steps: int) -> None:
    counts = lockstep(task_id, seed, max(STEPS, steps), {}, interact=True)
    assert counts["rewarded"] > 0, counts


@pytest.mark.parametrize("task_id", TASKS)
def test_spaces_match_minigrid(task_id: str) -> None:
    """Image and direction equal minigrid's spaces; minigrid's mission is a MissionSpace,
    which equals no other class (its __eq__ wants a MissionSpace), so envpool's is a
    gymnasium Text holding every mission."""
    env = envpool.make_gymnasium(task_id, num_envs=1)
    ref = gymnasium.make(task_id)
    mine, theirs = env.single_observation_space, ref.observation_space
    assert list(mine) == list(theirs)  # direction, image, mission (minigrid's sorted Dict)
    assert mine["direction"] == theirs["direction"]
    assert mine["image"] == theirs["image"]
    assert isinstance(mine["mission"], spaces.Text)
    assert mine["mission"].max_length == 512
    assert env.single_action_space == ref.action_space
    obs, _ = env.reset(seed=3)
    ref_obs, _ = ref.reset(seed=3)
    assert obs["mission"][0] == ref_obs["mission"]
    assert mine["mission"].contains(obs["mission"][0])
    assert theirs["mission"].contains(obs["mission"][0])
    env.close()
    ref.close()


def test_options_reach_the_envs() -> None:
    cases = [
        ("MiniGrid-Empty-8x8-v0", {"agent_view_size": 5, "size": 6, "agent_start_pos": None}),
        ("MiniGrid-DoorKey-8x8-v0", {"see_through_walls": True, "agent_view_size": 9}),
        ("MiniGrid-FourRooms-v0", {"agent_pos": (3, 4), "goal_pos": (15, 14)}),
        ("MiniGrid-LavaGapS5-v0", {"obstacle_type": minigrid.core.world_object.Wall}),
        ("MiniGrid-LavaCrossingS9N1-v0", {"num_crossings": 3, "obstacle_type": "wall"}),
        ("MiniGrid-KeyCorridorS3R3-v0", {"obj_type": "box", "room_size": 4}),
    ]
    for task_id, options in cases:
        lockstep(task_id, 5, 60, options)


def test_a_seeded_reset_mid_run_replays_minigrid() -> None:
    """reset(seed=s) reseeds env i with s + i, as minigrid's reset(seed=s + i)."""
    task_id = "MiniGrid-KeyCorridorS3R2-v0"
    env = envpool.make(task_id, num_envs=NUM_ENVS, seed=0)
    env.reset()
    for _ in range(5):
        env.step(np.full(NUM_ENVS, 2))
    obs, info = env.reset(seed=40)
    for i in range(NUM_ENVS):
        ref = gymnasium.make(task_id)
        ref_obs, _ = ref.reset(seed=40 + i)
        np.testing.assert_array_equal(obs["image"][i], ref_obs["image"])
        assert obs["mission"][i] == ref_obs["mission"]
        np.testing.assert_array_equal(info["agent_pos"][i], ref.unwrapped.agent_pos)
        ref_obs, *_ = ref.reset()  # the next episode continues the generator
        next_obs, _ = env.reset(env_id=[i])
        np.testing.assert_array_equal(next_obs["image"][0], ref_obs["image"])
        assert next_obs["mission"][0] == ref_obs["mission"]
    env.close()
