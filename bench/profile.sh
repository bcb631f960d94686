#!/usr/bin/env bash
#===- bench/profile.sh - Nsight Compute report of fusecc kernels ---------===#
#
# Usage: bench/profile.sh PATTERN... (bundle file substrings, e.g. kb2_34.tf32)
#
# Builds the runtime like gpu_check.sh, then runs each matching bundle once
# under ncu (first fusecc kernel launch only) with the speed-of-light,
# occupancy, launch, warp-state and memory sections. Full reports go to
# $OUT (or out/profile), a summary of key metrics to stdout.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$repo/out/profile}"
mkdir -p "$out"
build="${BUILD_DIR:-$repo/build-rt}"
cmake -S "$repo/runtime" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target fusecc_runtime_shared >/dev/null
for pattern in "$@"; do
  report="$out/ncu_${pattern//[^A-Za-z0-9_.-]/_}.txt"
  ncu --kernel-name regex:'_k[0-9]+$' --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section ComputeWorkloadAnalysis \
    python3 "$repo/bench/gpu_check.py" --bundles "$repo/out/bundles" \
    --lib "$build/libfusecc_runtime.so" --filter "$pattern" --no-time \
    --no-compile --out "$out/profile-check" >"$report" 2>&1 || true
  echo "== $pattern"
  grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc|Dynamic Shared" "$report" | sed 's/^ *//' | head -40
  grep -E "^ *(OPT|WRN)" -A2 "$report" | head -30
done
