#!/usr/bin/env bash
#===- bench/gpu_check.sh - Build the runtime and check bundles on a GPU ---===#
#
# Usage: bench/gpu_check.sh [BUNDLE_DIR] [gpu_check.py options...]
#
# Builds the standalone runtime (runtime/, cuda.h only, no MLIR) into
# $BUILD_DIR (default build-rt), then runs bench/gpu_check.py on every *.fcb
# in BUNDLE_DIR (default out/bundles). Writes perf_table.md and
# gpu_check.json to $OUT when it is set. Exits with gpu_check.py's status.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bundles="$repo/out/bundles"
if [[ $# -gt 0 && "$1" != -* ]]; then
  bundles="$(realpath -m "$1")"
  shift
fi
build="${BUILD_DIR:-$repo/build-rt}"
python="${PYTHON:-python3}"

source "$repo/bench/runtime_build.sh"
build_runtime "$build" fusecc-run || exit 1
lib="$build/libfusecc_runtime.so"

cd "$repo"
exec "$python" "$repo/bench/gpu_check.py" --bundles "$bundles" --lib "$lib" "$@"
