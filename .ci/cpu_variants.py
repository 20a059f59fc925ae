"""Runs the tests marked cpu_sensitive again as if on older CPUs (CI's cpu-variants step).

numpy, OpenBLAS and glibc's libm each choose their kernels by the CPU they find, and
their results differ in the last bit from one choice to the next: numpy its SIMD loops
(exp, log, tanh, ... on AVX2 or AVX-512), OpenBLAS its kernel set (ddot, dgemv and dgemm
round differently on SkylakeX, Haswell and Prescott kernels), glibc the FMA or the SSE2
variant of exp, log, sin, pow, atan, ... An env that reproduces its reference only on
the CPU it was written on fails on a user's. Each profile below turns all three down to
an older CPU's choice, checks in a probe process that they took it, and runs the tests
(docs/design.md, "Arithmetic that depends on the CPU"). A profile that the host cannot
run (it lacks the kernels' instructions) or that is the host itself is left out.

Usage: python .ci/cpu_variants.py [--profile NAME ...] [--list] [PYTEST_ARG ...]
Run it with the test venv's python; pytest runs from a temporary folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LD_SO = "/lib64/ld-linux-x86-64.so.2"


@dataclasses.dataclass(frozen=True)
class Profile:
    """An older CPU, as numpy, OpenBLAS and glibc would see it."""

    description: str
    host_needs: frozenset[str]  # /proc/cpuinfo flags the kernels below execute
    imitates_host_without: str  # a host lacking this flag already is this profile
    openblas: str  # OPENBLAS_CORETYPE
    openblas_reports: tuple[str, ...]  # the kernel set's names, as OpenBLAS gives them
    numpy_keeps: frozenset[str]  # numpy dispatch targets left on (and every SSE*)
    glibc_off: tuple[str, ...]  # glibc.cpu.hwcaps features turned off
    # (cpuid leaf index, register, bit) in ld.so's diagnostics that must read 0
    glibc_bits_off: tuple[tuple[int, int, int], ...]


PROFILES = {
    "avx2": Profile(
        description="AVX2 and FMA, no AVX-512 (Haswell to Comet Lake, Zen 1-3)",
        host_needs=frozenset({"avx2", "fma"}),
        imitates_host_without="avx512f",
        openblas="Haswell",
        openblas_reports=("Haswell",),
        # numpy 2.4's names and the older ones
        numpy_keeps=frozenset({"X86_V2", "X86_V3", "AVX", "F16C", "FMA3", "AVX2"}),
        glibc_off=("AVX512F", "AVX512CD", "AVX512BW", "AVX512DQ", "AVX512VL"),
        glibc_bits_off=((1, 1, 16),),  # cpuid 7 ebx: AVX512F
    ),
    "sse": Profile(
        description=(
            "x86-64 without AVX, or one OpenBLAS does not know (QEMU's qemu64): numpy's"
            " baseline loops, OpenBLAS's generic SSE2 kernels, libm's SSE2 variants"
        ),
        host_needs=frozenset(),
        imitates_host_without="avx",
        openblas="Prescott",
        openblas_reports=("Prescott", "Katmai"),  # scipy-openblas names it Katmai
        numpy_keeps=frozenset({"X86_V2"}),
        glibc_off=("AVX", "AVX2", "FMA", "FMA4", "AVX512F"),
        glibc_bits_off=((0, 2, 12), (0, 2, 28)),  # cpuid 1 ecx: FMA, AVX
    ),
}

# Run in a probe process under a profile's environment: what numpy, OpenBLAS and
# ld.so report there.
_PROBE = r"""
import ctypes, json, os, subprocess, sys
import numpy as np
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
maps = [line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.lower()]
corename = None
for path in sorted(set(maps)):
    lib = ctypes.CDLL(path)
    for name in ("scipy_openblas_get_corename64_", "openblas_get_corename64_",
                 "openblas_get_corename"):
        function = getattr(lib, name, None)
        if function is not None:
            function.restype = ctypes.c_char_p
            corename = function().decode()
            break
try:
    diagnostics = subprocess.run([sys.argv[1], "--list-diagnostics"], capture_output=True,
                                 text=True, check=True).stdout
except (OSError, subprocess.CalledProcessError):
    diagnostics = ""
print(json.dumps({
    "numpy_on": [t for t in __cpu_dispatch__ if __cpu_features__.get(t)],
    "openblas": corename,
    "ld_so": diagnostics,
}))
"""


def host_flags() -> set[str]:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def numpy_targets() -> list[str]:
    probe = "from numpy._core._multiarray_umath import __cpu_dispatch__ as d; print(' '.join(d))"
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return found.stdout.split()


def keeps(profile: Profile, target: str) -> bool:
    return target in profile.numpy_keeps or target.startswith("SSE")


def environment(profile: Profile, targets: list[str]) -> dict[str, str]:
    off = [t for t in targets if not keeps(profile, t)]
    return {
        "OPENBLAS_CORETYPE": profile.openblas,
        "NPY_DISABLE_CPU_FEATURES": " ".join(off),
        "GLIBC_TUNABLES": "glibc.cpu.hwcaps=" + ",".join(f"-{f}" for f in profile.glibc_off),
    }


def glibc_bit(diagnostics: str, leaf: int, register: int, bit: int) -> int | None:
    key = f"x86.cpu_features.features[{leaf:#x}].active[{register:#x}]="
    for line in diagnostics.splitlines():
        if line.startswith(key):
            return (int(line[len(key) :], 16) >> bit) & 1
    return None


def check_imitation(name: str, profile: Profile, env: dict[str, str]) -> list[str]:
    """What under `env` is not as the profile says (empty when all is)."""
    probe = subprocess.run(
        [sys.executable, "-c", _PROBE, LD_SO],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return [f"the probe failed:\n{probe.stderr}"]
    found = json.loads(probe.stdout)
    problems = []
    on = [t for t in found["numpy_on"] if not keeps(profile, t)]
    if on:
        problems.append(f"numpy still dispatches to {on}")
    if found["openblas"] not in profile.openblas_reports:
        problems.append(f"OpenBLAS runs {found['openblas']!r} kernels, not {profile.openblas!r}")
    if found["ld_so"]:
        for leaf, register, bit in profile.glibc_bits_off:
            if glibc_bit(found["ld_so"], leaf, register, bit) != 0:
                problems.append(f"glibc still uses cpuid feature ({leaf}, {register}, {bit})")
    else:
        print(f"cpu-variants: {name}: {LD_SO} --list-diagnostics unavailable; libm not checked")
    print(f"cpu-variants: {name}: numpy {found['numpy_on']}, OpenBLAS {found['openblas']}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="append", choices=sorted(PROFILES))
    parser.add_argument("--list", action="store_true", help="print the profiles and exit")
    args, pytest_args = parser.parse_known_args()
    if args.list:
        for name, profile in PROFILES.items():
            print(f"{name}: {profile.description}")
        return 0
    flags = host_flags()
    if "lm" not in flags:  # not x86-64: none of these kernels exist
        print("cpu-variants: not an x86-64 host; nothing to imitate")
        return 0
    targets = numpy_targets()
    results = []
    for name in args.profile or list(PROFILES):
        profile = PROFILES[name]
        if not profile.host_needs <= flags:
            lacks = sorted(profile.host_needs - flags)
            print(f"cpu-variants: {name}: skipped, the host lacks {lacks}")
            continue
        if profile.imitates_host_without not in flags and not args.profile:
            print(f"cpu-variants: {name}: skipped, the host is such a CPU (the tests step ran it)")
            continue
        env = environment(profile, targets)
        problems = check_imitation(name, profile, env)
        if problems:
            print(f"cpu-variants: {name}: could not imitate the CPU: " + "; ".join(problems))
            return 1
        print(f"\n==> cpu-variants: {name} ({profile.description})", flush=True)
        print("    " + " ".join(f"{k}={v!r}" for k, v in env.items()), flush=True)
        start = time.monotonic()
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["-m", "cpu_sensitive", *pytest_args, str(ROOT / "tests")]
        with tempfile.TemporaryDirectory() as folder:
            rc = subprocess.run(command, cwd=folder, env={**os.environ, **env}).returncode
        results.append((name, rc, time.monotonic() - start))
    for name, rc, seconds in results:
        print(f"cpu-variants: {name}: {'passed' if rc == 0 else 'FAILED'} in {seconds:.0f} s")
    return max((rc for _, rc, _ in results), default=0)


if __name__ == "__main__":
    sys.exit(main())
