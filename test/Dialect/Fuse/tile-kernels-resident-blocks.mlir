// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// Session 43's rules (issue 37's held-out layers of seed 43, docs/perf.md
// 253; lib/Codegen/Tiling/TileMergedTaps.cpp): wgmma tiles merge their H
// taps where that costs no resident blocks; wgmma chunks of 8 and 2 rows
// of positions on M where more would leave fewer blocks on an SM than the
// register budget allows. `--tile-rules=session42` keeps the old choices.

// rand43_67's layer (256 -> 4 channels, 4 H taps a phase): merged, four
// blocks an SM either way.
// CHECK-LABEL: fuse.kernel "merge_k0"
// CHECK-SAME: ciChunk = 16, {{.*}}rows = 2, mergeHTaps = 1, wgmmaN = 32
// OLD-LABEL: fuse.kernel "merge_k0"
// OLD-NOT: mergeHTaps
// OLD: return
func.func @merge(%x: tensor<16x256x16x64x32xf32>, %w: tensor<256x4x5x4x1xf32>) -> tensor<16x4x20x61x94xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 3>, padding = array<i64: 0, 3, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<16x256x16x64x32xf32>, tensor<256x4x5x4x1xf32>) -> tensor<16x4x20x61x94xf32>
  return %0 : tensor<16x4x20x61x94xf32>
}

// rand43_34's layer (32 -> 512, 4 x 4 taps at stride 2, pooled and
// reduced): merged taps would leave 2 blocks an SM instead of 3: unmerged.
// CHECK-LABEL: fuse.kernel "merge_costs_blocks_k0"
// CHECK-NOT: mergeHTaps
// CHECK: return
func.func @merge_costs_blocks(%x: tensor<128x32x16x32xf32>, %w: tensor<32x512x4x4xf32>) -> tensor<128x512xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x32x16x32xf32>, tensor<32x512x4x4xf32>) -> tensor<128x512x32x64xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<128x512x32x64xf32> -> tensor<128x512x16x32xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<128x512x16x32xf32> -> tensor<128x512xf32>
  return %2 : tensor<128x512xf32>
}

// rand43_66's layer (1-D 96 -> 96, 8 taps at stride 2): 16 channels a
// round leave 2 one-warpgroup blocks an SM, 8 leave 4.
// CHECK-LABEL: fuse.kernel "chunk8_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 8, {{.*}}wgmmaN = 80
// OLD-LABEL: fuse.kernel "chunk8_k0"
// OLD-SAME: ciChunk = 16, {{.*}}wgmmaN = 80
func.func @chunk8(%x: tensor<32x96x16384xf32>, %w: tensor<96x96x8xf32>) -> tensor<32x96x32762xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 6>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<32x96x16384xf32>, tensor<96x96x8xf32>) -> tensor<32x96x32762xf32>
  return %0 : tensor<32x96x32762xf32>
}

// rand43_48's layer (48 -> 3, positions on M): 4 rows of 2-warp blocks
// leave 5 an SM of the register budget's 8; 2 rows leave 8.
// CHECK-LABEL: fuse.kernel "pm_rows_k0"
// CHECK-SAME: rows = 2, mmaPositionsM = 1
// OLD-LABEL: fuse.kernel "pm_rows_k0"
// OLD-SAME: rows = 4, mmaPositionsM = 1
func.func @pm_rows(%x: tensor<8x48x128x1280xf32>, %w: tensor<48x3x1x4xf32>) -> tensor<8x3x128x1276xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 5>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : (tensor<8x48x128x1280xf32>, tensor<48x3x1x4xf32>) -> tensor<8x3x128x1276xf32>
  return %0 : tensor<8x3x128x1276xf32>
}
