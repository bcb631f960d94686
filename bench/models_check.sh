#!/usr/bin/env bash
#===- bench/models_check.sh - torch.compile(backend="fusecc") on a GPU ---===#
#
# Usage: bench/models_check.sh [models_check.py options...]
#
# Builds the standalone runtime (runtime/, cuda.h only, no MLIR) into
# $BUILD_DIR (default build-rt) and runs bench/models_check.py with it:
# every model of examples/models/ through torch.compile(backend="fusecc"),
# Inductor and eager, checked against float64 and timed. The compiler is
# $FUSECC_BIN (or build/bin/fusecc); without one, the bundles must be in
# $FUSECC_CACHE_DIR already (models_check.py --precompile, with
# FUSECC_COMPILER_ID and FUSECC_TUNING_DIGEST set to what it printed).
# Writes models_check.md and models_check.json to $OUT when it is set.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-rt}"
python="${PYTHON:-python3}"
source "$repo/bench/runtime_build.sh"
build_runtime "$build" || exit 1
export FUSECC_RUNTIME_LIBRARY="$build/libfusecc_runtime.so"
cd "$repo"
exec "$python" "$repo/bench/models_check.py" "$@"
