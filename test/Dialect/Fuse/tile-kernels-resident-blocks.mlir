// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// Session 43's rules (issue 37's layers of seeds 43 and 44, docs/perf.md
// 253; lib/Codegen/Tiling/TileResidentBlocks.cpp): wgmma chunks of 8 and
// 2 rows of positions on M where more would leave fewer blocks on an SM
// than the register budget allows. `--tile-rules=session42` keeps the old
// choices. Merged H taps stay a tuning knob (253: neutral held out).

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
