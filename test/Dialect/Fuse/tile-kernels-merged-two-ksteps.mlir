// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// Session 44's rule (docs/perf.md 267, 296; chooseWgmmaConfig,
// lib/Codegen/Tiling/TileWgmma.cpp): merged H taps on a wgmma tile of
// N <= 32 take two k-steps a round (16 tf32 channels) where that keeps the
// blocks an SM. `--tile-rules=session42` keeps one k-step.

// decoder2d's second layer (48 -> 32, 4x4 at stride 2, 16x16 -> 32x32).
// CHECK-LABEL: fuse.kernel "twostep_k0"
// CHECK-SAME: ciChunk = 16, {{.*}}rows = 4, mergeHTaps = 1, wgmmaN = 16
// OLD-LABEL: fuse.kernel "twostep_k0"
// OLD-SAME: ciChunk = 8, {{.*}}rows = 4, mergeHTaps = 1, wgmmaN = 16
func.func @twostep(%x: tensor<16x48x16x16xf32>, %w: tensor<48x32x4x4xf32>, %b: tensor<32xf32>) -> tensor<16x32x32x32xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x48x16x16xf32>, tensor<48x32x4x4xf32>, tensor<32xf32>) -> tensor<16x32x32x32xf32>
  %1 = fuse.relu %0 : tensor<16x32x32x32xf32>
  return %1 : tensor<16x32x32x32xf32>
}
