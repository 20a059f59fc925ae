"""Box2D rgb_array frames equal gymnasium's env.render(), pixel for pixel.

A pool made with render_mode="rgb_array" is stepped side by side with gymnasium
envs (render_mode="rgb_array") on the same actions, and both render: the frames
must be identical arrays (400 x 600 x 3, uint8). The walker's frame follows its
scroll and sweeps the lidar one ray per render; the lander's frame shows the
engines' exhaust particles, which both sides simulate only when rendering frames
and age only in render(), so some steps are left unrendered on purpose.
Observations and rewards are compared too: simulating the particles leaves the
lander's motion bit for bit gymnasium's.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import gymnasium as gym
import numpy as np
import pytest

import envpool

pytest.importorskip("Box2D", reason="gymnasium's Box2D envs need the box2d package")
pytest.importorskip("pygame", reason="gymnasium's Box2D frames are drawn with pygame")
from gymnasium.envs.box2d.bipedal_walker import BipedalWalkerHeuristics
from gymnasium.envs.box2d.lunar_lander import heuristic as lander_heuristic

from envpool.families.box2d import pygame_rules

# gymnasium draws with the installed pygame: pygame 2.6.1 and pygame-ce 2.5.8 draw
# polygons, lines and aalines by different rules (docs/box2d.md). CI runs this file
# under both (.ci/run's tests and pygame-ce steps).
PYGAME_CE = bool(getattr(pytest.importorskip("pygame"), "IS_CE", False))

NUMPY_1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"

# policy(t, obs, refs, rng) -> the pool's actions
Policy = Callable[[int, np.ndarray, list[Any], np.random.Generator], np.ndarray]


def frame_difference(ours: np.ndarray, theirs: np.ndarray) -> str | None:
    """None when the frames are identical, else what differs."""
    if ours.shape != theirs.shape or ours.dtype != theirs.dtype:
        return f"shape/dtype {ours.shape} {ours.dtype} vs {theirs.shape} {theirs.dtype}"
    if np.array_equal(ours, theirs):
        return None
    same = np.all(ours == theirs, axis=-1)
    diff = np.abs(ours.astype(np.int16) - theirs.astype(np.int16))
    rows, cols = np.nonzero(~same)
    return (
        f"{same.mean():.6f} of the pixels identical, max difference {diff.max()}, "
        f"{rows.size} pixels differ, first at (row, col) {rows[0]}, {cols[0]}"
    )


def replay(
    task: str,
    seed: int,
    steps: int,
    policy: Policy,
    render_at: Callable[[int], bool],
    num_envs: int = 1,
    **options: Any,
) -> dict[str, Any]:
    """Steps the pool and gymnasium together, rendering both where render_at(t);
    returns what the run went through."""
    pool = envpool.make(task, num_envs=num_envs, seed=seed, render_mode="rgb_array", **options)
    refs = [gym.make(task, render_mode="rgb_array", **options) for _ in range(num_envs)]
    seen: dict[str, Any] = dict(
        frames=0, episodes_ended=0, max_scroll=0.0, min_scroll=0.0, max_particles=0
    )

    def compare_frames(where: str) -> None:
        frames = pool.render()
        assert isinstance(frames, tuple) and len(frames) == num_envs
        for i, ref in enumerate(refs):
            problem = frame_difference(frames[i], ref.render())
            assert problem is None, f"{task} seed {seed} env {i} {where}: {problem}"
            unwrapped = ref.unwrapped
            if hasattr(unwrapped, "scroll"):
                seen["max_scroll"] = max(seen["max_scroll"], unwrapped.scroll)
                seen["min_scroll"] = min(seen["min_scroll"], unwrapped.scroll)
            if hasattr(unwrapped, "particles"):
                seen["max_particles"] = max(seen["max_particles"], len(unwrapped.particles))
            seen["frames"] += 1

    obs, _ = pool.reset()
    ref_obs = np.stack([ref.reset(seed=seed + i)[0] for i, ref in enumerate(refs)])
    np.testing.assert_array_equal(obs, ref_obs)
    compare_frames("after reset")
    rng = np.random.default_rng(seed)
    restart = [False] * num_envs
    for t in range(steps):
        actions = policy(t, obs, refs, rng)
        obs, rewards, terminated, truncated, _ = pool.step(actions)
        for i, ref in enumerate(refs):
            if restart[i]:  # envpool's next-step autoreset
                expected = (ref.reset()[0], 0.0, False, False)
                restart[i] = False
            else:
                expected = ref.step(actions[i])[:4]
                restart[i] = expected[2] or expected[3]
                seen["episodes_ended"] += restart[i]
            where = f"{task} seed {seed} env {i} step {t}"
            np.testing.assert_array_equal(obs[i], expected[0], err_msg=where)
            if NUMPY_1 and task.startswith("BipedalWalker"):
                # numpy 1.x computes gymnasium's torque cost in float64 (see
                # tests/test_box2d_bipedal_walker.py); envpool follows numpy 2.
                assert rewards[i] == pytest.approx(float(expected[1]), abs=1e-4), where
            else:
                assert rewards[i] == expected[1], where
            assert (terminated[i], truncated[i]) == (expected[2], expected[3]), where
        if render_at(t):
            compare_frames(f"step {t}")
    pool.close()
    return seen


def walker_heuristic(num_envs: int) -> Policy:
    walkers = [BipedalWalkerHeuristics() for _ in range(num_envs)]

    def policy(_t: int, obs: np.ndarray, _refs: list[Any], _rng: Any) -> np.ndarray:
        return np.stack(
            [w.step_heuristic(o).astype(np.float32) for w, o in zip(walkers, obs, strict=True)]
        )

    return policy


def walk_backwards(t: int, obs: np.ndarray, _refs: list[Any], rng: Any) -> np.ndarray:
    # Swings the legs so that the walker staggers back past its start: the
    # scroll goes negative, and the sky no longer covers the whole frame.
    sign = 1.0 if (t // 20) % 2 else -1.0
    base = np.array([-1.0, 1.0, -1.0, 1.0]) * sign * 0.8
    noise = rng.uniform(-0.2, 0.2, (len(obs), 4))
    return (base + noise).astype(np.float32)


def test_walker_frames_follow_the_scroll_to_the_far_end() -> None:
    # gymnasium's heuristic walks seed 0's terrain far to the right: every frame
    # is compared for a while, then every 8th (the surface gymnasium draws on
    # grows with the scroll). How far it gets before the time limit or a fall
    # depends on the last bits of libm's sin/cos, which differ between CPUs (a
    # CI machine reached 46 m, this one ~80 m); both sides always agree, and any
    # run scrolls well past the 20 m the first frame shows.
    seen = replay(
        "BipedalWalker-v3",
        0,
        1600,
        walker_heuristic(1),
        lambda t: t < 200 or t % 8 == 0,
    )
    assert seen["max_scroll"] > 30.0
    assert seen["episodes_ended"] >= 1


def test_hardcore_walker_frames_show_the_obstacles() -> None:
    seen = replay("BipedalWalkerHardcore-v3", 0, 400, walker_heuristic(1), lambda t: True)
    assert seen["episodes_ended"] >= 1  # falls at an obstacle; the next episode is drawn too


def test_walker_frames_with_a_negative_scroll() -> None:
    seen = replay("BipedalWalker-v3", 3, 150, walk_backwards, lambda t: True, num_envs=2)
    assert seen["min_scroll"] < -1.0


def lander_random(continuous: bool) -> Policy:
    def policy(_t: int, obs: np.ndarray, _refs: list[Any], rng: Any) -> np.ndarray:
        if continuous:
            return rng.uniform(-1.2, 1.2, (len(obs), 2)).astype(np.float32)
        return rng.integers(0, 4, len(obs))

    return policy


def lander_heuristic_policy(continuous: bool) -> Policy:
    def policy(_t: int, obs: np.ndarray, refs: list[Any], _rng: Any) -> np.ndarray:
        actions = [lander_heuristic(ref.unwrapped, o) for ref, o in zip(refs, obs, strict=True)]
        return np.asarray(actions, dtype=np.float32 if continuous else np.int64)

    return policy


def some_steps_unrendered(t: int) -> bool:
    # Particles age only when rendered: runs of unrendered steps leave older and
    # younger particles out of order in the queue.
    return (t // 7) % 3 != 2


@pytest.mark.parametrize(
    ("task", "seed", "options"),
    [
        ("LunarLander-v3", 0, {}),
        ("LunarLanderContinuous-v3", 1, {}),
        ("LunarLander-v3", 5, {"enable_wind": True, "turbulence_power": 2.0}),
    ],
)
def test_lander_frames_with_random_engines(task: str, seed: int, options: dict) -> None:
    continuous = task.startswith("LunarLanderContinuous")
    seen = replay(
        task, seed, 300, lander_random(continuous), some_steps_unrendered, num_envs=2, **options
    )
    assert seen["max_particles"] >= 10
    assert seen["episodes_ended"] >= 1


@pytest.mark.parametrize("task", ["LunarLander-v3", "LunarLanderContinuous-v3"])
def test_lander_frames_of_heuristic_landings(task: str) -> None:
    # gymnasium's heuristic lands and comes to rest: legs on the pad, then +100.
    continuous = task == "LunarLanderContinuous-v3"
    seen = replay(task, 21, 500, lander_heuristic_policy(continuous), lambda t: t % 11 != 10)
    assert seen["max_particles"] >= 5
    assert seen["episodes_ended"] >= 1


@pytest.mark.parametrize(
    ("render_mode", "options", "expected"),
    [
        ("rgb_array", {}, True),
        (None, {}, False),
        (None, {"render_particles": True}, True),
        ("rgb_array", {"render_particles": False}, False),
    ],
)
def test_lander_particles_follow_the_render_mode(
    render_mode: str | None, options: dict, expected: bool
) -> None:
    with envpool.make("LunarLander-v3", num_envs=1, render_mode=render_mode, **options) as pool:
        assert pool.spec.config["render_particles"] is expected


@pytest.mark.parametrize("task", ["LunarLander-v3", "BipedalWalker-v3"])
def test_frames_follow_the_installed_pygame(task: str) -> None:
    with envpool.make(task, num_envs=1, render_mode="rgb_array") as pool:
        assert pool.spec.config["pygame_ce"] is PYGAME_CE
    # a pool that renders no frames keeps the env's default, pygame-ce's rules
    with envpool.make(task, num_envs=1) as pool:
        assert pool.spec.config["pygame_ce"] is True


@pytest.mark.parametrize("task", ["LunarLander-v3", "BipedalWalker-v3"])
def test_the_other_pygames_frames_differ_from_gymnasiums(task: str) -> None:
    # The option decides pixels: drawn by the other pygame's rules, the frame is not
    # gymnasium's (the lander's outline and flag pole, the walker's hull and legs).
    ref = gym.make(task, render_mode="rgb_array")
    ref.reset(seed=4)
    for kwargs in ({}, {"pygame_ce": not PYGAME_CE}):
        with envpool.make(task, num_envs=1, seed=4, render_mode="rgb_array", **kwargs) as pool:
            pool.reset()
            problem = frame_difference(pool.render()[0], ref.render())
        if kwargs:
            assert problem is not None, "the other pygame's rules drew the same frame"
        else:
            assert problem is None, problem
    ref.close()


def test_without_pygame_the_frames_are_pygame_ces(monkeypatch: pytest.MonkeyPatch) -> None:
    # what pip install "gymnasium[box2d]" would bring
    monkeypatch.setattr(pygame_rules, "installed_pygame", lambda: None)
    with envpool.make("LunarLander-v3", num_envs=1, render_mode="rgb_array") as pool:
        assert pool.spec.config["pygame_ce"] is True


def test_an_unverified_pygame_that_draws_otherwise_warns(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pygame_rules.draw_with_pygame

    def off_by_one(*args: Any) -> np.ndarray:
        pixels = real(*args).copy()
        pixels[3, 5, 1] ^= 1
        return pixels

    monkeypatch.setattr(pygame_rules, "_checked_frames", False)
    monkeypatch.setattr(pygame_rules, "pygame_name", lambda _pygame: "pygame 9.9.9")
    monkeypatch.setattr(pygame_rules, "draw_with_pygame", off_by_one)
    with pytest.warns(RuntimeWarning, match=r"installed pygame 9\.9\.9 draws them differently"):
        envpool.make("BipedalWalker-v3", num_envs=1, render_mode="rgb_array").close()
    # once per process
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envpool.make("BipedalWalker-v3", num_envs=1, render_mode="rgb_array").close()
