"""Checks that reset(seed=...) makes runs reproducible and that the seed matters."""

from __future__ import annotations

from typing import Any

from gymnasium.vector import AutoresetMode

from envpool.testing.report import CheckSkippedError, ConformanceError
from envpool.testing.session import Session
from envpool.testing.values import tree_equal

# far from seed + i for any realistic num_envs, so no env gets a seed it had before
OTHER_SEED_OFFSET = 10_007
FIELDS = ("obs", "reward", "terminated", "truncated")


def rollout(session: Session, check: str, seed: int, actions: list[Any]) -> list[tuple]:
    """The first obs, then (obs, reward, terminated, truncated) of each step."""
    obs, _ = session.reset(check, seed=seed)
    trajectory: list[tuple] = [(obs,)]
    for action in actions:
        step = session.step(check, action)
        trajectory.append(tuple(step[:4]))
        if session.mode is AutoresetMode.DISABLED and step.ended.any():
            break  # ended envs may not be stepped before a reset
    return trajectory


def first_difference(a: list[tuple], b: list[tuple]) -> str | None:
    """Where two trajectories part, e.g. "the reward of step 3", or None."""
    for t, (x, y) in enumerate(zip(a, b, strict=False)):
        for name, u, v in zip(FIELDS, x, y, strict=False):
            if not tree_equal(u, v):
                return "the first obs" if t == 0 else f"the {name} of step {t}"
    if len(a) != len(b):
        return f"the episode end (after {min(len(a), len(b)) - 1} steps)"
    return None


def check_determinism(session: Session, steps: int) -> tuple[str, list[Any], list[tuple]]:
    seed = session.seed
    actions = [session.sample_actions() for _ in range(steps)]
    run_a = rollout(session, "determinism", seed, actions)
    run_b = rollout(session, "determinism", seed, actions)
    rows_a, rows_b = session.obs_rows(run_a[0][0]), session.obs_rows(run_b[0][0])
    differ = [i for i in range(session.num_envs) if not tree_equal(rows_a[i], rows_b[i])]
    if differ:
        raise ConformanceError(
            "determinism",
            f"reset(seed={seed}) twice returned different observations (envs {differ}); the "
            "seed is ignored or not applied: reset(seed=s) must reseed every env, so the same "
            "seed gives the same first observation",
        )
    where = first_difference(run_a, run_b)
    if where:
        raise ConformanceError(
            "determinism",
            f"two runs from reset(seed={seed}) with the same actions differ in {where}; the "
            "same seed and actions must replay the same trajectory",
        )
    detail = (
        f"reset(seed={seed}) twice gives the same obs; the same seed and actions replay the "
        f"same {len(run_a) - 1} steps"
    )
    return detail, actions, run_a


def check_seed_influence(session: Session, actions: list[Any], run_a: list[tuple]) -> str:
    seed, other = session.seed, session.seed + OTHER_SEED_OFFSET
    run_c = rollout(session, "seed", other, actions)
    where = first_difference(run_a, run_c)
    if where == "the first obs":
        return f"reset(seed={seed}) and reset(seed={other}) start differently"
    if where:
        return f"reset(seed={seed}) and reset(seed={other}) start alike but differ in {where}"
    starts = session.obs_rows(run_a[0][0])
    if any(not tree_equal(starts[0], row) for row in starts[1:]):
        raise ConformanceError(
            "seed",
            f"reset(seed={seed}) and reset(seed={other}) gave identical first observations and "
            f"identical {len(run_a) - 1}-step trajectories, although the envs of one batch "
            "(which get different seeds) start differently, so starts are random: the seed "
            "passed to reset is ignored. reset(seed=s) must seed each env's random generator "
            "(env i with s + i in gymnasium's convention)",
        )
    raise CheckSkippedError(
        f"seeds {seed} and {other} gave the same start and {len(run_a) - 1} steps, and all "
        "envs of a batch start alike: the env looks deterministic, so the seed's effect "
        "cannot be seen"
    )
