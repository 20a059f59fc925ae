"""Checks of the VectorEnv's attributes and of the shapes of what reset and step return."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.spaces.utils import is_space_dtype_shape_equiv
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from envpool.testing.report import ConformanceError
from envpool.testing.session import Session

STEPS_CHECKED = 3


def check_spaces(env: Any) -> str:
    n = getattr(env, "num_envs", None)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ConformanceError("spaces", f"env.num_envs is {n!r}; it must be an int >= 1")
    for name in ("single_observation_space", "single_action_space"):
        if not isinstance(getattr(env, name, None), spaces.Space):
            raise ConformanceError(
                "spaces", f"env.{name} is {getattr(env, name, None)!r}; it must be one env's Space"
            )
    notes = []
    for kind in ("observation", "action"):
        single = getattr(env, f"single_{kind}_space")
        batched = getattr(env, f"{kind}_space", None)
        expected = batch_space(single, int(n))
        if batched == expected:
            notes.append(f"{kind}_space == batch_space(single_{kind}_space, {n})")
        elif isinstance(batched, spaces.Space) and _same_layout(batched, expected):
            notes.append(f"{kind}_space has the layout of batch_space(single_{kind}_space, {n})")
        else:
            raise ConformanceError(
                "spaces",
                f"env.{kind}_space is {batched}, but batch_space(single_{kind}_space, "
                f"num_envs={n}) is {expected}; the {kind}_space of a VectorEnv describes a "
                f"batch of num_envs single-env values",
            )
    return "; ".join(notes)


def _same_layout(a: spaces.Space, b: spaces.Space) -> bool:
    """Same space types, dtypes and shapes; bounds may differ (observation_mode='different')."""
    try:
        return bool(is_space_dtype_shape_equiv(a, b))
    except (NotImplementedError, TypeError):
        return False


def check_metadata(env: Any) -> tuple[AutoresetMode, str]:
    metadata = getattr(env, "metadata", None)
    if not isinstance(metadata, dict):
        raise ConformanceError(
            "metadata", f"env.metadata is {type(metadata).__name__}; it must be a dict"
        )
    if "autoreset_mode" not in metadata:
        raise ConformanceError(
            "metadata",
            "env.metadata has no 'autoreset_mode'; a VectorEnv says how it resets ended envs "
            "with metadata['autoreset_mode'] = a gymnasium.vector.AutoresetMode, which "
            "gymnasium's vector wrappers read",
        )
    mode = metadata["autoreset_mode"]
    if not isinstance(mode, AutoresetMode):
        raise ConformanceError(
            "metadata",
            f"env.metadata['autoreset_mode'] is {mode!r} ({type(mode).__name__}); it must be a "
            "gymnasium.vector.AutoresetMode member (NEXT_STEP, SAME_STEP or DISABLED), which is "
            "what gymnasium's vector wrappers compare it with",
        )
    return mode, f"metadata['autoreset_mode'] = {mode}"


def check_reset(session: Session) -> str:
    session.reset("reset", seed=session.seed)
    session.reset("reset", seed=None)
    return "reset(seed=...) and reset() return (obs in observation_space, info dict)"


def check_step(session: Session) -> str:
    session.reset("step")
    done = 0
    while done < STEPS_CHECKED:
        step = session.step("step", session.sample_actions())
        done += 1
        if session.mode is AutoresetMode.DISABLED and step.ended.any():
            break  # ended envs may not be stepped before a reset
    return (
        f"{done} step(s): obs in observation_space, reward float ({session.num_envs},), "
        f"terminated/truncated bool ({session.num_envs},)"
    )


def describe_info(session: Session) -> str:
    masks = sorted(k for k in session.info_keys if k.startswith("_") and k[1:] in session.info_keys)
    data = sorted(k for k in session.info_keys if k not in masks)
    return (
        f"every info of {session.calls} reset/step calls was a dict of arrays with "
        f"num_envs rows; keys seen: {data or 'none'}; masks: {masks or 'none'}"
    )
