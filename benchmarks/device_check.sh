#!/bin/bash
# The checks that need a many-core GPU machine (issue #30), in one run of under 8
# minutes, offline. On that machine:
#
#   bash benchmarks/device_check.sh WHEELS [OUT]
#
# WHEELS holds the wheels to test, for the machine's Python: envpool's, and its
# peers' and their dependencies' that the machine's Python lacks (ale-py, gymnasium,
# farama-notifications, cloudpickle, dm-env, dm-tree, mujoco, ...), and optionally
# the original EnvPool's wheel in WHEELS/original/. The machine's own Python should
# already have numpy, jax (with its GPU plugin) and pytest. Make WHEELS here with
#
#   bash benchmarks/device_check.sh --prepare WHEELS [PYTHON]
#
# (envpool's wheel from .ci/build_release for PYTHON's version, the rest with pip
# download). Each part has its own time limit, so one that hangs cannot eat the
# others' time; every part's output goes to OUT (default device-check/) and the
# tables to the screen.
set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = "--prepare" ]; then
  wheels=${2:?usage: device_check.sh --prepare WHEELS [PYTHON]}
  python=${3:-python3.12}
  mkdir -p "$wheels/original"
  version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
  "$repo/.ci/build_release" --python "$(command -v "$python")" --out "$wheels" || exit 1
  pip download --only-binary=:all: --no-deps --python-version "$version" -d "$wheels" \
    ale-py==0.12.1 gymnasium==1.4.0 farama-notifications cloudpickle dm-env dm-tree \
    mujoco==3.17.0 absl-py attrs wrapt etils glfw pyopengl typing-extensions || exit 1
  pip download --only-binary=:all: --no-deps --python-version "$version" \
    -d "$wheels/original" envpool==1.2.5 || echo "no original EnvPool wheel for cp$version"
  exit 0
fi

wheels=$(cd "${1:?usage: device_check.sh WHEELS [OUT]}" && pwd)
out=${2:-device-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)
python=${PYTHON:-python3}

# envpool and its peers over the machine's own packages (numpy, jax, torch, pytest)
"$python" -m venv --system-site-packages "$out/venv"
"$out/venv/bin/pip" install -q --no-index --no-deps "$wheels"/*.whl || exit 1
peer=()
if ls "$wheels"/original/*.whl >/dev/null 2>&1; then
  "$python" -m venv --system-site-packages "$out/original"
  "$out/original/bin/pip" install -q --no-index --no-deps "$wheels"/original/*.whl \
    $(ls "$wheels"/*.whl | grep -v '/envpool-') || exit 1
  peer=(--peer-python "$out/original/bin/python")
fi
py="$out/venv/bin/python"
cd "$out" || exit 1  # never the checkout's uncompiled envpool/

part() {  # part NAME SECONDS COMMAND...: one timed part, its log in OUT/NAME.log
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout --kill-after=10 "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  printf '%-10s rc=%-3s %4ss  %s\n' "$name" "$rc" $((SECONDS - start)) "$out/$name.log" \
    | tee -a "$out/summary.txt"
}

"$py" -c 'import jax; print("jax", jax.__version__, jax.devices())' | tee "$out/summary.txt"
# 1. env.xla() on the GPU: the whole test file, ordering tests included
part xla-tests 150 "$py" -m pytest -q -p no:cacheprovider "$repo/tests/test_xla.py"
# 2. bench_jax on the GPU, 16 envs and 16 threads, against the Python loop
part bench-jax 120 "$py" "$repo/benchmarks/bench_jax.py" --num-envs 16 --num-threads 16 \
  --seconds 2 --rounds 1 --json "$out/bench_jax.json" "${peer[@]}"
# 3. scaling, 1 .. all CPUs, against ale-py and the original EnvPool
part scaling 240 "$py" "$repo/benchmarks/device_scaling.py" --seconds 2 \
  --json "$out/scaling.json" "${peer[@]}"

echo
tail -n 30 "$out/bench-jax.log" | sed -n '/^Summary/,$p'
echo
sed -n '/^| task/,/^$/p' "$out/scaling.log"
tail -n 3 "$out/xla-tests.log"
