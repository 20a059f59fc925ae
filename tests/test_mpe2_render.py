"""The mpe2 tasks' render_mode="rgb_array" frames against mpe2's own, pixel for pixel.

Env i of a pool made with seed=s and mpe2's parallel_env reset with seed s + i are
stepped with the same random actions; their frames must be equal at the reset, after
every step and through an autoreset, for every scenario with discrete actions and
dynamic_rescaling on and off, and with continuous actions for the scenarios whose agents
speak (their messages read differently) and two others.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import numpy as np
import pytest
from test_mpe2_parity import random_actions  # skips this module, as its own, without mpe2

import envpool
from envpool.families.mpe2 import render
from envpool.families.mpe2.tasks import MPE2_MODULES

pytest.importorskip("pygame")

# task id -> options; max_cycles=3 puts an autoreset among the 4 steps
SCENARIOS: list[tuple[str, dict[str, Any]]] = [
    ("Simple-v3", {"max_cycles": 3}),
    ("SimpleAdversary-v3", {}),
    ("SimpleCrypto-v3", {"max_cycles": 3}),
    ("SimplePush-v3", {}),
    ("SimpleReference-v3", {}),
    ("SimpleSpeakerListener-v4", {"max_cycles": 3}),
    ("SimpleSpread-v3", {"N": 4}),
    ("SimpleTag-v3", {"max_cycles": 3}),
    ("SimpleWorldComm-v3", {}),
    ("SimpleLine-v1", {}),
    ("SimpleFormation-v1", {"max_cycles": 3}),
    ("CollectTreasure-v1", {}),
]
# the scenarios whose agents speak (their messages are written on the frame) and two
# whose agents are silent
CONTINUOUS = {
    "SimpleCrypto-v3",
    "SimpleReference-v3",
    "SimpleSpeakerListener-v4",
    "SimpleWorldComm-v3",
    "SimpleSpread-v3",
    "CollectTreasure-v1",
}
STEPS = 4


def assert_same_frames(frames: tuple[np.ndarray, ...], refs: list[Any], when: str) -> None:
    assert len(frames) == len(refs)
    for i, (frame, ref) in enumerate(zip(frames, refs, strict=True)):
        expected = ref.render()
        assert frame.dtype == np.uint8
        assert frame.shape == expected.shape == (700, 700, 3)
        if not np.array_equal(frame, expected):
            differ = int(np.any(frame != expected, axis=-1).sum())
            pytest.fail(f"env {i} {when}: {differ} pixels differ")


def reference(task_id: str, **options: Any) -> Any:
    """mpe2's parallel_env of ``task_id`` with ``options``."""
    module = importlib.import_module(f"mpe2.{MPE2_MODULES[task_id]}")
    return module.parallel_env(**options)


def run_side_by_side(
    task_id: str,
    options: dict[str, Any],
    continuous: bool,
    dynamic_rescaling: bool,
    steps: int = STEPS,
    seed: int = 7,
) -> list[Any]:
    """Compares the frames of a pool of 2 envs with mpe2's; returns mpe2's envs."""
    pool = envpool.make(
        task_id,
        num_envs=2,
        seed=seed,
        render_mode="rgb_array",
        continuous_actions=continuous,
        dynamic_rescaling=dynamic_rescaling,
        **options,
    )
    refs = [
        reference(
            task_id,
            render_mode="rgb_array",
            continuous_actions=continuous,
            dynamic_rescaling=dynamic_rescaling,
            **options,
        )
        for _ in range(pool.num_envs)
    ]
    pool.reset()
    for i, ref in enumerate(refs):
        ref.reset(seed=seed + i)
    assert_same_frames(pool.render(), refs, "at the reset")
    rng = np.random.default_rng(seed)
    ended = [False] * len(refs)
    for step in range(steps):
        actions = random_actions(pool, rng)
        pool.step(actions)
        for i, ref in enumerate(refs):
            if ended[i]:  # next_step autoreset: this step reset the env
                ref.reset()
                ended[i] = False
            else:
                _, _, terms, truncs, _ = ref.step({a: actions[a][i] for a in ref.agents})
                ended[i] = any(terms.values()) or any(truncs.values())
        assert_same_frames(pool.render(), refs, f"after step {step + 1}")
    pool.close()
    return refs


@pytest.mark.parametrize("dynamic_rescaling", [True, False], ids=["rescaled", "fixed"])
@pytest.mark.parametrize(("task_id", "options"), SCENARIOS, ids=[t for t, _ in SCENARIOS])
def test_discrete_frames_match_mpe2(
    task_id: str, options: dict[str, Any], dynamic_rescaling: bool
) -> None:
    run_side_by_side(task_id, options, False, dynamic_rescaling)


@pytest.mark.parametrize(
    ("task_id", "options"),
    [case for case in SCENARIOS if case[0] in CONTINUOUS],
    ids=[t for t, _ in SCENARIOS if t in CONTINUOUS],
)
def test_continuous_frames_match_mpe2(task_id: str, options: dict[str, Any]) -> None:
    run_side_by_side(task_id, options, True, True)


def test_collect_treasure_frames_hide_picked_up_treasures_and_tint_their_carriers() -> None:
    # crowded enough that collectors pick treasures up (draw skips those treasures and
    # paints their carriers in the treasure's colour) within a few steps
    options = {"num_collectors": 6, "num_treasures": 30}
    refs = run_side_by_side("CollectTreasure-v1", options, False, True, 8)
    world = refs[0].unwrapped.world
    assert any(not lm.alive for lm in world.landmarks) or any(
        a.holding is not None for a in world.agents
    )


def test_render_env_id_and_pettingzoo_give_the_same_frames() -> None:
    with envpool.make(
        "SimpleSpeakerListener-v4", num_envs=3, seed=2, render_mode="rgb_array"
    ) as pool:
        pool.reset()
        frames = pool.render()
        (second,) = pool.render(env_id=[1])
        np.testing.assert_array_equal(second, frames[1])
        assert pool.metadata["render_modes"] == ["rgb_array"]
    env = envpool.make_pettingzoo("SimpleSpeakerListener-v4", render_mode="rgb_array")
    ref = reference("SimpleSpeakerListener-v4", render_mode="rgb_array")
    env.reset(seed=4)
    ref.reset(seed=4)
    assert env.render_mode == "rgb_array"
    assert env.metadata["render_modes"] == ["rgb_array"]
    for agent in env.possible_agents:
        env.action_space(agent).seed(5)
    for _ in range(3):
        np.testing.assert_array_equal(env.render(), ref.render())
        actions = {a: env.action_space(a).sample() for a in env.agents}
        env.step(actions)
        ref.step({a: int(v) for a, v in actions.items()})
    frame = env.render()
    np.testing.assert_array_equal(frame, ref.render())
    ref.close()  # pygame.quit(): later frames still draw the messages
    np.testing.assert_array_equal(env.render(), frame)
    env.close()


def test_bad_render_modes_are_refused() -> None:
    with pytest.raises(ValueError) as raised:
        envpool.make("SimpleSpread-v3", render_mode="human")
    assert str(raised.value).startswith(
        "SimpleSpread-v3: render_mode must be None or 'rgb_array', got 'human'"
    )
    assert "ansi" not in str(raised.value)  # SimpleSpread has no text rendering
    with pytest.raises(ValueError, match=r"must be None or 'rgb_array' or 'ansi', got 'text'"):
        envpool.make("FrozenLake-v1", render_mode="text")
    with pytest.raises(ValueError, match="has no text rendering"):
        envpool.make("SimpleSpread-v3", render_mode="ansi")
    with pytest.raises(ValueError, match="has no text rendering"):
        envpool.make_pettingzoo("SimpleSpread-v3", render_mode="ansi")
    with envpool.make("SimpleSpread-v3", num_envs=2) as pool:
        pool.reset()
        with pytest.raises(ValueError, match="render_mode='rgb_array'"):
            pool.render()
    env = envpool.make_pettingzoo("SimpleSpread-v3")
    env.reset()
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        env.render()
    env.close()


def test_missing_pygame_or_font_say_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = envpool.make("SimpleCrypto-v3", num_envs=1, render_mode="rgb_array")
    pool.reset()
    monkeypatch.setitem(sys.modules, "pygame", None)
    with pytest.raises(ImportError, match="pip install pygame-ce"):
        pool.render()
    monkeypatch.undo()
    find_spec = importlib.util.find_spec

    def without_mpe2(name: str, *args: Any) -> Any:
        return None if name == "mpe2" else find_spec(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_mpe2)
    monkeypatch.setattr(render, "_font", None)
    with pytest.raises(FileNotFoundError, match="mpe2's font"):
        pool.render()  # SimpleCrypto's agents speak
    pool.close()
