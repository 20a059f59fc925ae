"""obs_mode="flat" and missions longer than FlatObsWrapper's 96 characters.

A level whose missions can outgrow the 96 characters is refused at make (naming the
other obs_modes), not left to fail on the autoreset that draws one; every other level
takes "flat" and stays in step with a "dict" pool of the same seed through autoresets.
The bounds (envpool/families/minigrid/mission_bounds.py, from minigrid's mission
grammar) are checked against missions sampled from minigrid itself.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import envpool
from envpool.families.minigrid import mission_bounds
from envpool.families.minigrid.mission_bounds import FLAT_MISSION_CHARS
from envpool.registry import get_task

# the registered ids whose missions can be longer than 96 characters: LevelGen with
# "seq" instructions (BossLevel's grammar reaches 321, GoToSeq's 105)
REFUSED = {
    "BabyAI-BossLevel-v0",
    "BabyAI-BossLevelNoUnlock-v0",
    "BabyAI-GoToSeq-v0",
    "BabyAI-GoToSeqS5R2-v0",
    "BabyAI-MiniBossLevel-v0",
    "BabyAI-SynthSeq-v0",
}
INSTR_ALL = ("action", "and", "seq")
VIEW_CELLS = 7 * 7 * 3  # the flat observation's image part, the rest is the mission
CHARS = "abcdefghijklmnopqrstuvwxyz ,"  # FlatObsWrapper's 28 codes


def _grid_ids() -> list[str]:
    return [t for t in envpool.list_all_envs() if t.startswith(("MiniGrid-", "BabyAI-"))]


def _bound(task_id: str) -> int:
    spec = get_task(task_id)
    longest = mission_bounds.longest_mission(spec.entry_point, spec.options)
    assert longest is not None, f"{task_id}: {spec.entry_point} has no mission bound"
    return len(longest)


def test_every_level_has_a_bound_and_exactly_the_long_ones_refuse_flat() -> None:
    ids = _grid_ids()
    assert len(ids) > 150
    assert {t for t in ids if _bound(t) > FLAT_MISSION_CHARS} == REFUSED


@pytest.mark.parametrize("task_id", ["BabyAI-GoToSeq-v0", "BabyAI-BossLevel-v0"])
def test_a_long_mission_level_refuses_flat_and_runs_with_image(task_id: str) -> None:
    bound = _bound(task_id)
    for make in (envpool.make, envpool.make_spec):
        with pytest.raises(ValueError) as raised:
            make(task_id, num_envs=2, obs_mode="flat")
        message = str(raised.value)
        assert task_id in message and f"up to {bound} characters" in message
        assert "obs_mode: 'image'" in message and "'dict'" in message
    env = envpool.make(task_id, num_envs=2, seed=1, obs_mode="image", max_steps=3)
    try:
        obs, _ = env.reset()
        assert obs.shape == (2, 7, 7, 3)
        for _ in range(8):  # through autoresets
            obs, *_ = env.step(np.zeros(2, dtype=np.int64))
        assert obs.shape == (2, 7, 7, 3)
    finally:
        env.close()


def test_level_gen_options_decide() -> None:
    # BossLevel's actions alone fit (put ... next to ..., with places: 75 characters),
    # and GoToSeq's without "seq" (two go-tos joined by "and": 47)
    for task_id, kinds in (
        ("BabyAI-BossLevel-v0", ("action",)),
        ("BabyAI-GoToSeq-v0", "action,and"),
    ):
        env = envpool.make(task_id, num_envs=1, obs_mode="flat", instr_kinds=kinds)
        env.close()
    # Synth's actions alone fit, with sequences they do not
    with pytest.raises(ValueError, match=r"BabyAI-Synth-v0: .*instr_kinds='action,and,seq'"):
        envpool.make("BabyAI-Synth-v0", num_envs=1, obs_mode="flat", instr_kinds=INSTR_ALL)
    # obs_mode given env by env is refused as "flat" is
    with pytest.raises(ValueError, match="obs_mode='flat'"):
        envpool.make_spec("BabyAI-SynthSeq-v0", num_envs=2, obs_mode=["flat", "flat"])


def _mission(row: np.ndarray) -> str:
    codes = row[VIEW_CELLS:].reshape(FLAT_MISSION_CHARS, len(CHARS))
    return "".join(CHARS[int(np.argmax(c))] for c in codes if c.any())


# the longest missions that fit (MoveTwoAcross: up to 93 characters, SynthLoc: 75) and
# a MiniGrid one with a comma
@pytest.mark.parametrize(
    "task_id", ["BabyAI-MoveTwoAcrossS5N2-v0", "BabyAI-SynthLoc-v0", "MiniGrid-LockedRoom-v0"]
)
def test_flat_stays_in_step_with_dict_through_autoresets(task_id: str) -> None:
    num_envs, seed = 4, 11
    flat = envpool.make(task_id, num_envs=num_envs, seed=seed, obs_mode="flat", max_steps=5)
    plain = envpool.make(task_id, num_envs=num_envs, seed=seed, obs_mode="dict", max_steps=5)
    try:
        obs_f, _ = flat.reset()
        obs_d, _ = plain.reset()
        rng = np.random.default_rng(seed)
        episodes = np.zeros(num_envs, dtype=np.int64)
        for t in range(40):
            for i in range(num_envs):
                where = f"{task_id} env {i} step {t}"
                np.testing.assert_array_equal(
                    obs_f[i, :VIEW_CELLS], obs_d["image"][i].reshape(-1), where
                )
                assert _mission(obs_f[i]) == obs_d["mission"][i].lower(), where
            actions = rng.integers(0, 7, size=num_envs)
            obs_f, rew_f, term_f, trunc_f, _ = flat.step(actions)
            obs_d, rew_d, term_d, trunc_d, _ = plain.step(actions)
            np.testing.assert_array_equal(rew_f, rew_d)
            np.testing.assert_array_equal(term_f, term_d)
            np.testing.assert_array_equal(trunc_f, trunc_d)
            episodes += term_f | trunc_f
        assert (episodes >= 5).all(), episodes  # every env went through autoresets
    finally:
        flat.close()
        plain.close()


# refused levels, with seeds on which minigrid draws a mission longer than 96
# characters, and the longest accepted ones (MoveTwoAcross's true maximum is 91: two
# of its four objects at most can be "the purple ball" or "the yellow ball"; PickupDist
# may name "the purple object"); LevelGen with other options
@pytest.mark.parametrize(
    ("task_id", "options", "seeds", "long_seeds"),
    [
        ("BabyAI-GoToSeqS5R2-v0", {}, 200, (38, 95, 107, 186)),
        ("BabyAI-GoToSeq-v0", {}, 60, (356, 1125)),
        ("BabyAI-SynthSeq-v0", {}, 100, (0, 22, 71)),
        ("BabyAI-MoveTwoAcrossS5N2-v0", {}, 300, ()),
        ("BabyAI-SynthLoc-v0", {}, 300, ()),
        ("BabyAI-PickupDist-v0", {}, 200, ()),
        ("MiniGrid-LockedRoom-v0", {}, 200, ()),
        ("BabyAI-BossLevel-v0", {"instr_kinds": ["action"]}, 200, ()),
        ("BabyAI-BossLevel-v0", {"instr_kinds": ["and"], "action_kinds": ["putnext"]}, 150, ()),
    ],
)
def test_bounds_hold_for_minigrids_missions(
    task_id: str, options: dict[str, Any], seeds: int, long_seeds: tuple[int, ...]
) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("minigrid")
    spec = get_task(task_id)
    longest = mission_bounds.longest_mission(spec.entry_point, {**spec.options, **options})
    assert longest is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = gymnasium.make(task_id, **options).unwrapped
    try:
        lengths = {}
        for seed in (*range(seeds), *long_seeds):
            ref.reset(seed=seed)
            lengths[seed] = len(ref.mission)
    finally:
        ref.close()
    assert max(lengths.values()) <= len(longest), (task_id, max(lengths.values()), longest)
    if not options:
        assert (task_id in REFUSED) == bool(long_seeds)
    for seed in long_seeds:
        assert lengths[seed] > FLAT_MISSION_CHARS, (task_id, seed, lengths[seed])
        # and the C++ level draws the same mission, which "flat" could not encode
        env = envpool.make(task_id, num_envs=1, seed=seed)
        try:
            assert len(env.reset()[0]["mission"][0]) == lengths[seed], (task_id, seed)
        finally:
            env.close()
