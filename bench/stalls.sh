#!/usr/bin/env bash
#===- bench/stalls.sh - where the warps of fusecc kernels wait -----------===#
#
# Usage: [BUNDLES=DIR] bench/stalls.sh PATTERN... (bundle file substrings,
# e.g. kb2_34.tf32; bundles from DIR, default out/bundles)
#
# Builds the runtime like gpu_check.sh, then profiles the first fusecc kernel
# launch of each matching bundle with ncu and prints the executed
# instructions, the tensor-pipe utilisation and the average number of warps
# stalled on each reason per issued instruction (largest first): the
# numbers that say whether a kernel waits on barriers, memory, shared-memory
# pipes or issue. Raw reports go to $OUT (or out/profile).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$repo/out/profile}"
mkdir -p "$out"
build="${BUILD_DIR:-$repo/build-rt}"
cmake -S "$repo/runtime" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target fusecc_runtime_shared >/dev/null
reasons=(barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle
  wait not_selected selected lg_throttle dispatch_stall no_instruction
  tex_throttle membar branch_resolving drain imc_miss sleeping misc)
metrics="gpu__time_duration.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_tensor_op_hmma.sum"
metrics+=",sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
metrics+=",smsp__issue_active.avg.pct_of_peak_sustained_active"
metrics+=",sm__warps_active.avg.pct_of_peak_sustained_active"
metrics+=",smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
metrics+=",smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum"
metrics+=",l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,dram__bytes.sum"
for r in "${reasons[@]}"; do
  metrics+=",smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
done
for pattern in "$@"; do
  report="$out/stalls_${pattern//[^A-Za-z0-9_.-]/_}.txt"
  ncu --kernel-name regex:'_k[0-9]+$' --launch-count 1 --metrics "$metrics" \
    python3 "$repo/bench/gpu_check.py" --bundles "${BUNDLES:-$repo/out/bundles}" \
    --lib "$build/libfusecc_runtime.so" --filter "$pattern" --no-time \
    --no-compile --out "$out/stalls-check" >"$report" 2>&1 || true
  echo "== $pattern"
  grep -E "^ +(gpu__|smsp__inst|sm__|l1tex__|dram__|smsp__issue)" "$report" |
    sed 's/^ *//'
  grep -E "^ +smsp__average_warps_issue_stalled" "$report" | sed 's/^ *//' |
    sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' |
    sort -k3 -g -r | head -10
done
