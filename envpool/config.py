"""Config: a dict whose keys also read as attributes (a pool's options, an
observation's fields)."""

from __future__ import annotations

from typing import Any


class Config(dict):
    """A dict whose keys also read as attributes: ``config["num_envs"]`` or ``config.num_envs``."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"config has no key {name!r}; its keys: {sorted(self)}") from None
