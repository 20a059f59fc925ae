"""Cuts the peers' wheels down to what benchmarks/device_check.sh uses, so that they fit
the device machine's 64 MiB of carried files (device_check.sh --prepare runs this):

- mujoco: only ``libmujoco.so.*`` and the dist-info (envpool loads the library; the
  Python bindings are not needed);
- the original EnvPool: only the families the checks compare (atari, classic_control,
  mujoco's gym tasks), its ``entry.py`` trimmed to register just those;
- envpool_assets (the original EnvPool's data): only the Atari ROMs and the gym XMLs.

    python benchmarks/slim_wheels.py WHEEL...   # rewrites each wheel it knows in place
"""

from __future__ import annotations

import os
import sys
import tempfile
import zipfile
from collections.abc import Callable

ORIGINAL_FAMILIES = (b".atari.", b".classic_control.", b".mujoco.gym.")
ORIGINAL_DROPPED = (
    "box2d",
    "gfootball",
    "highway",
    "jumanji",
    "minigrid",
    "pgx",
    "procgen",
    "toy_text",
    "vizdoom",
    "mujoco/dmc",
    "mujoco/metaworld",
    "mujoco/myosuite",
    "mujoco/playground",
    "mujoco/robotics",
    "mujoco/mujoco_dmc_envpool",
    "mujoco/myosuite_envpool",
    "mujoco/playground_envpool",
    "mujoco/robotics_envpool",
)


def _keep_mujoco(name: str) -> bool:
    return name.startswith("mujoco-") or name.startswith("mujoco/libmujoco.so")


def _keep_original(name: str) -> bool:
    return not any(name.startswith(f"envpool/{family}") for family in ORIGINAL_DROPPED)


def _keep_assets(name: str) -> bool:
    parts = name.split("/")
    return (
        name.startswith("envpool_assets-")
        or len(parts) == 2
        or name.startswith(("envpool_assets/atari/", "envpool_assets/mujoco/assets_gym/"))
        or (name.startswith("envpool_assets/mujoco/") and len(parts) == 3)
    )


def _trim_entry(data: bytes) -> bytes:
    """The original EnvPool's entry.py, importing only the kept families' registrations."""
    lines = data.splitlines()
    kept = [
        line
        for line in lines
        if not line.startswith(b"import envpool.") or any(f in line for f in ORIGINAL_FAMILIES)
    ]
    return b"".join(line + b"\n" for line in kept)


def _rule(wheel: str) -> Callable[[str], bool] | None:
    name = os.path.basename(wheel)
    if name.startswith("mujoco-"):
        return _keep_mujoco
    if name.startswith("envpool-1."):
        return _keep_original
    if name.startswith("envpool_assets-"):
        return _keep_assets
    return None


def slim(wheel: str) -> None:
    keep = _rule(wheel)
    if keep is None:
        return
    with zipfile.ZipFile(wheel) as source:
        names = [info.filename for info in source.infolist() if keep(info.filename)]
        fd, temporary = tempfile.mkstemp(suffix=".whl", dir=os.path.dirname(wheel) or ".")
        os.close(fd)
        with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as out:
            for name in names:
                data = source.read(name)
                if name.endswith(".dist-info/RECORD"):
                    rows = [r for r in data.decode().splitlines() if r.split(",")[0] in names]
                    data = ("\n".join(rows) + "\n").encode()
                elif name == "envpool/entry.py":
                    data = _trim_entry(data)
                out.writestr(source.getinfo(name), data)
    before = os.path.getsize(wheel)
    os.replace(temporary, wheel)
    print(f"{os.path.basename(wheel)}: {before:,} -> {os.path.getsize(wheel):,} bytes")


if __name__ == "__main__":
    for path in sys.argv[1:]:
        slim(path)
