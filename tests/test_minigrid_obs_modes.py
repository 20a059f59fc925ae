"""The obs_mode option against minigrid's observation wrappers.

``envpool.make(id, obs_mode=m)`` gives, env by env and step by step, what minigrid's
wrapper for m gives over ``gymnasium.make(id)`` reset with seed s + i and stepped with
the same random actions through autoresets: "image" ImgObsWrapper, "one_hot"
OneHotPartialObsWrapper, "flat" FlatObsWrapper, "full" FullyObsWrapper, "rgb"
RGBImgObsWrapper, "rgb_partial" RGBImgPartialObsWrapper; and render_mode="rgb_array"
frames equal minigrid's env.render().
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import envpool

minigrid = pytest.importorskip("minigrid")
from minigrid import wrappers  # noqa: E402  # after the skip: minigrid is optional

WRAPPERS = {
    "image": wrappers.ImgObsWrapper,
    "one_hot": wrappers.OneHotPartialObsWrapper,
    "flat": wrappers.FlatObsWrapper,
    "full": wrappers.FullyObsWrapper,
    "rgb": wrappers.RGBImgObsWrapper,
    "rgb_partial": wrappers.RGBImgPartialObsWrapper,
}
# a plain room, doors and keys, objects of several colors, a comma in the mission, a
# grid that is not square, lava, a box; BabyAI's rooms, and a level that hands the
# agent its object after the reset's observation (the wrappers that draw the grid read
# the env after the reset)
TASKS = [
    "MiniGrid-Empty-5x5-v0",
    "MiniGrid-DoorKey-6x6-v0",
    "MiniGrid-Fetch-5x5-N2-v0",
    "MiniGrid-LockedRoom-v0",
    "MiniGrid-KeyCorridorS3R1-v0",
    "MiniGrid-LavaGapS5-v0",
    "MiniGrid-BlockedUnlockPickup-v0",
    "BabyAI-GoToObjMazeS4R2-v0",
    "BabyAI-PutNextS5N2Carrying-v0",
]
NUM_ENVS = 3
STEPS = 60


def _assert_same(obs: Any, ref: Any, where: str) -> None:
    if isinstance(ref, dict):
        assert set(obs) == set(ref), where  # envpool's keys in the space's (sorted) order
        for key in ref:
            _assert_same(obs[key], ref[key], f"{where} [{key}]")
    elif isinstance(ref, str):
        assert obs == ref, where
    else:
        np.testing.assert_array_equal(obs, ref, where)


def _row(obs: Any, i: int) -> Any:
    if isinstance(obs, dict):
        return {key: _row(value, i) for key, value in obs.items()}
    return obs[i]


@pytest.mark.parametrize("mode", sorted(WRAPPERS))
@pytest.mark.parametrize("task_id", TASKS)
def test_obs_mode_equals_minigrids_wrapper(task_id: str, mode: str) -> None:
    seed = 3
    env = envpool.make(task_id, num_envs=NUM_ENVS, seed=seed, obs_mode=mode, max_steps=20)
    refs = [WRAPPERS[mode](gymnasium.make(task_id, max_steps=20)) for _ in range(NUM_ENVS)]
    try:
        space, ref_space = env.single_observation_space, refs[0].observation_space
        if mode == "rgb" and ref_space["image"].shape[0] != ref_space["image"].shape[1]:
            # RGBImgObsWrapper declares (width, height) pixels, its images are
            # (height, width): envpool's space says what the images are
            image = refs[0].reset(seed=0)[0]["image"]
            assert space["image"].shape == image.shape
        elif isinstance(ref_space, gymnasium.spaces.Dict):  # MissionSpace equals no other
            assert space["image"] == ref_space["image"]
            assert space["direction"] == ref_space["direction"]
        else:
            assert space == ref_space
        obs, _ = env.reset()
        ref_obs = [ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)]
        done = [False] * NUM_ENVS
        rng = np.random.default_rng(seed)
        for t in range(STEPS):
            for i in range(NUM_ENVS):
                _assert_same(_row(obs, i), ref_obs[i], f"{task_id} {mode} env {i} step {t}")
            actions = rng.integers(0, 7, size=NUM_ENVS)
            obs, _, terminated, truncated, _ = env.step(actions)
            for i, ref in enumerate(refs):
                if done[i]:
                    ref_obs[i], _ = ref.reset()
                else:
                    ref_obs[i], _, term, trunc, _ = ref.step(int(actions[i]))
                    assert (terminated[i], truncated[i]) == (term, trunc)
                done[i] = bool(terminated[i] or truncated[i])
    finally:
        env.close()
        for ref in refs:
            ref.close()


@pytest.mark.parametrize("task_id", TASKS)
def test_rgb_array_frames_equal_minigrids_render(task_id: str) -> None:
    env = envpool.make(task_id, num_envs=2, seed=5, render_mode="rgb_array", max_steps=15)
    refs = [gymnasium.make(task_id, render_mode="rgb_array", max_steps=15) for _ in range(2)]
    try:
        env.reset()
        for i, ref in enumerate(refs):
            ref.reset(seed=5 + i)
        rng = np.random.default_rng(5)
        done = [False, False]
        for t in range(30):
            frames = env.render()
            for i, ref in enumerate(refs):
                np.testing.assert_array_equal(
                    frames[i], ref.render(), f"{task_id} env {i} step {t}"
                )
            actions = rng.integers(0, 3, size=2)  # turns and moves: the agent in every direction
            _, _, terminated, truncated, _ = env.step(actions)
            for i, ref in enumerate(refs):
                if done[i]:
                    ref.reset()
                else:
                    ref.step(int(actions[i]))
                done[i] = bool(terminated[i] or truncated[i])
    finally:
        env.close()
        for ref in refs:
            ref.close()


def test_an_unknown_obs_mode_or_tile_size_names_the_problem() -> None:
    with pytest.raises(ValueError, match=r"obs_mode must be 'dict', 'image'.*got 'rgb_array'"):
        envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1, obs_mode="rgb_array")
    with pytest.raises(ValueError, match="tile_size must be at least 1, got 0"):
        envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1, obs_mode="rgb", tile_size=0)
    env = envpool.make("MiniGrid-Empty-5x5-v0", num_envs=1, obs_mode="image")
    assert env.reset()[0].shape == (1, 7, 7, 3)
    env.close()
