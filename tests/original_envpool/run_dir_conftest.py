"""conftest.py of the folder where the original EnvPool's test files run
(copied there by tests/test_original_envpool_suite.py).

The Atari file imports, at module level, a feature envpool does not provide
(docs/migration.md, "Running code written for the original EnvPool"): the
original's private C++ binding module ``envpool.atari.atari_envpool``. The test
that uses it is deselected; the placeholder below only lets the rest of the
file be imported. Any use of a
placeholder raises NotProvidedError, so a test that needs one cannot pass by
accident.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any


class NotProvidedError(RuntimeError):
    pass


class _Placeholder:
    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> _Placeholder:
        return _Placeholder(f"{self._name}.{attr}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotProvidedError(
            f"{self._name} is a placeholder: envpool does not provide it "
            "(see docs/migration.md, 'Running code written for the original EnvPool')"
        )


class _PlaceholderModule(types.ModuleType):
    def __getattr__(self, attr: str) -> _Placeholder:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Placeholder(f"{self.__name__}.{attr}")


def _install_placeholder(name: str) -> None:
    module = _PlaceholderModule(name)
    module.__path__ = []  # a package, so that its submodules can be imported
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, module)


if importlib.util.find_spec("envpool.atari") is not None:
    _install_placeholder("envpool.atari.atari_envpool")
