"""gymnasium spaces and dm_env specs built from a C++ env's array specs."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np
from dm_env import specs as dm_specs
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

ArrayDesc = dict[str, Any]
"""One array as the C++ side describes it: name, dtype, shape, low, high; a dict
observation also has "keys", one description per named array, in order."""


def is_dict(desc: ArrayDesc) -> bool:
    """A dict or tuple observation: named arrays packed in one row."""
    return bool(desc.get("keys"))


def is_tuple(desc: ArrayDesc) -> bool:
    """A tuple observation (MakeTuple): its arrays are a Tuple space's elements."""
    return bool(desc.get("tuple"))


def is_text(desc: ArrayDesc) -> bool:
    """A text (MakeText): NUL-padded bytes in C++, a str per env in Python."""
    return bool(desc.get("text"))


def has_text(desc: ArrayDesc) -> bool:
    """A text, or a dict or tuple observation with a text among its keys."""
    return is_text(desc) or any(is_text(key) for key in desc.get("keys", ()))


def _bounds(desc: ArrayDesc) -> tuple[np.ndarray, np.ndarray]:
    dtype: np.dtype = np.dtype(desc["dtype"])
    shape = tuple(desc["shape"])
    if dtype.kind == "f":
        lowest, highest = -np.inf, np.inf
    elif dtype.kind == "b":
        lowest, highest = 0, 1
    else:
        info = np.iinfo(dtype)
        lowest, highest = info.min, info.max

    def fill(values: list[float], default: float) -> np.ndarray:
        if not values:
            return np.full(shape, default, dtype=dtype)
        if len(values) == 1:
            return np.full(shape, values[0], dtype=dtype)
        return np.asarray(values, dtype=dtype).reshape(shape)

    return fill(desc["low"], lowest), fill(desc["high"], highest)


def is_discrete(desc: ArrayDesc) -> bool:
    return (
        np.dtype(desc["dtype"]).kind in "iu" and len(desc["shape"]) == 0 and len(desc["low"]) == 1
    )


def is_multi_discrete(desc: ArrayDesc) -> bool:
    """A vector of integers with bounds given element by element (e.g. Blackjack's
    (player sum, dealer card, usable ace))."""
    shape = desc["shape"]
    return (
        np.dtype(desc["dtype"]).kind in "iu"
        and len(shape) == 1
        and shape[0] > 1
        and len(desc["low"]) == len(desc["high"]) == shape[0]
    )


_PRINTABLE_ASCII = "".join(chr(c) for c in range(32, 127))


class Text(spaces.Text):
    """gymnasium's Text space, printed without a raw ``%``: gymnasium's own warnings
    format their message with ``msg % args``, so a space whose printed charset holds
    a ``%`` (printable ASCII does) made any warning that names the space raise
    TypeError. The full printable-ASCII charset is printed by name."""

    def __repr__(self) -> str:
        if "".join(sorted(self.character_set)) == _PRINTABLE_ASCII:
            charset = "printable ASCII"
        else:
            charset = self.characters.replace("%", "\\x25")
        return f"Text({self.min_length}, {self.max_length}, charset={charset})"


def _nested(
    desc: ArrayDesc, convert: Callable[[ArrayDesc], Any], group: Callable[[Any], Any]
) -> OrderedDict[str, Any]:
    """A dict observation's keys converted, in the env's order; a key named
    "outer/inner" goes into a nested dict ``outer`` (made by ``group``), as a task with
    nested goals (FrankaKitchen) names its keys."""
    out: OrderedDict[str, Any] = OrderedDict()
    inner: dict[str, OrderedDict[str, Any]] = {}
    for key in desc["keys"]:
        outer, slash, name = key["name"].partition("/")
        if not slash:
            out[outer] = convert(key)
            continue
        if outer not in inner:
            inner[outer] = OrderedDict()
            out[outer] = None  # its place in the order
        inner[outer][name] = convert(key)
    for outer, keys in inner.items():
        out[outer] = group(keys)
    return out


def to_space(desc: ArrayDesc) -> spaces.Space:
    """A Discrete for a bounded integer scalar, a MultiDiscrete for an integer vector
    bounded element by element, a Dict (in the env's key order) for a dict
    observation, a Tuple for a tuple observation, a Text for a text, otherwise a Box."""
    if is_tuple(desc):
        return spaces.Tuple(tuple(to_space(key) for key in desc["keys"]))
    if is_dict(desc):  # an OrderedDict keeps the env's key order (a dict is sorted)
        return spaces.Dict(_nested(desc, to_space, lambda inner: spaces.Dict(inner)))
    if is_text(desc):  # low and high hold the least and most characters
        return Text(
            max_length=int(desc["high"][0]),
            min_length=int(desc["low"][0]),
            charset=desc["charset"],
        )
    dtype: np.dtype = np.dtype(desc["dtype"])
    if is_discrete(desc):
        first, last = int(desc["low"][0]), int(desc["high"][0])
        return spaces.Discrete(last - first + 1, start=first)
    if is_multi_discrete(desc):
        low, high = _bounds(desc)
        return spaces.MultiDiscrete(high - low + 1, dtype=dtype, start=low)
    low, high = _bounds(desc)
    return spaces.Box(low=low, high=high, shape=tuple(desc["shape"]), dtype=dtype)


def to_dm_spec(desc: ArrayDesc) -> Any:
    """A DiscreteArray, BoundedArray or Array matching the same description (a
    StringArray for a text); for a
    dict observation, a dict of those in the env's key order (a tuple observation's
    elements by their names too: dm_env observations are named)."""
    if is_dict(desc):
        return dict(_nested(desc, to_dm_spec, dict))
    name = desc["name"]
    if is_text(desc):  # one str per env
        return dm_specs.StringArray((), string_type=str, name=name)
    dtype = np.dtype(desc["dtype"])
    if is_discrete(desc) and desc["low"][0] == 0:
        return dm_specs.DiscreteArray(int(desc["high"][0]) + 1, dtype=dtype, name=name)
    if desc["low"] or desc["high"]:
        low, high = _bounds(desc)
        # Uniform bounds stay scalars (dm_env broadcasts them): spec.maximum == 255.
        low = low.flat[0] if low.size and (low == low.flat[0]).all() else low
        high = high.flat[0] if high.size and (high == high.flat[0]).all() else high
        return dm_specs.BoundedArray(tuple(desc["shape"]), dtype, low, high, name=name)
    return dm_specs.Array(tuple(desc["shape"]), dtype, name=name)


def batch(space: spaces.Space, n: int) -> spaces.Space:
    """gymnasium's batch_space, keeping a Dict's key order (batch_space sorts it); a
    Tuple's elements each batched, as batch_space does."""
    if isinstance(space, spaces.Dict):
        return spaces.Dict(OrderedDict((key, batch(sub, n)) for key, sub in space.items()))
    return batch_space(space, n)
