// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a --tile-wgmma=never --tile-max-w=1024 | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=never --tile-max-w=1024 --emit=fused | FileCheck %s --check-prefix=TILE
//
// The mma.sync tiles that the large-W-stride rule picks (TileChoice.cpp
// `longPhases`, docs/perf.md 196; the rule itself needs grids of a wave,
// tile-kernels-rules-large-stride.mlir): 64 positions a phase at stride 16
// (rand37_90's tile) and 128 at stride 8 with 21 channels (rand37_70's),
// one row each, two 1024-wide tiles a row, against float64.

// CHECK: @stride16: PASS
// CHECK: @stride8: PASS
// CHECK-NOT: FAIL
// TILE-LABEL: fuse.kernel "stride16_k0"
// TILE-SAME: tileW = 1024, tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 8>
// TILE-LABEL: fuse.kernel "stride8_k0"
// TILE-SAME: tileW = 1024, tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 8>

func.func @stride16(%x: tensor<1x32x1x128xf32>, %w: tensor<32x32x32x32xf32>, %b: tensor<32xf32>) -> tensor<1x32x16x2048xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 16, 16>, padding = array<i64: 8, 8>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x1x128xf32>, tensor<32x32x32x32xf32>, tensor<32xf32>) -> tensor<1x32x16x2048xf32>
  return %0 : tensor<1x32x16x2048xf32>
}

func.func @stride8(%x: tensor<1x21x1x256xf32>, %w: tensor<21x21x16x16xf32>, %b: tensor<21xf32>) -> tensor<1x21x8x2048xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x21x1x256xf32>, tensor<21x21x16x16xf32>, tensor<21xf32>) -> tensor<1x21x8x2048xf32>
  return %0 : tensor<1x21x8x2048xf32>
}
