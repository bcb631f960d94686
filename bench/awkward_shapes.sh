#!/usr/bin/env bash
#===- bench/awkward_shapes.sh - every workload at small awkward shapes ---===#
#
# Usage: bench/awkward_shapes.sh [OUT_DIR]   (default out/awkward)
#
# Writes the fuse graphs of all workloads of ../shared/workloads/
# workloads.json at three small awkward shapes (bench/workload_graphs.py
# --small --small-shape B,CIN,COUT,S):
#   1,5,7,5   batch 1, 5 -> 7 channels per group, spatial from 5;
#   3,7,13,7  batch 3, 7 -> 13 channels, spatial from 7;
#   3,3,5,1   batch 3, 3 -> 5 channels, spatial from 1 (the smallest sizes
#             whose windows fit);
# and compiles each in both precision modes for sm_90a with the tuning
# file, as examples/run.sh compiles the examples, into
# OUT_DIR/<workload>.<shape>.<ieee|tf32>.fcb (ptxas checks each PTX where
# the CUDA toolkit is present). On the GPU machine,
# `bench/gpu_check.sh OUT_DIR --no-time` then checks every bundle against
# PyTorch in float64 (issue 15's criterion 3; docs/perf.md sections 92,
# 149).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="$(realpath -m "${1:-out/awkward}")"
source bench/compile_checked.sh
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
mkdir -p "$out"
count=0
for shape in 1,5,7,5 3,7,13,7 3,3,5,1; do
  tag="${shape//,/_}"
  python3 bench/workload_graphs.py "$graphs/$tag" --small --small-shape "$shape" >/dev/null
  for graph in "$graphs/$tag"/*.mlir; do
    name="$(basename "$graph" .mlir)"
    name="${name%_small}"
    for precision in ieee tf32; do
      compile_checked "$graph" "$out/$name.s$tag.$precision.fcb" \
        --precision="$precision" --chip=sm_90a --tuning="$repo/tuning/h100.json"
      count=$((count + 1))
    done
  done
done
echo "awkward_shapes.sh: compiled $count bundles into $out" \
  "$([[ -n "$ptxas" ]] && echo '(ptxas accepted every PTX)')"
