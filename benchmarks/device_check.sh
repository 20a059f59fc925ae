#!/bin/bash
# The checks that need a many-core GPU machine (issue #30), in one run of under 8
# minutes, offline (about 10 with the machine's start). On that machine:
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
    -d "$wheels/original" envpool==1.2.5 "envpool-assets>=0.3,<0.4" optree packaging ||
    echo "no original EnvPool wheel for cp$version"
  # cut to what the checks use: the device machine takes 64 MiB of files
  python3 "$repo/benchmarks/slim_wheels.py" "$wheels"/*.whl "$wheels"/original/*.whl
  # the null-env benchmark's env (cpp/tests/fault_env.h), built here against that wheel
  # for PYTHON, as the machine has no compiler
  build=$(mktemp -d)
  "$python" -m venv "$build/venv" &&
    "$build/venv/bin/pip" install -q "$(ls "$wheels"/envpool-*.whl)" pybind11 cmake &&
    (cd "$build" && "$build/venv/bin/python" -c "import sys; sys.path.insert(0, '$repo/tests')
import fault_env, shutil
shutil.copytree(fault_env.build(), '$wheels/fault_env', dirs_exist_ok=True,
                ignore=shutil.ignore_patterns('CMake*', '*.cmake', 'Makefile', '*.ninja*'))") ||
    echo "the fault env module was not built: the engine part will be skipped"
  rm -rf "$build"
  du -sh "$wheels"
  exit 0
fi

wheels=$(cd "${1:?usage: device_check.sh WHEELS [OUT]}" && pwd)
out=${2:-device-check}
mkdir -p "$out"
out=$(cd "$out" && pwd)
python=${PYTHON:-python3}

# install_env DIR WHEEL...: DIR/bin/python is the machine's Python (its numpy, jax, torch,
# pytest) with the wheels unpacked into DIR/site on its PYTHONPATH: no venv or pip needed,
# and a machine whose Python is itself a venv keeps its packages.
install_env() {
  local dir=$1
  shift
  rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/site" || return 1
  "$python" - "$dir/site" "$@" <<'PY' || return 1
import sys, zipfile
for wheel in sys.argv[2:]:
    zipfile.ZipFile(wheel).extractall(sys.argv[1])
PY
  printf '#!/bin/sh\nPYTHONPATH="%s${PYTHONPATH:+:$PYTHONPATH}" exec "%s" "$@"\n' \
    "$dir/site" "$(command -v "$python")" >"$dir/bin/python"
  chmod +x "$dir/bin/python"
}

install_env "$out/venv" "$wheels"/*.whl || exit 1
peer=()
if ls "$wheels"/original/*.whl >/dev/null 2>&1; then
  install_env "$out/original" "$wheels"/original/*.whl $(ls "$wheels"/*.whl | grep -v '/envpool-') ||
    exit 1
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
cpus=$(nproc)
pytest_args=(-q -p no:cacheprovider -o addopts= -o cache_dir=/tmp/pytest-cache)
# 1. env.xla() on the GPU: the whole test files, ordering tests included, but for what a
#    bare machine lacks (DMC's models come from dm_control; the fault env needs a compiler)
part xla-tests 150 "$py" -m pytest "${pytest_args[@]}" "$repo/tests/test_xla.py" \
  "$repo/tests/test_xla_versions.py" -k "not CheetahRun and not env_exception"
# 2. the pool call on the launching thread (envpool 0.1's way) against the default, in stream
#    order (cpp/envpool/xla/gpu_handlers.h): the order tests and the per-call cost of each
ENVPOOL_XLA_GPU_HOST_CALL=thread part xla-thread 90 "$py" -m pytest "${pytest_args[@]}" \
  -k "rollout or separate or close or quiet" "$repo/tests/test_xla.py"
for host_call in thread stream; do
  ENVPOOL_XLA_GPU_HOST_CALL=$host_call part "call-$host_call" 60 "$py" \
    "$repo/benchmarks/bench_jax.py" --tasks CartPole-v1 Pong-v5 --workloads random \
    --variants xla env_only --num-envs 16 --num-threads 16 --seconds 1 --rounds 1
done
# 3. bench_jax on the GPU, 16 envs and 16 threads, against the Python loop
part bench-jax 150 "$py" "$repo/benchmarks/bench_jax.py" --num-envs 16 --num-threads 16 \
  --seconds 1 --rounds 1 --json "$out/bench_jax.json" "${peer[@]}"
# 4. the raw-ALE ceiling on 1 and every core, then scaling, 1 .. all CPUs, against ale-py
#    and the original EnvPool
part ceiling 40 "$py" "$repo/benchmarks/ale_ceiling.py" --processes 1 "$cpus" --seconds 2
part scaling 200 "$py" "$repo/benchmarks/device_scaling.py" --seconds 1.5 \
  --json "$out/scaling.json" "${peer[@]}"
# 5. the engine alone (a busy-wait env, no emulator) at 1 .. 16 threads: what scaling loses
#    to hand-offs and wake-ups, apart from the emulator's cache and memory effects
if [ -d "$wheels/fault_env" ]; then
  part engine 60 "$py" "$repo/benchmarks/bench_engine.py" --fault-module "$wheels/fault_env" \
    --threads 1 2 4 8 16 --work-us 50 --seconds 1 --rounds 1 --json "$out/engine.json"
fi

echo
tail -n 30 "$out/bench-jax.log" | sed -n '/^Summary/,$p'
for host_call in thread stream; do
  echo "pool call on the $host_call:"
  grep -E "^\| (CartPole|Pong)" "$out/call-$host_call.log" | head -n 4
done
echo
cat "$out/ceiling.log" | grep "^|"
sed -n '/^| task/,/^$/p' "$out/scaling.log"
[ -f "$out/engine.log" ] && grep "^|" "$out/engine.log"
tail -n 3 "$out/xla-tests.log" "$out/xla-thread.log"
