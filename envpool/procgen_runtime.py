"""procgen's game library, fetched from procgen's own published wheel on first use.

procgen 0.10.7 (its last release) ships wheels for CPython up to 3.10 and no sdist, but
its game library is independent of Python: ``procgen/data/prebuilt/libenv.so`` (gym3's
``libenv.h`` C API, Qt linked statically) and its assets (``procgen/data/assets/``).
This module takes exactly those two from the pinned wheel, checked by sha256, into a
per-user cache, so that the Procgen tasks run on every Python envpool supports.
Nothing of procgen is committed to envpool or shipped in its wheel (NOTICE).

    ENVPOOL_PROCGEN_WHEEL  a local copy of the pinned wheel (offline machines, CI);
                           otherwise pip downloads it (``pip download --no-deps``).
    ENVPOOL_CACHE_DIR      where it is unpacked (default ``$XDG_CACHE_HOME/envpool``,
                           else ``~/.cache/envpool``), in ``procgen-<version>/``.

The library needs Linux on x86-64 with AVX (the wheel is compiled for Ivy Bridge);
elsewhere, or when the wheel cannot be had, ``library()`` raises
``ProcgenUnavailableError`` naming the cause and the fix, and the rest of envpool is
unaffected.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

VERSION = "0.10.7"
WHEEL = f"procgen-{VERSION}-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
WHEEL_SHA256 = "4b594d14e42f0f2166e59a9e294477b906eb99c90c3343b570b7124cbc865f53"
WHEEL_VARIABLE = "ENVPOOL_PROCGEN_WHEEL"
CACHE_VARIABLE = "ENVPOOL_CACHE_DIR"

_LIBRARY = "procgen/data/prebuilt/libenv.so"
_ASSETS = "procgen/data/assets/"
# Written last into a complete cache folder: _fingerprint() of what was unpacked.
_COMPLETE = "complete"


class ProcgenUnavailableError(RuntimeError):
    """procgen's game library cannot be had here; the message says why and what to do."""


def cache_dir() -> Path:
    """The folder procgen's library is unpacked into (created on first use)."""
    root = os.environ.get(CACHE_VARIABLE)
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "envpool")
    return Path(root) / f"procgen-{VERSION}"


def check_platform() -> None:
    """Raises ProcgenUnavailableError unless this is Linux on x86-64 with AVX."""
    machine = platform.machine().lower()
    if sys.platform != "linux" or machine not in ("x86_64", "amd64"):
        raise ProcgenUnavailableError(
            f"the Procgen tasks need Linux on x86-64: procgen {VERSION}'s game library is "
            f"published for manylinux2014_x86_64 only, and this is {sys.platform} on "
            f"{platform.machine()}"
        )
    if not _has_avx():
        raise ProcgenUnavailableError(
            f"the Procgen tasks need a CPU with AVX: procgen {VERSION}'s game library is "
            "compiled for Ivy Bridge (-march=ivybridge), and this CPU lacks AVX"
        )


def _has_avx() -> bool:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return "avx" in line.split(":", 1)[1].split()
    except OSError:
        pass
    return False


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def library() -> Path:
    """The path of procgen's ``libenv.so``, its assets in ``assets/`` beside it: fetched,
    checked and unpacked the first time, checked again on every later call."""
    check_platform()
    folder = cache_dir()
    found = _complete(folder)
    if found is not None:
        return found
    wheel = _wheel(folder)
    _unpack(wheel, folder)
    found = _complete(folder)
    if found is None:  # pragma: no cover - _unpack either completes the folder or raises
        raise ProcgenUnavailableError(f"could not unpack procgen's library into {folder}")
    return found


def _complete(folder: Path) -> Path | None:
    """The library in ``folder`` if the folder is complete and unchanged (the library's
    sha256 and the assets' count and total size as recorded when it was unpacked); a
    damaged folder is removed (its wheel kept), so that it is unpacked again. procgen's
    library ends the process when an image it loads is missing, so the assets are
    checked too."""
    marker = folder / "lib" / _COMPLETE
    library_path = folder / "lib" / "libenv.so"
    if not marker.is_file():
        return None
    if library_path.is_file() and marker.read_text().split() == _fingerprint(folder / "lib"):
        return library_path
    shutil.rmtree(folder / "lib", ignore_errors=True)
    return None


def _fingerprint(lib: Path) -> list[str]:
    """The library's sha256, the number of asset files and their total size."""
    sizes = [entry.stat().st_size for entry in (lib / "assets").rglob("*") if entry.is_file()]
    return [_sha256(lib / "libenv.so"), str(len(sizes)), str(sum(sizes))]


def wheel() -> Path:
    """The pinned wheel itself, checked (ENVPOOL_PROCGEN_WHEEL's, the cached one, or
    downloaded into the cache): what procgen's own Python can be unpacked from."""
    check_platform()
    return _wheel(cache_dir())


def _wheel(folder: Path) -> Path:
    """The pinned wheel, checked: ENVPOOL_PROCGEN_WHEEL's, the cached one, or downloaded."""
    local = os.environ.get(WHEEL_VARIABLE)
    if local:
        path = Path(local)
        if not path.is_file():
            raise ProcgenUnavailableError(
                f"{WHEEL_VARIABLE}={local} is not a file; point it at procgen {VERSION}'s "
                f"wheel {WHEEL} (sha256 {WHEEL_SHA256}), or unset it to download that wheel"
            )
        _check_hash(path, f"{WHEEL_VARIABLE}={local}")
        return path
    cached = folder / WHEEL
    if cached.is_file():
        if _sha256(cached) == WHEEL_SHA256:
            return cached
        cached.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as download:
        command = [sys.executable, "-m", "pip", "download", f"procgen=={VERSION}", "--no-deps"]
        command += ["--only-binary=:all:", "--python-version", "3.10", "--implementation"]
        command += ["cp", "--platform", "manylinux2014_x86_64", "--disable-pip-version-check"]
        command += ["-q", "-d", download]
        done = subprocess.run(command, capture_output=True, text=True)
        fetched = Path(download) / WHEEL
        if done.returncode != 0 or not fetched.is_file():
            raise ProcgenUnavailableError(
                f"could not download procgen {VERSION}'s wheel with pip "
                f"({' '.join(command[2:])}):\n{done.stderr.strip()[-2000:]}\n"
                f"On a machine without access to the package index, download {WHEEL} "
                f"elsewhere and set {WHEEL_VARIABLE} to its path."
            )
        _check_hash(fetched, "the downloaded wheel")
        os.replace(fetched, cached)
    return cached


def _check_hash(path: Path, what: str) -> None:
    found = _sha256(path)
    if found != WHEEL_SHA256:
        raise ProcgenUnavailableError(
            f"{what} ({path}) has sha256 {found}, not {WHEEL_SHA256} (procgen {VERSION}'s "
            f"{WHEEL}): it is another file or a damaged download; replace it"
        )


def _unpack(wheel: Path, folder: Path) -> None:
    """Unpacks the library and the assets into ``folder/lib``, atomically: into a
    temporary folder first, renamed into place (a process that loses the race to
    another keeps the other's copy)."""
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="unpack-", dir=folder))
    try:
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.infolist():
                name = member.filename
                if name == _LIBRARY:
                    target = staging / "libenv.so"
                elif name.startswith(_ASSETS) and not member.is_dir():
                    target = staging / "assets" / name[len(_ASSETS) :]
                else:
                    continue
                if ".." in Path(name).parts:
                    raise ProcgenUnavailableError(f"{wheel} holds an unsafe path {name!r}")
                target.parent.mkdir(parents=True, exist_ok=True)
                with archive.open(member) as source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
        if not (staging / "libenv.so").is_file() or not (staging / "assets").is_dir():
            raise ProcgenUnavailableError(f"{wheel} lacks {_LIBRARY} or {_ASSETS}")
        (staging / _COMPLETE).write_text(" ".join(_fingerprint(staging)))
        try:
            os.rename(staging, folder / "lib")
        except OSError:  # another process unpacked it first
            if _complete(folder) is None:
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def resource_root(library_path: Path | None = None) -> str:
    """The assets folder beside ``library_path`` (default: ``library()``), with the
    trailing separator procgen's ``resource_root`` needs."""
    return str((library_path or library()).parent / "assets") + os.sep
