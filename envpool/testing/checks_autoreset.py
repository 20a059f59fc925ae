"""Checks that ended episodes restart as metadata["autoreset_mode"] says, step by step."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from envpool.testing.report import CheckSkippedError, ConformanceError
from envpool.testing.session import Session, Step
from envpool.testing.values import space_mismatch, tree_equal

CHECK = "autoreset"
NEXT_STEP_RULE = (
    "In NEXT_STEP mode the step after an episode's end only resets that env: it returns the "
    "new episode's first obs, reward 0 and terminated = truncated = False"
)
SAME_STEP_RULE = (
    "In SAME_STEP mode the ending step returns the new episode's first obs in obs, the ended "
    "episode's last obs and info in info['final_obs'] and info['final_info'], and bool masks "
    "info['_final_obs'] and info['_final_info'] that are True exactly where terminated | "
    "truncated is"
)


@dataclass(frozen=True)
class EpisodeEnd:
    env: int
    varied: bool
    """The ended episode's observations changed at least once, so its last obs can be told
    apart from a first obs; the stale-observation test below only uses such episodes."""
    stale: bool
    """NEXT_STEP: the step after the end repeated the last obs; SAME_STEP: final_obs equals
    the new first obs."""


def check_autoreset(session: Session, max_steps: int) -> str:
    mode, n = session.mode, session.num_envs
    obs, _ = session.reset(CHECK)
    prev = session.obs_rows(obs)
    varied = np.zeros(n, dtype=bool)
    pending = np.zeros(n, dtype=bool)  # NEXT_STEP: ended on the previous step
    ended_once = np.zeros(n, dtype=bool)
    ends: list[EpisodeEnd] = []
    end_count, t = 0, 0
    for t in range(1, max_steps + 1):
        step = session.step(CHECK, session.sample_actions())
        cur = session.obs_rows(step.obs)
        ended = step.ended
        end_count += int(ended.sum())
        if mode is AutoresetMode.NEXT_STEP:
            _check_reset_step(step, pending, t)
            for i in range(n):
                if pending[i]:
                    ends.append(EpisodeEnd(i, bool(varied[i]), tree_equal(cur[i], prev[i])))
                    varied[i] = False
                else:
                    varied[i] |= not tree_equal(cur[i], prev[i])
            pending = ended.copy()
        elif mode is AutoresetMode.SAME_STEP:
            finals = _final_obs_rows(session, step, t)
            for i in range(n):
                if ended[i]:
                    was_varied = bool(varied[i]) or not tree_equal(finals[i], prev[i])
                    ends.append(EpisodeEnd(i, was_varied, tree_equal(finals[i], cur[i])))
                    varied[i] = False
                else:
                    varied[i] |= not tree_equal(cur[i], prev[i])
        else:
            _check_no_autoreset(step, t)
            if ended.any():
                cur = _reset_ended(session, ended, cur)
                ends += [EpisodeEnd(int(i), False, False) for i in np.flatnonzero(ended)]
        ended_once |= ended
        prev = cur
        if ended_once.all() and not pending.any():
            break
    if end_count == 0:
        raise CheckSkippedError(
            f"no episode ended within max_steps={max_steps} steps of sampled actions; cap the "
            "episodes (max_episode_steps, gymnasium.wrappers.TimeLimit) or raise max_steps"
        )
    if not ends:
        raise CheckSkippedError(f"the only episode end came on step {t}, the last one allowed")
    _check_not_stale(mode, ends)
    envs = sorted({e.env for e in ends})
    return f"{end_count} episode end(s) in {t} steps (envs {envs}): " + _summary(mode, ends)


def _check_reset_step(step: Step, pending: np.ndarray, t: int) -> None:
    for i in np.flatnonzero(pending):
        if step.terminated[i] or step.truncated[i]:
            raise ConformanceError(
                CHECK,
                f"env {i} ended on step {t - 1}, and step {t} returned terminated="
                f"{bool(step.terminated[i])}, truncated={bool(step.truncated[i])} for it. "
                + NEXT_STEP_RULE,
            )
        if step.reward[i] != 0:
            raise ConformanceError(
                CHECK,
                f"env {i} ended on step {t - 1}, and step {t} returned reward {step.reward[i]} "
                f"for it, so that step was a real step (is the env resetting in SAME_STEP "
                f"fashion, or a step late?). " + NEXT_STEP_RULE,
            )


def _final_obs_rows(session: Session, step: Step, t: int) -> dict[int, Any]:
    info, ended = step.info, step.ended
    ended_ids = np.flatnonzero(ended).tolist()
    for key in ("final_obs", "final_info"):
        mask = info.get(f"_{key}")
        if ended.any() and (key not in info or mask is None):
            missing = key if key not in info else f"_{key}"
            raise ConformanceError(
                CHECK,
                f"envs {ended_ids} ended on step {t}, but info has no {missing!r}. "
                + SAME_STEP_RULE,
            )
        if mask is not None and not np.array_equal(mask, ended):
            raise ConformanceError(
                CHECK,
                f"on step {t} info['_{key}'] is {np.asarray(mask).tolist()}, but terminated | "
                f"truncated is {ended.tolist()}. " + SAME_STEP_RULE,
            )
    if not ended.any():
        return {}
    final = info["final_obs"]
    if isinstance(final, np.ndarray) and final.dtype == object:
        final_rows = list(final)  # gymnasium's layout: one single obs per env, None elsewhere
    else:
        try:
            final_rows = session.obs_rows(final)  # a dense batch laid out like obs
        except Exception as exc:
            raise ConformanceError(
                CHECK,
                f"info['final_obs'] ({type(final).__name__}) is neither an object array of "
                f"num_envs single observations nor a batch laid out like obs: {exc}",
            ) from exc
    if len(final_rows) != session.num_envs:
        raise ConformanceError(
            CHECK,
            f"info['final_obs'] has {len(final_rows)} rows; it has one per env "
            f"(num_envs={session.num_envs}). " + SAME_STEP_RULE,
        )
    single = session.env.single_observation_space
    for i in ended_ids:
        problem = space_mismatch(single, final_rows[i], f"info['final_obs'][{i}]")
        if problem:
            raise ConformanceError(
                CHECK,
                f"{problem} (step {t}); each ended env's final_obs is an observation of "
                "single_observation_space",
            )
    return {i: final_rows[i] for i in ended_ids}


def _check_no_autoreset(step: Step, t: int) -> None:
    mask = step.info.get("_final_obs")
    if "final_obs" in step.info and (mask is None or np.any(mask)):
        raise ConformanceError(
            CHECK,
            f"metadata['autoreset_mode'] is DISABLED, yet step {t} returned info['final_obs'] "
            "for an ended env, so the VectorEnv reset it by itself. In DISABLED mode ended "
            "envs stay ended until reset(options={'reset_mask': ...}) restarts them",
        )


def _reset_ended(session: Session, ended: np.ndarray, cur: list[Any]) -> list[Any]:
    obs, _ = session.reset(CHECK, reset_mask=ended)
    new = session.obs_rows(obs)
    kept = np.flatnonzero(~ended)
    changed = [int(i) for i in kept if not tree_equal(new[i], cur[i])]
    if changed:
        raise ConformanceError(
            CHECK,
            f"reset(options={{'reset_mask': {ended.tolist()}}}) changed the obs of envs "
            f"{changed}, which the mask leaves out: reset_mask must restart only the masked "
            "envs; the others keep their latest observation",
        )
    return new


def _check_not_stale(mode: AutoresetMode | None, ends: list[EpisodeEnd]) -> None:
    telling = [e for e in ends if e.varied]
    if not telling or not all(e.stale for e in telling):
        return
    envs = sorted({e.env for e in telling})
    if mode is AutoresetMode.NEXT_STEP:
        raise ConformanceError(
            CHECK,
            f"after every episode end (envs {envs}) the next step returned the ending step's "
            "observation again instead of a new first observation: the autoreset comes a "
            "step late. " + NEXT_STEP_RULE,
        )
    raise ConformanceError(
        CHECK,
        f"at every episode end (envs {envs}) info['final_obs'] equals the new first obs "
        "returned in obs: final_obs is stale, not the ended episode's true last observation. "
        + SAME_STEP_RULE,
    )


def _summary(mode: AutoresetMode | None, ends: list[EpisodeEnd]) -> str:
    if mode is AutoresetMode.DISABLED:
        return (
            "no env reset by itself; reset(options={'reset_mask': ended}) restarted the "
            "ended envs and kept the others"
        )
    if mode is AutoresetMode.NEXT_STEP:
        text = "each next step returned reward 0, terminated = truncated = False"
        fresh = "and a new first obs"
    else:
        text = "final_obs/final_info masks matched the ended envs, final_obs was in the space"
        fresh = "and differed from the new first obs"
    if any(e.varied for e in ends):
        return f"{text} {fresh}"
    return f"{text}; stale observations not looked for (no episode's obs ever changed)"
