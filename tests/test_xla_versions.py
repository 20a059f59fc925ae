"""Which jax releases env.xla() takes: jax and jaxlib from envpool.xla.OLDEST_JAX on;
a release newer than the newest tested warns once; an older one, or a jaxlib whose
XLA refuses the FFI handlers' API version, is refused with a message that names the
versions and the fix. (tests/test_xla.py runs the xla tests themselves; CI runs it
with the oldest supported jax too, the jax-oldest step of .ci/run.)"""

from __future__ import annotations

import importlib
import importlib.metadata
import warnings
from pathlib import Path

import pytest
from conftest import run_python

pytestmark = pytest.mark.jax

jax = pytest.importorskip("jax")  # the numpy 1.26 CI pass has no jax
xla = importlib.import_module("envpool.xla")


def _report_versions(monkeypatch: pytest.MonkeyPatch, jax_version: str, jaxlib_version: str):
    versions = {"jax": jax_version, "jaxlib": jaxlib_version}
    real = importlib.metadata.version
    monkeypatch.setattr(
        xla.importlib.metadata,
        "version",
        lambda dist: versions.get(dist) or real(dist),
    )
    monkeypatch.setattr(xla, "_warned_untested", False)


def test_the_installed_jax_is_in_the_supported_range():
    found = xla._release(importlib.metadata.version("jax"))
    assert xla._release(xla.OLDEST_JAX) <= found


@pytest.mark.parametrize(
    ("version", "release"),
    [
        ("0.10.2", (0, 10, 2)),
        ("0.9.0.1", (0, 9, 0, 1)),
        ("0.11.0rc1", (0, 11, 0)),
        ("0.11.0.dev20260101", (0, 11, 0)),
        ("not installed", ()),
    ],
)
def test_release_numbers_compare_as_numbers(version, release):
    assert xla._release(version) == release
    assert xla._release("0.10.0") > xla._release("0.9.2")


@pytest.mark.parametrize(
    ("jax_version", "jaxlib_version"),
    [("0.4.30", "0.10.2"), ("0.4.38", "0.4.38"), ("0.5.0", "0.4.36"), ("0.6.0", "not installed")],
)
def test_a_jax_older_than_the_oldest_supported_is_refused(monkeypatch, jax_version, jaxlib_version):
    _report_versions(monkeypatch, jax_version, jaxlib_version)
    with pytest.raises(ImportError) as raised:
        xla.check_jax_version()
    message = str(raised.value)
    assert f"needs jax and jaxlib >= {xla.OLDEST_JAX}" in message
    assert f"found jax {jax_version} and jaxlib {jaxlib_version}" in message
    assert "pip install 'envpool[jax]'" in message


@pytest.mark.parametrize("version", ["0.5.0", "0.7.2", "0.10.2"])
def test_a_jax_in_the_tested_range_passes_quietly(monkeypatch, version):
    _report_versions(monkeypatch, version, version)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        xla.check_jax_version()


def test_a_jax_newer_than_the_newest_tested_warns_once(monkeypatch):
    _report_versions(monkeypatch, "0.11.2", "0.11.2")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # once is envpool's doing, not the filter's
        xla.check_jax_version()
        xla.check_jax_version()
    assert len(caught) == 1, [str(w.message) for w in caught]
    message = str(caught[0].message)
    assert caught[0].category is UserWarning
    assert f"tested with jax and jaxlib {xla.OLDEST_JAX} to {xla.NEWEST_TESTED_JAX}" in message
    assert "found jax 0.11.2 and jaxlib 0.11.2" in message


def test_xla_refusing_the_handlers_ffi_api_version_is_a_clear_error():
    """A handler that reports FFI API 99.0 is refused by XLA's own check; envpool
    turns that into an ImportError naming its handlers' version and the fix."""
    from xla_fake_handler import handler_reporting

    jax.devices()  # registration is immediate (not deferred) once backends exist
    with pytest.raises(ImportError) as raised:
        xla._register_ffi_target("envpool_test_refused", handler_reporting(99, 0), "cpu")
    message = str(raised.value)
    built = ".".join(map(str, xla.bindings.extension("_xla").FFI_API_VERSION))
    assert f"refuses envpool's XLA FFI handlers, built against XLA FFI API {built}" in message
    assert "API version (99.0)" in message  # XLA's own words
    assert f"from {xla.OLDEST_JAX} to {xla.NEWEST_TESTED_JAX}" in message
    assert "ENVPOOL_XLA_FFI_INCLUDE_DIR" in message
    assert float(jax.numpy.ones(3).sum()) == 3.0  # jax goes on working


def test_envpool_handlers_report_the_oldest_supported_ffi_api():
    """envpool._xla is built against the oldest supported jaxlib's headers (FFI
    API 0.1), the version every jaxlib in the range accepts."""
    assert tuple(xla.bindings.extension("_xla").FFI_API_VERSION) == (0, 1)


def test_a_refused_handler_leaves_jax_working_in_a_fresh_process():
    """In a fresh interpreter (no jax backend started yet) env.xla() with handlers
    XLA refuses raises the ImportError, and jax still works: a target registered
    before the backends start would be refused when they start, and then no
    backend would start at all."""
    tests = Path(__file__).resolve().parent
    out = run_python(
        f"""
        import sys
        sys.path.insert(0, {str(tests)!r})
        import jax.numpy as jnp
        import envpool
        from envpool import bindings
        from xla_fake_handler import handler_reporting

        bindings.extension("_xla").HANDLERS["cpu"]["send"] = handler_reporting(99, 0)
        env = envpool.make("CartPole-v1", env_type="gymnasium", num_envs=2)
        try:
            env.xla()
        except ImportError as error:
            print("refused:", error)
        print("jax works:", float(jnp.ones(3).sum()))
        """
    )
    assert out.returncode == 0, out.stderr
    assert "refused: jax " in out.stdout
    assert "API version (99.0)" in out.stdout
    assert "jax works: 3.0" in out.stdout


def test_the_pins_name_the_same_range():
    """pyproject's jax extra starts at OLDEST_JAX, its test extra pins the newest
    tested release, and the FFI headers are the oldest supported jaxlib's."""
    import re

    import tomllib

    root = Path(__file__).resolve().parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert extras["jax"] == [f"jax>={xla.OLDEST_JAX}", f"jaxlib>={xla.OLDEST_JAX}"]
    for dist in ("jax", "jaxlib"):
        assert f"{dist}=={xla.NEWEST_TESTED_JAX}" in extras["test"]
    recipe = (root / "third_party" / "xla_ffi" / "xla_ffi.cmake").read_text()
    pinned = re.search(r"^set\(ENVPOOL_JAXLIB_VERSION (\S+)\)", recipe, re.MULTILINE)
    assert pinned is not None
    assert pinned.group(1) == xla.OLDEST_JAX
