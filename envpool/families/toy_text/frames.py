"""The toy-text tasks' rgb_array frames: gymnasium's own, drawn from envpool's state.

gymnasium draws these frames by blitting its image files (gymnasium/envs/toy_text/img)
at places set by its module's layout constants. Rather than a second copy of that
layout, each ``draw_*`` function here sets what gymnasium's ``render()`` reads on one
gymnasium env kept for the purpose (per task and map, built on the first frame) and
lets it draw: the frame is gymnasium's by construction, under whichever pygame is
installed. The C++ env's ``Render`` writes what the frame shows (cpp/envpool/toy_text,
``Render``): the player's tile, the taxi's state and heading, the cards. Needs pygame,
as gymnasium's toy-text rendering does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envpool.drawn_frames import import_pygame, scene_numbers

_references: dict[tuple[Any, ...], Any] = {}
_SUITS = ("C", "D", "H", "S")
_FACES = ("J", "Q", "K")


def _reference(key: tuple[Any, ...], make: Any) -> Any:
    """The gymnasium env kept for ``key``, made by ``make()`` on first use."""
    if key not in _references:
        # gymnasium's renderers import pygame when they draw
        import_pygame("the toy-text tasks'", "gymnasium", 'pip install "gymnasium[toy-text]"')
        _references[key] = make()
    return _references[key]


def _scene(rendered: np.ndarray) -> list[int]:
    return [int(v) for v in scene_numbers(rendered)]


def draw_frozen_lake(rendered: np.ndarray, spec: Any) -> np.ndarray:
    """FrozenLake's frame from its scene: (the player's tile,)."""
    from gymnasium.envs.toy_text import FrozenLakeEnv

    desc, map_name = spec.config["desc"], spec.config["map_name"]
    rows = desc.split("\n") if desc else None
    env = _reference(
        ("FrozenLake", desc, map_name),
        lambda: FrozenLakeEnv(render_mode="rgb_array", desc=rows, map_name=map_name),
    )
    (env.s,) = _scene(rendered)
    return env.render()


def draw_cliff_walking(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """CliffWalking's frame from its scene: (the player's tile,)."""
    from gymnasium.envs.toy_text import CliffWalkingEnv

    env = _reference(("CliffWalking",), lambda: CliffWalkingEnv(render_mode="rgb_array"))
    (env.s,) = _scene(rendered)
    return env.render()


def draw_taxi(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """Taxi's frame from its scene: (state, last action or -1, the taxi's heading)."""
    from gymnasium.envs.toy_text import TaxiEnv

    env = _reference(("Taxi",), lambda: TaxiEnv(render_mode="rgb_array"))
    state, last_action, heading = _scene(rendered)
    env.s, env.taxi_orientation = state, heading
    env.lastaction = None if last_action < 0 else last_action
    return env.render()


def draw_blackjack(rendered: np.ndarray, _spec: Any) -> np.ndarray:
    """Blackjack's frame from its scene: (the player's total counting aces as 1, whether
    they hold an ace, the dealer's face-up card, its suit, which face card a 10 is)."""
    from gymnasium.envs.toy_text import BlackjackEnv

    env = _reference(("Blackjack",), lambda: BlackjackEnv(render_mode="rgb_array"))
    raw_sum, has_ace, dealer_card, suit, face = _scene(rendered)
    # A hand with the same total and ace: all the frame reads of the player's cards.
    env.player = [1, raw_sum - 1] if has_ace else [raw_sum]
    env.dealer = [dealer_card]
    env.dealer_top_card_suit = _SUITS[suit]
    if dealer_card == 1:
        env.dealer_top_card_value_str = "A"
    elif dealer_card == 10:
        env.dealer_top_card_value_str = _FACES[face]
    else:
        env.dealer_top_card_value_str = str(dealer_card)
    return env.render()
