#!/usr/bin/env bash
#===- examples/run.sh - the main job -------------------------------------===#
#
# Installs what is missing, builds fusecc, compiles every example graph (the
# decoders of examples/models/mlir/decoders.py and the small awkward-shape
# variants of bench/make_variants.py too) to PTX bundles
# in out/bundles/<graph>.<precision>.fcb for both precision modes, and checks
# PTX with ptxas when the CUDA toolkit is present. On a machine with an
# NVIDIA GPU it then builds the runtime and runs bench/gpu_check.sh, which
# checks every bundle against PyTorch and times it (needs PyTorch).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
if [[ "${FUSECC_SKIP_BUILD:-0}" != 1 ]]; then
  bash .ci/build.sh
fi
fusecc="$repo/build/bin/fusecc"
# The device is an H200: its facts size the kernels (docs/design/target.md),
# and fusecc takes its tile choices from tuning/h200.json (bench/tune.py;
# docs/perf.md), whose kernels without an H200 measurement take
# tuning/h100.json's; kernels neither lists keep the cost model's tiling.
# Without tuning/h200.json, tuning/h100.json is passed as before.
device=(--device=h200)
if [[ -f "$repo/tuning/h200.json" ]]; then
  tuning=(--tuning="$repo/tuning")
else
  tuning=(--tuning="$repo/tuning/h100.json")
fi
# sm_90a: Hopper's warpgroup MMA (wgmma) for tf32 kernels where it fits.
chip=(--chip=sm_90a)
target=("${chip[@]}" "${device[@]}" "${tuning[@]}")
mkdir -p out/bundles out/variants out/decoders
python3 bench/make_variants.py out/variants >/dev/null
# Whole decoders (U-Net, heatmap head, VAE up block, residual block).
python3 examples/models/mlir/decoders.py out/decoders
ptxas="$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)"
count=0
for graph in examples/*.mlir out/decoders/*.mlir out/variants/*.mlir; do
  name="$(basename "$graph" .mlir)"
  for precision in ieee tf32; do
    bundle="out/bundles/$name.$precision.fcb"
    "$fusecc" "$graph" --precision="$precision" "${target[@]}" -o "$bundle"
    if [[ -x "$ptxas" ]]; then
      "$fusecc" "$graph" --precision="$precision" "${target[@]}" --emit=ptx \
        -o "out/$name.$precision.ptx"
      "$ptxas" -arch=sm_90a "out/$name.$precision.ptx" -o /dev/null
    fi
    count=$((count + 1))
  done
done
echo "examples/run.sh: compiled $count bundles into out/bundles" \
  "$([[ -x "$ptxas" ]] && echo '(ptxas accepted every PTX)')"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  bash bench/gpu_check.sh out/bundles "$@"
else
  echo "examples/run.sh: no NVIDIA GPU here; skipping the on-GPU check"
fi
