#!/usr/bin/env bash
#===- bench/vocab_bundles.sh - random whole-vocabulary graphs as bundles ---===#
#
# Usage: bench/vocab_bundles.sh [OUT_DIR] [FIRST_SEED] [SEEDS] [PER_SEED]
#   (defaults: out/vocab, seed 1000, 5 seeds, 40 graphs per seed)
#
# Writes the random graphs of bench/vocab_graphs.py (the whole op
# vocabulary around a transposed convolution, small awkward shapes) for
# seeds FIRST_SEED.. and compiles each in both precision modes for sm_90a,
# as examples/run.sh compiles the examples, into
# OUT_DIR/<graph>.<ieee|tf32>.fcb (ptxas checks each PTX where the CUDA
# toolkit is present). On the GPU machine, `bench/gpu_check.sh OUT_DIR
# --no-time` checks every bundle against PyTorch in float64
# (docs/perf.md 151).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="$(realpath -m "${1:-out/vocab}")"
first="${2:-1000}" seeds="${3:-5}" per="${4:-40}"
source bench/compile_checked.sh
graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
mkdir -p "$out"
for ((seed = first; seed < first + seeds; ++seed)); do
  python3 bench/vocab_graphs.py --seed "$seed" --count "$per" --out "$graphs"
done
count=0
for graph in "$graphs"/*.mlir; do
  name="$(basename "$graph" .mlir)"
  for precision in ieee tf32; do
    compile_checked "$graph" "$out/$name.$precision.fcb" \
      --precision="$precision" --chip=sm_90a
    count=$((count + 1))
  done
done
echo "vocab_bundles.sh: compiled $count bundles into $out" \
  "$([[ -n "$ptxas" ]] && echo '(ptxas accepted every PTX)')"
