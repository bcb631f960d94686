// RUN: fusecc-check --precision=tf32 --chip=sm_90a %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-rules=session36 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-rules=session36 --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --emit=fused %s | FileCheck %s --check-prefix=MMA
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=fused %s | FileCheck %s --check-prefix=WGMMA
// Inputs one row high (tile-kernels-one-row-input.mlir, docs/perf.md 200)
// in small, simulated: one row per block on mma.sync and on wgmma under
// the current rules, the rows of several taps (merged on wgmma) under
// session 36's, the same results: a padded H (rows 0-2 of taps 1-3) and
// a stride of 2 with an odd kernel (3 x 3 outputs of a 5 x 3 kernel).

// CHECK: @latent: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @latent_padded: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// (On mma.sync one row of 16 channels with rounds of 32: the small-grid
// rule, TileSmallGrid.cpp, simulated here too.)
// MMA-LABEL: fuse.kernel "latent_k0"
// MMA-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}mmaTilesC = 1, mmaTilesW = 1>
// WGMMA-LABEL: fuse.kernel "latent_k0"
// WGMMA-SAME: wgmmaN = 8, wgmmaGroups = 1>
func.func @latent(%z: tensor<2x32x1x1xf32>, %w: tensor<32x64x4x4xf32>, %b: tensor<64xf32>) -> tensor<2x64x4x4xf32> {
  %0 = fuse.conv_transpose %z, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x1x1xf32>, tensor<32x64x4x4xf32>, tensor<64xf32>) -> tensor<2x64x4x4xf32>
  %1 = fuse.relu %0 : tensor<2x64x4x4xf32>
  return %1 : tensor<2x64x4x4xf32>
}

// MMA-LABEL: fuse.kernel "latent_padded_k0"
// MMA-SAME: mmaTilesC = 1, mmaTilesW = 1>
// WGMMA-LABEL: fuse.kernel "latent_padded_k0"
// WGMMA-SAME: wgmmaN = 8, wgmmaGroups = 1>
func.func @latent_padded(%z: tensor<1x24x1x1xf32>, %w: tensor<24x16x5x3xf32>) -> tensor<1x16x3x3xf32> {
  %0 = fuse.conv_transpose %z, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x1x1xf32>, tensor<24x16x5x3xf32>) -> tensor<1x16x3x3xf32>
  return %0 : tensor<1x16x3x3xf32>
}
