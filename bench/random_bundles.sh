#!/usr/bin/env bash
#===- bench/random_bundles.sh - issue 37's random-shape set as bundles ----===#
#
# Usage: bench/random_bundles.sh [OUT_DIR] [SEED] [COUNT] [fusecc options...]
#   (defaults: out/random, seed 37, 100 single layers; the generators and
#   decoders of bench/random_layers.py come on top)
#
# Writes the graphs of bench/random_layers.py and their manifest.json into
# OUT_DIR/graphs and compiles each in tf32 and ieee for sm_90a into
# OUT_DIR/<graph>.<tf32|ieee>.fcb (ptxas checks each PTX where the CUDA
# toolkit is present; bench/compile_checked.sh), with OUT_DIR/manifest.json
# next to them. A graph fusecc rejects or fails on is listed in
# OUT_DIR/failed.txt with its error, and the script goes on; it exits 1 if
# any failed. Extra options go to every fusecc call (e.g.
# --tuning=tuning/h200.json). On the GPU machine,
# `bench/gpu_check.sh OUT_DIR` then checks and times every bundle against
# PyTorch and torch.compile and prints issue 37's summary (fraction of
# graphs at >= 1.0x torch.compile, geomean, per family and split).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="$(realpath -m "${1:-out/random}")"
seed="${2:-37}" count="${3:-100}"
shift $(($# < 3 ? $# : 3))
source bench/compile_checked.sh
mkdir -p "$out/graphs"
python3 bench/random_layers.py --seed "$seed" --count "$count" \
  --out "$out/graphs"
cp "$out/graphs/manifest.json" "$out/manifest.json"
: >"$out/failed.txt"
compiled=0 failed=0
for graph in "$out"/graphs/*.mlir; do
  name="$(basename "$graph" .mlir)"
  for precision in tf32 ieee; do
    if log="$( (compile_checked "$graph" "$out/$name.$precision.fcb" \
      --precision="$precision" --chip=sm_90a "$@") 2>&1)"; then
      compiled=$((compiled + 1))
    else
      failed=$((failed + 1))
      rm -f "$out/$name.$precision.fcb"
      printf '%s %s\n%s\n\n' "$graph" "$precision" "$log" >>"$out/failed.txt"
    fi
  done
done
echo "random_bundles.sh: compiled $compiled bundles into $out" \
  "$([[ -n "$ptxas" ]] && echo '(ptxas accepted every PTX)')" \
  "$([[ $failed -gt 0 ]] && echo "; $failed failed: $out/failed.txt")"
[[ $failed -eq 0 ]]
