// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-wgmma-split=2 | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-wgmma-split=2 --emit=fused | FileCheck %s --check-prefix=TILE
//
// Two warpgroups of one row each at a W stride of 8 (N = 16), the tile the
// cost model takes for such layers where the grid fills the chip
// (test/fusecc/wgmma-split-rows.test), at small shapes on the simulator:
// a partial channel tile (24 of 64), bias, an odd number of rows per H
// phase (the second warpgroup's row past the end), padding and
// output_padding, a gelu epilogue.

// CHECK: @split_rows_stride8: PASS
// CHECK: @split_rows_padded: PASS
// TILE-COUNT-2: rows = 2, wgmmaN = 16, wgmmaGroups = 2>

func.func @split_rows_stride8(%x: tensor<1x16x3x15xf32>, %w: tensor<16x24x16x16xf32>, %b: tensor<24xf32>) -> tensor<1x24x32x128xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x3x15xf32>, tensor<16x24x16x16xf32>, tensor<24xf32>) -> tensor<1x24x32x128xf32>
  return %0 : tensor<1x24x32x128xf32>
}

func.func @split_rows_padded(%x: tensor<2x8x3x16xf32>, %w: tensor<8x16x16x16xf32>) -> tensor<2x16x27x135xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 3>, output_padding = array<i64: 3, 5>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x3x16xf32>, tensor<8x16x16x16xf32>) -> tensor<2x16x27x135xf32>
  %1 = fuse.gelu %0 : tensor<2x16x27x135xf32>
  return %1 : tensor<2x16x27x135xf32>
}
