"""procgen's game library from its pinned wheel (envpool/procgen_runtime.py): fetched with
pip into a cache, checked by sha256, unpacked once, repaired when damaged, and refused
with a clear error where it cannot run. The first test downloads the real wheel (36 MB)
from the package index once; the rest use that copy through ENVPOOL_PROCGEN_WHEEL."""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from envpool import procgen_runtime as runtime

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or os.uname().machine != "x86_64", reason="Linux x86-64 only"
)


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache filled by library() itself (pip downloads the wheel, unless
    ENVPOOL_PROCGEN_WHEEL already points at a copy)."""
    cache = tmp_path_factory.mktemp("cache")
    old = os.environ.get(runtime.CACHE_VARIABLE)
    os.environ[runtime.CACHE_VARIABLE] = str(cache)
    try:
        runtime.library()
    finally:
        if old is None:
            del os.environ[runtime.CACHE_VARIABLE]
        else:
            os.environ[runtime.CACHE_VARIABLE] = old
    return cache / f"procgen-{runtime.VERSION}"


@pytest.fixture
def wheel(fetched: Path) -> Path:
    local = os.environ.get(runtime.WHEEL_VARIABLE)
    return Path(local) if local else fetched / runtime.WHEEL


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(runtime.CACHE_VARIABLE, str(tmp_path))
    return tmp_path / f"procgen-{runtime.VERSION}"


def test_library_and_assets_come_from_the_pinned_wheel(fetched: Path, wheel: Path) -> None:
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == runtime.WHEEL_SHA256
    library = fetched / "lib" / "libenv.so"
    assert library.is_file()
    assets = list((fetched / "lib" / "assets").rglob("*.png"))
    assert len(assets) > 1000  # 1,288 PNGs, some with spaces in their names
    # gym3's libenv C API, loadable here (no Qt, X11 or GL needed from the system)
    loaded = ctypes.CDLL(str(library))
    for symbol in ("libenv_make", "libenv_set_buffers", "libenv_act", "libenv_observe"):
        assert hasattr(loaded, symbol), symbol


def test_a_local_wheel_is_used_offline(
    wheel: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(runtime.WHEEL_VARIABLE, str(wheel))
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/")  # any download would fail
    library = runtime.library()
    assert library == cache / "lib" / "libenv.so"
    assert runtime.resource_root() == str(cache / "lib" / "assets") + os.sep
    assert not (cache / runtime.WHEEL).exists()  # the local copy is not duplicated


def test_a_damaged_library_is_unpacked_again(
    wheel: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(runtime.WHEEL_VARIABLE, str(wheel))
    library = runtime.library()
    good = library.read_bytes()
    library.write_bytes(good[: len(good) // 2])  # a truncated copy
    assert runtime.library().read_bytes() == good
    library.unlink()
    assert runtime.library().read_bytes() == good


def test_a_missing_or_damaged_asset_is_unpacked_again(
    wheel: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """procgen's library ends the process when one of its images is missing, so a
    damaged assets folder must never reach it."""
    monkeypatch.setenv(runtime.WHEEL_VARIABLE, str(wheel))
    assets = runtime.library().parent / "assets"
    image = sorted(assets.rglob("*.png"))[0]
    good = image.read_bytes()
    image.unlink()
    runtime.library()
    assert image.read_bytes() == good
    image.write_bytes(good[:100])
    runtime.library()
    assert image.read_bytes() == good


def test_a_wrong_or_missing_wheel_is_refused(
    wheel: Path, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    damaged = tmp_path / runtime.WHEEL
    damaged.write_bytes(wheel.read_bytes()[:-100])
    monkeypatch.setenv(runtime.WHEEL_VARIABLE, str(damaged))
    with pytest.raises(runtime.ProcgenUnavailableError, match=runtime.WHEEL_SHA256):
        runtime.library()
    assert not (cache / "lib").exists()
    monkeypatch.setenv(runtime.WHEEL_VARIABLE, str(tmp_path / "nowhere.whl"))
    with pytest.raises(runtime.ProcgenUnavailableError, match="is not a file"):
        runtime.library()


def test_a_failed_download_says_how_to_work_offline(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(runtime.WHEEL_VARIABLE, raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("PIP_FIND_LINKS", "")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "2")
    with pytest.raises(runtime.ProcgenUnavailableError) as raised:
        runtime.library()
    assert "could not download" in str(raised.value)
    assert runtime.WHEEL_VARIABLE in str(raised.value)


def test_other_platforms_get_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime.platform, "machine", lambda: "aarch64")
    with pytest.raises(runtime.ProcgenUnavailableError, match="x86-64"):
        runtime.library()
    monkeypatch.undo()
    monkeypatch.setattr(runtime, "_has_avx", lambda: False)
    with pytest.raises(runtime.ProcgenUnavailableError, match="AVX"):
        runtime.library()


def test_processes_racing_to_unpack_share_one_copy(
    wheel: Path, cache: Path, tmp_path: Path
) -> None:
    env = {**os.environ, runtime.WHEEL_VARIABLE: str(wheel)}
    env[runtime.CACHE_VARIABLE] = str(cache.parent)
    code = "from envpool import procgen_runtime as r; print(r.library())"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, cwd=tmp_path, text=True
        )
        for _ in range(3)
    ]
    outputs = {p.communicate(timeout=120)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert outputs == {str(cache / "lib" / "libenv.so")}
    assert sorted(p.name for p in cache.iterdir()) == ["lib"]  # no staging folder left
