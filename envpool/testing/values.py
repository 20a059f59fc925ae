"""Comparing and validating the values a VectorEnv returns, with messages that say why."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import iterate

from envpool.testing.report import ConformanceError

T = TypeVar("T")


def call_env(check: str, call: str, fn: Callable[[], T]) -> T:
    """Runs one call on the env; an exception becomes a ConformanceError naming the call."""
    try:
        return fn()
    except ConformanceError:
        raise
    except Exception as exc:
        raise ConformanceError(check, f"{call} raised {type(exc).__name__}: {exc}") from exc


def snapshot(value: T) -> T:
    """A deep copy, since some envs reuse their output buffers on the next call."""
    return copy.deepcopy(value)


def tree_equal(a: Any, b: Any) -> bool:
    """Exact equality of two observations (arrays, or dicts/tuples of them)."""
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)) or a.keys() != b.keys():
            return False
        return all(tree_equal(a[k], b[k]) for k in a)
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        if not (isinstance(a, (tuple, list)) and isinstance(b, (tuple, list))) or len(a) != len(b):
            return False
        return all(tree_equal(x, y) for x, y in zip(a, b, strict=True))
    x, y = np.asarray(a), np.asarray(b)
    return x.shape == y.shape and bool(np.array_equal(x, y))


def rows(batch_space: spaces.Space, batch: Any) -> list[Any]:
    """One item per env of a batched value. gymnasium's iterate gives a numpy
    scalar for a row of a shape-() Box (a dict observation's scalar key, say);
    it is a 0-d array here, as an env's own single observation would be."""
    return [_as_arrays(item) for item in iterate(batch_space, batch)]


def _as_arrays(item: Any) -> Any:
    if isinstance(item, np.generic):
        return np.asarray(item)
    if isinstance(item, dict):
        return {key: _as_arrays(value) for key, value in item.items()}
    return item


def space_mismatch(space: spaces.Space, value: Any, what: str) -> str | None:
    """Why ``value`` is not a member of ``space`` (dtype included), or None if it is."""
    if isinstance(space, spaces.Dict):
        if not isinstance(value, dict):
            return f"{what} is a {type(value).__name__}, but the space is a Dict space"
        if set(value) != set(space.spaces):
            return f"{what} has keys {sorted(value)}, but the space has {sorted(space.spaces)}"
        for key, sub in space.spaces.items():
            found = space_mismatch(sub, value[key], f"{what}[{key!r}]")
            if found:
                return found
        return None
    if isinstance(space, spaces.Tuple):
        if not isinstance(value, tuple) or len(value) != len(space.spaces):
            return f"{what} is {type(value).__name__}, but the space is a Tuple of {len(space)}"
        for i, sub in enumerate(space.spaces):
            found = space_mismatch(sub, value[i], f"{what}[{i}]")
            if found:
                return found
        return None
    if isinstance(space, (spaces.Box, spaces.MultiDiscrete, spaces.MultiBinary)):
        return _array_mismatch(space, value, what)
    integer = isinstance(value, (int, np.integer)) or (
        isinstance(value, np.ndarray) and value.shape == () and value.dtype.kind in "iu"
    )
    if isinstance(space, spaces.Discrete) and not integer:
        return f"{what} is {value!r} ({type(value).__name__}); a Discrete value is an integer"
    if not space.contains(value):
        return f"{what} = {value!r} is not in {space}"
    return None


def _array_mismatch(space: Any, value: Any, what: str) -> str | None:
    if not isinstance(value, np.ndarray):
        return f"{what} is a {type(value).__name__}; it must be a numpy array of {space}"
    if value.dtype != space.dtype:
        return f"{what} has dtype {value.dtype}, but the space's dtype is {space.dtype}"
    if value.shape != space.shape:
        return f"{what} has shape {value.shape}, but the space's shape is {space.shape}"
    if space.contains(value):
        return None
    if isinstance(space, spaces.Box):
        outside = np.argwhere(~((value >= space.low) & (value <= space.high)))
        if len(outside) == 0:
            return f"{what} is not in {space}"
        index = tuple(int(i) for i in outside[0])
        return (
            f"{what} is out of the space's bounds: at index {index} it is {value[index]!r}, "
            f"outside [{space.low[index]!r}, {space.high[index]!r}]"
        )
    return f"{what} holds values outside {space}"


def flag_mismatch(value: Any, name: str, n: int, kind: str) -> str | None:
    """Why a reward / terminated / truncated batch is malformed, or None."""
    want = "a float" if kind == "f" else "a bool"
    rule = f"{want} numpy array of shape (num_envs,) = ({n},)"
    if not isinstance(value, np.ndarray):
        return f"{name} is a {type(value).__name__}; a VectorEnv returns {rule}"
    if kind == "f" and not np.issubdtype(value.dtype, np.floating):
        return f"{name} has dtype {value.dtype}; a VectorEnv returns {rule}"
    if kind == "b" and value.dtype != np.bool_:
        return f"{name} has dtype {value.dtype}; a VectorEnv returns {rule}"
    if value.shape != (n,):
        return f"{name} has shape {value.shape}; a VectorEnv returns {rule}"
    if kind == "f" and not np.all(np.isfinite(value)):
        return f"{name} holds non-finite values {value}"
    return None


def info_mismatch(info: Any, n: int, what: str = "info") -> str | None:
    """Why ``info`` breaks the vector info layout, or None.

    The layout: a dict whose values are numpy arrays with num_envs rows (or nested
    dicts laid out the same way); a key ``_k`` next to a key ``k`` is a bool mask
    of shape (num_envs,) saying which envs' rows of ``k`` are set.
    """
    if not isinstance(info, dict):
        return f"{what} is a {type(info).__name__}; a VectorEnv returns info as a dict"
    for key, value in info.items():
        where = f"{what}[{key!r}]"
        if not isinstance(key, str):
            return f"{what} has a non-string key {key!r}"
        if key.startswith("_") and key[1:] in info:
            if not isinstance(value, np.ndarray) or value.dtype != np.bool_:
                kind = getattr(value, "dtype", type(value).__name__)
                return f"mask {where} is {kind}; a `_key` mask is a numpy bool array"
            if value.shape != (n,):
                return f"mask {where} has shape {value.shape}; a `_key` mask has shape ({n},)"
            continue
        if isinstance(value, dict):
            found = info_mismatch(value, n, where)
            if found:
                return found
            continue
        if not isinstance(value, np.ndarray):
            return (
                f"{where} is a {type(value).__name__}; each info value of a VectorEnv is a "
                f"numpy array with one row per env (num_envs={n}) or a dict of such arrays"
            )
        if value.ndim == 0 or value.shape[0] != n:
            return (
                f"{where} has shape {value.shape}; info arrays have num_envs={n} rows "
                f"(with a `_{key}` bool mask when only some envs set them)"
            )
    return None
