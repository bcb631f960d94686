// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session37 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=fused | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-phase-split=-1 --emit=fused | FileCheck %s --check-prefix=NOSPLIT
// Session 38's rule (issue 37 item 4, docs/perf.md 196): where a wgmma
// warpgroup's accumulators of every W phase leave N = 8 positions a phase
// (W stride >= 16), or N = 16 at stride 8 with at most 32 output channels
// (half of the 64-channel M empty), an unforced tf32 layer takes
// mma.sync's long phases: 64 / 32 / 16 positions a phase at stride >= 16,
// 128 at stride 8. `--tile-rules=session37` and `--tile-wgmma=always` keep
// wgmma; half operands (unmeasured) too; a pooled epilogue keeps its tiles.
// Session 40's rule (docs/perf.md 229): otherwise, where split over four
// warpgroups the W phases hold N >= 64 positions each (stride 8, rows of
// at least 64 input positions), wgmma blocks of phases split over
// warpgroups (`wgmmaPhaseSplit = 4`): 64 channels at stride 8 in tf32,
// and 32 channels in bf16 (and under `--tile-wgmma=always`), where
// mma.sync's long phases do not apply; stride 16 (N = 32 split) keeps its
// tiles. `--tile-phase-split=-1` restores the tiles before.
// Session 43's rule (docs/perf.md 261-262), before both: a layer of 17-32
// output channels at W stride 8 or 16 takes wgmma positions on M
// (`mmaPositionsM = 1`, 4 phases a warpgroup: a split of stride / 4), in
// tf32 and bf16 and under `--tile-wgmma=always`; `--tile-phase-split=-1`
// (and `--tile-rules=session37`) restore the tiles before.

// rand37_90: 32 -> 32 channels, 32 x 32 taps at stride 16.
// CHECK-LABEL: fuse.kernel "stride16_k0"
// CHECK-SAME: tileW = 1024, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 4, mmaPositionsM = 1, wgmmaPhaseSplit = 4>
// NOSPLIT-LABEL: fuse.kernel "stride16_k0"
// NOSPLIT-SAME: tileW = 1024, tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 8>
// OLD-LABEL: fuse.kernel "stride16_k0"
// OLD-SAME: wgmmaN = 8, wgmmaGroups = 1>
// ALWAYS-LABEL: fuse.kernel "stride16_k0"
// ALWAYS-SAME: mmaPositionsM = 1, wgmmaPhaseSplit = 4>
// HALF-LABEL: fuse.kernel "stride16_k0"
// HALF-SAME: mmaPositionsM = 1, wgmmaPhaseSplit = 4>
func.func @stride16(%x: tensor<8x32x64x128xf32>, %w: tensor<32x32x32x32xf32>, %b: tensor<32xf32>) -> tensor<8x32x1024x2048xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 16, 16>, padding = array<i64: 8, 8>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<8x32x64x128xf32>, tensor<32x32x32x32xf32>, tensor<32xf32>) -> tensor<8x32x1024x2048xf32>
  return %0 : tensor<8x32x1024x2048xf32>
}

// rand37_21: 32 -> 32 channels, 16 x 16 taps at stride 8.
// CHECK-LABEL: fuse.kernel "stride8_few_k0"
// CHECK-SAME: tileW = 512, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 2, mmaPositionsM = 1, wgmmaPhaseSplit = 2>
// NOSPLIT-LABEL: fuse.kernel "stride8_few_k0"
// NOSPLIT-SAME: tileW = 1024, tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 8>
// OLD-LABEL: fuse.kernel "stride8_few_k0"
// OLD-SAME: wgmmaN = 16
// ALWAYS-LABEL: fuse.kernel "stride8_few_k0"
// ALWAYS-SAME: tileW = 512, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 2, mmaPositionsM = 1, wgmmaPhaseSplit = 2>
// HALF-LABEL: fuse.kernel "stride8_few_k0"
// HALF-SAME: tileW = 512, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 2, mmaPositionsM = 1, wgmmaPhaseSplit = 2>
func.func @stride8_few(%x: tensor<4x32x256x256xf32>, %w: tensor<32x32x16x16xf32>, %b: tensor<32xf32>) -> tensor<4x32x2048x2048xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x32x256x256xf32>, tensor<32x32x16x16xf32>, tensor<32xf32>) -> tensor<4x32x2048x2048xf32>
  return %0 : tensor<4x32x2048x2048xf32>
}

// rand37_85: 64 channels at stride 8: four warpgroups of two phases x 64
// positions (before: two warpgroups of one row, all 8 phases x 16).
// CHECK-LABEL: fuse.kernel "stride8_wide_k0"
// CHECK-SAME: tileW = 512, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 4, wgmmaPhaseSplit = 4>
// HALF-LABEL: fuse.kernel "stride8_wide_k0"
// HALF-SAME: wgmmaPhaseSplit = 4>
// NOSPLIT-LABEL: fuse.kernel "stride8_wide_k0"
// NOSPLIT-SAME: rows = 2, wgmmaN = 16, wgmmaGroups = 2>
// OLD-LABEL: fuse.kernel "stride8_wide_k0"
// OLD-SAME: rows = 2, wgmmaN = 16, wgmmaGroups = 2>
func.func @stride8_wide(%x: tensor<2x64x256x256xf32>, %w: tensor<64x64x16x16xf32>, %b: tensor<64xf32>) -> tensor<2x64x2048x2048xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x256x256xf32>, tensor<64x64x16x16xf32>, tensor<64xf32>) -> tensor<2x64x2048x2048xf32>
  return %0 : tensor<2x64x2048x2048xf32>
}
