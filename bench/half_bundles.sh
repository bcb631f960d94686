#!/usr/bin/env bash
#===- bench/half_bundles.sh - the example graphs stored in bf16 and fp16 -===#
#
# Usage: bench/half_bundles.sh [OUT_DIR] [fusecc options...]
#
# Writes every examples/*.mlir graph with its tensors stored in bf16 and in
# f16 (what `model.to(torch.bfloat16)` / `model.half()` give a PyTorch
# user: inputs, weights, norm parameters and results all in the half type)
# to OUT_DIR/graphs/<name>.<bf16|f16>.mlir, compiles each with
# --chip=sm_90a (the convolution's math follows the storage type; extra
# options are passed to fusecc) into OUT_DIR/<name>.<bf16|f16>.fcb, and
# checks its PTX with ptxas when the CUDA toolkit is present. Default
# OUT_DIR: out/half. Then, on a GPU machine: bench/gpu_check.sh OUT_DIR
# (eager and torch.compile run in the bundle's dtype).
#
#===----------------------------------------------------------------------===#
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="$(realpath -m "${1:-out/half}")"
[[ $# -gt 0 ]] && shift
source bench/compile_checked.sh
mkdir -p "$out/graphs"
compiled=0
for graph in examples/*.mlir; do
  name="$(basename "$graph" .mlir)"
  for type in bf16 f16; do
    half="$out/graphs/$name.$type.mlir"
    # Every f32 tensor type becomes the half type (ranked and 0-d).
    python3 bench/half_graphs.py "$type" "$graph" "$half"
    compile_checked "$half" "$out/$name.$type.fcb" --chip=sm_90a "$@"
    compiled=$((compiled + 1))
  done
done
echo "half_bundles.sh: compiled $compiled bundles into $out" \
  "$([[ -n "$ptxas" ]] && echo '(ptxas accepted every PTX)')"
