"""Checks that reset(options={"reset_mask": mask}) restarts the masked envs and no others.

gymnasium 1.x's SyncVectorEnv and AsyncVectorEnv accept reset_mask in every autoreset
mode, so the check runs in all of them. Env 0 is run until its episode ends (within the
step bound), so that the masked reset also has to cancel a pending NEXT_STEP autoreset.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from envpool.testing.report import CheckSkippedError, ConformanceError
from envpool.testing.session import Session
from envpool.testing.values import tree_equal

CHECK = "reset_mask"
FIELDS = ("obs", "reward", "terminated", "truncated")


def check_reset_mask(session: Session, seeds_checked: bool, max_steps: int) -> str:
    n = session.num_envs
    if n < 2:
        raise CheckSkippedError("needs num_envs >= 2, so that some env is left out of the mask")
    seeds = [session.seed + i for i in range(n)]
    action = session.sample_actions()
    start, _ = session.reset(CHECK, seed=seeds)
    reference = _row(session, session.step(CHECK, action), 0)

    session.reset(CHECK)
    ended0, ended = _run_until_env0_ends(session, max_steps)
    mask = np.zeros(n, dtype=bool)
    mask[0] = True
    if session.mode is AutoresetMode.DISABLED:
        mask |= ended  # ended envs may not be stepped before a reset
    mask_seeds: list[Any] = [seeds[0]] + [None] * (n - 1)
    shown = f"reset(seed={mask_seeds}, options={{'reset_mask': {mask.tolist()}}})"
    before = session.obs_rows(session.last_obs)
    obs, _ = session.reset(CHECK, seed=mask_seeds, reset_mask=mask)
    after = session.obs_rows(obs)
    changed = [i for i in np.flatnonzero(~mask).tolist() if not tree_equal(after[i], before[i])]
    if changed:
        raise ConformanceError(
            CHECK,
            f"{shown} changed the obs of envs {changed}, which the mask leaves out: "
            "reset_mask must restart only the masked envs; the others keep their latest "
            "observation (gymnasium's SyncVectorEnv returns them unchanged)",
        )
    kept = f"kept envs {np.flatnonzero(~mask).tolist()}"
    if not seeds_checked:
        return f"{shown} {kept}; env 0's restart not compared (the determinism check was skipped)"
    if not tree_equal(after[0], session.obs_rows(start)[0]):
        raise ConformanceError(
            CHECK,
            f"{shown} returned an obs for env 0 that differs from its first obs after "
            f"reset(seed={seeds}): the masked env was not restarted with its seed (is "
            "reset_mask ignored?). A masked env restarts exactly as a full reset would",
        )
    got = _row(session, session.step(CHECK, action), 0)
    for name, u, v in zip(FIELDS, got, reference, strict=True):
        if not tree_equal(u, v):
            pending = (
                " Env 0 had just ended, and a masked reset cancels its pending autoreset."
                if ended0 and session.mode is AutoresetMode.NEXT_STEP
                else ""
            )
            values = "" if name == "obs" else f" ({u} vs {v})"
            raise ConformanceError(
                CHECK,
                f"after {shown}, env 0's first step differs in {name}{values} from the first "
                f"step after reset(seed={seeds}) with the same action: a masked env must go "
                f"on exactly like a freshly reset one.{pending}",
            )
    state = "just-ended " if ended0 else ""
    return (
        f"{shown} restarted {state}env 0 as reset(seed={seeds}) does (same obs and next "
        f"step) and {kept}"
    )


def _row(session: Session, step: Any, i: int) -> tuple:
    return (session.obs_rows(step.obs)[i], step.reward[i], step.terminated[i], step.truncated[i])


def _run_until_env0_ends(session: Session, max_steps: int) -> tuple[bool, np.ndarray]:
    """Steps until env 0's episode ends; in DISABLED mode, where ended envs may not be
    stepped, takes one step, and starts over if that ended every env but env 0 (some env
    must stay out of the mask, which takes env 0 and the ended envs)."""
    ended = np.zeros(session.num_envs, dtype=bool)
    if session.mode is AutoresetMode.DISABLED:
        ended = session.step(CHECK, session.sample_actions()).ended
        if ended[1:].all():
            session.reset(CHECK)
            ended[:] = False
        return bool(ended[0]), ended
    for _ in range(max_steps):
        ended = session.step(CHECK, session.sample_actions()).ended
        if ended[0]:
            break
    return bool(ended[0]), ended
