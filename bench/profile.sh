#!/usr/bin/env bash
#===- bench/profile.sh - Nsight Compute report of fusecc kernels ---------===#
#
# Usage: [BUNDLES=DIR] bench/profile.sh [--stalls | --source] PATTERN...
#   PATTERN: bundle file substrings (e.g. kb2_34.tf32); bundles from DIR
#   (default out/bundles).
#
# Builds the runtime like gpu_check.sh, then runs each matching bundle once
# under ncu (first fusecc kernel launch only; the clocks are left as they
# are, --clock-control none). By default: the speed-of-light,
# occupancy, launch, warp-state and memory sections (registers, shared
# memory, achieved occupancy: the docs/perf.md table). With --stalls: the
# executed instructions by kind, tensor-pipe and issue utilisation, bank
# conflicts and the average number of warps stalled on each reason per
# issued instruction, largest first (whether a kernel waits on barriers,
# memory, shared-memory pipes or issue). With --source: the warp-state
# samples and executed instructions per SASS instruction, summed per
# barrier-delimited segment (bench/source_summary.py; the per-instruction
# CSV is kept). Full reports go to $OUT (or out/profile), a summary to
# stdout.
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-$repo/out/profile}"
bundles="${BUNDLES:-$repo/out/bundles}"
mkdir -p "$out"
stalls=0
source=0
if [[ "${1:-}" == --stalls ]]; then
  stalls=1
  shift
elif [[ "${1:-}" == --source ]]; then
  source=1
  shift
fi
build="${BUILD_DIR:-$repo/build-rt}"
source "$repo/bench/runtime_build.sh"
build_runtime "$build" || exit 1

if ((stalls)); then
  reasons=(barrier long_scoreboard short_scoreboard mio_throttle
    math_pipe_throttle wait not_selected selected lg_throttle dispatch_stall
    no_instruction tex_throttle membar branch_resolving drain imc_miss
    sleeping misc)
  metrics="gpu__time_duration.sum,smsp__inst_executed.sum"
  metrics+=",sm__inst_executed_pipe_tensor_op_hmma.sum"
  metrics+=",sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
  metrics+=",smsp__issue_active.avg.pct_of_peak_sustained_active"
  metrics+=",sm__warps_active.avg.pct_of_peak_sustained_active"
  metrics+=",smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
  metrics+=",smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum"
  metrics+=",l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,dram__bytes.sum"
  for r in "${reasons[@]}"; do
    metrics+=",smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio"
  done
  what=(--metrics "$metrics")
else
  what=(--section SpeedOfLight --section Occupancy --section LaunchStats
    --section WarpStateStats --section MemoryWorkloadAnalysis
    --section ComputeWorkloadAnalysis)
fi

if ((source)); then
  for pattern in "$@"; do
    name="$out/ncu_${pattern//[^A-Za-z0-9_.-]/_}_source"
    ncu --clock-control none --kernel-name regex:'_k[0-9]+$' --launch-count 1 \
      --section SourceCounters --section WarpStateStats -f -o "$name" \
      python3 "$repo/bench/gpu_check.py" --bundles "$bundles" \
      --lib "$build/libfusecc_runtime.so" --filter "$pattern" --no-time \
      --no-compile --out "$out/profile-check" >"$name.log" 2>&1 || true
    ncu -i "$name.ncu-rep" --page source --csv --print-source sass \
      >"$name.csv" 2>>"$name.log" || true
    echo "== $pattern"
    python3 "$repo/bench/source_summary.py" "$name.csv" || tail -5 "$name.log"
  done
  exit 0
fi

suffix=""
if ((stalls)); then suffix=_stalls; fi
for pattern in "$@"; do
  report="$out/ncu_${pattern//[^A-Za-z0-9_.-]/_}${suffix}.txt"
  ncu --clock-control none --kernel-name regex:'_k[0-9]+$' --launch-count 1 "${what[@]}" \
    python3 "$repo/bench/gpu_check.py" --bundles "$bundles" \
    --lib "$build/libfusecc_runtime.so" --filter "$pattern" --no-time \
    --no-compile --out "$out/profile-check" >"$report" 2>&1 || true
  echo "== $pattern"
  if ((stalls)); then
    grep -E "^ +(gpu__|smsp__inst|sm__|l1tex__|dram__|smsp__issue)" "$report" |
      sed 's/^ *//'
    grep -E "^ +smsp__average_warps_issue_stalled" "$report" | sed 's/^ *//' |
      sed 's/smsp__average_warps_issue_stalled_//; s/_per_issue_active.ratio//' |
      sort -k3 -g -r | head -10
  else
    grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Stall|Warp Cycles Per Issued|Issue Slots Busy|Executed Ipc|Dynamic Shared" "$report" | sed 's/^ *//' | head -40
    grep -E "^ *(OPT|WRN)" -A2 "$report" | head -30
  fi
done
