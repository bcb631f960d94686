// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --tile-rules=session36 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --tile-rows=4 --emit=fused | FileCheck %s --check-prefix=FORCED
// An input one row high (a generator's 1x1 latent): every output row has
// its own H tap, so the rows of a block never share a round. The current
// rules take one row per block on mma.sync and on wgmma (docs/perf.md
// 200); `--tile-rules=session36` keeps the rows, and so does a forced
// `--tile-rows`.

// rand37_gen0_b16's first layer: 16 x 128 -> 128 x 4 x 4 (mma.sync: the
// grid of 4-row blocks, 32, is under half a wave; one-row blocks fill a
// wave on wgmma).
// CHECK-LABEL: fuse.kernel "latent_b16_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}wgmmaN = 8, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "latent_b16_k0"
// OLD-SAME: mmaTilesW = 1, rows = 4>
// FORCED-LABEL: fuse.kernel "latent_b16_k0"
// FORCED-SAME: rows = 4
func.func @latent_b16(%z: tensor<16x128x1x1xf32>, %w: tensor<128x128x4x4xf32>) -> tensor<16x128x4x4xf32> {
  %0 = fuse.conv_transpose %z, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x128x1x1xf32>, tensor<128x128x4x4xf32>) -> tensor<16x128x4x4xf32>
  %1 = fuse.relu %0 : tensor<16x128x4x4xf32>
  return %1 : tensor<16x128x4x4xf32>
}

// At batch 1 the grid stays on mma.sync, one row per block, and of 16
// channels with rounds of 32 (8 blocks of 64 channels are under a quarter
// wave: session 44's small-grid rule, tile-kernels-small-grid.mlir).
// CHECK-LABEL: fuse.kernel "latent_b1_k0"
// CHECK-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}mmaTilesC = 1, mmaTilesW = 1>
// OLD-LABEL: fuse.kernel "latent_b1_k0"
// OLD-SAME: mmaTilesW = 1, rows = 4>
func.func @latent_b1(%z: tensor<1x128x1x1xf32>, %w: tensor<128x128x4x4xf32>) -> tensor<1x128x4x4xf32> {
  %0 = fuse.conv_transpose %z, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x128x1x1xf32>, tensor<128x128x4x4xf32>) -> tensor<1x128x4x4xf32>
  return %0 : tensor<1x128x4x4xf32>
}

// At batch 128 on wgmma: two 64-channel warpgroups of one row (rows of
// four with merged H taps under the session-36 rules).
// CHECK-LABEL: fuse.kernel "latent_b128_k0"
// CHECK-SAME: tileC = 128, {{.*}}wgmmaN = 8, wgmmaGroups = 2>
// OLD-LABEL: fuse.kernel "latent_b128_k0"
// OLD-SAME: rows = 4, mergeHTaps = 1, wgmmaN = 8
func.func @latent_b128(%z: tensor<128x128x1x1xf32>, %w: tensor<128x512x4x4xf32>) -> tensor<128x512x4x4xf32> {
  %0 = fuse.conv_transpose %z, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x128x1x1xf32>, tensor<128x512x4x4xf32>) -> tensor<128x512x4x4xf32>
  return %0 : tensor<128x512x4x4xf32>
}

// An input two rows high shares taps between rows: unchanged (4 rows).
// CHECK-LABEL: fuse.kernel "two_rows_k0"
// CHECK-SAME: rows = 4
// OLD-LABEL: fuse.kernel "two_rows_k0"
// OLD-SAME: rows = 4
func.func @two_rows(%z: tensor<16x128x2x2xf32>, %w: tensor<128x128x4x4xf32>) -> tensor<16x128x5x5xf32> {
  %0 = fuse.conv_transpose %z, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x128x2x2xf32>, tensor<128x128x4x4xf32>) -> tensor<16x128x5x5xf32>
  return %0 : tensor<16x128x5x5xf32>
}
