"""envpool's C++ NumpyRandom makes the draws of gymnasium's env.np_random, seed for seed.

Envs that replay gymnasium's randomness (toy text, Box2D) draw through it, so an
episode of env i of a pool seeded with s replays in gymnasium after reset(seed=s + i).
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import seeding

from envpool._core import _numpy_random_draws

pytestmark = [pytest.mark.numpy_sensitive, pytest.mark.cpu_sensitive]

SEEDS = [0, 1, 7, 42, 2**31 - 1, 2**32 - 1, 2**32, 123456789012345, 2**63, 2**64 - 1]

# A mix of calls, including integer ranges on both sides of the 32-bit split
# (numpy buffers half of a 64-bit draw for the next 32-bit one).
CALLS = [
    ("raw",),
    ("random",),
    ("uniform", -1.0, 1.0),
    ("integers", -9999, 9999),
    ("random",),
    ("integers", 0, 13),
    ("integers", 0, 13),
    ("integers", 0, 13),
    ("uniform", 0.0, 6.666),
    ("integers", 0, 2**32),
    ("integers", 5, 6),
    ("integers", -(2**40), 2**40),
    ("integers", 0, 2**63 - 1),
    ("categorical", [1 / 3, 1 / 3, 1 / 3]),
    ("categorical", [0.1, 0.0, 0.6, 0.3]),
    ("integers", 1, 2**31),
    ("uniform", 0.0, 1e-300),
    ("shuffle", 7),
    ("integers", 0, 3),
    ("shuffle", 1),
    ("shuffle", 40),
]


def numpy_draws(seed: int, calls: list[tuple]) -> list:
    rng, _ = seeding.np_random(seed)
    out = []
    for name, *args in calls:
        if name == "raw":
            out.append(int(rng.bit_generator.random_raw()))
        elif name == "random":
            out.append(rng.random())
        elif name == "uniform":
            out.append(rng.uniform(*args))
        elif name == "integers":
            out.append(int(rng.integers(*args)))
        elif name == "shuffle":  # a Python list, as minigrid's CrossingEnv shuffles
            items = list(range(args[0]))
            rng.shuffle(items)
            out.append(items)
        else:  # gymnasium's categorical_sample
            out.append(int(np.argmax(np.cumsum(np.asarray(args[0])) > rng.random())))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_same_draws_as_gymnasium_np_random(seed):
    calls = CALLS * 20
    assert _numpy_random_draws(seed, calls) == numpy_draws(seed, calls)


def test_long_integer_stream_matches_choice_over_a_deck():
    # Blackjack draws cards with np_random.choice over a 13-card list.
    rng, _ = seeding.np_random(3)
    deck = list(range(13))
    expected = [int(rng.choice(deck)) for _ in range(500)]
    assert _numpy_random_draws(3, [("integers", 0, 13)] * 500) == expected


def test_unknown_call_is_an_error():
    with pytest.raises(ValueError, match="unknown NumpyRandom call 'normal'"):
        _numpy_random_draws(0, [("normal",)])
