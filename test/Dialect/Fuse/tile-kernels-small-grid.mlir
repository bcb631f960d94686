// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HALF
// Session 44's small-grid rules (issue 37 item 3, docs/perf.md 285;
// lib/Codegen/Tiling/TileSmallGrid.cpp): a TF32 layer whose tensor-core
// grid is under half a wave takes 64-channel wgmma blocks with rounds of 32
// input channels where their grid suffices, else mma.sync blocks of fewer
// rows and channels (down to one row of 16) with rounds of 32. Half
// operands (session 45, docs/perf.md 315) take the same tiles with rounds
// of 64 half channels (the bytes of TF32's 32). The older rule sets keep
// their tiles.

// rand37_gen2's 512 -> 256 layer at batch 1: 8 blocks of 4 rows x 64
// channels become 128 of one row x 16 channels.
// CHECK-LABEL: fuse.kernel "b1_k0"
// CHECK-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}mmaWarpsC = 1
// CHECK-NOT: rows =
// CHECK-SAME: -> tensor<1x256x8x8xf32>
// OLD-LABEL: fuse.kernel "b1_k0"
// OLD-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}rows = 4>
// HALF-LABEL: fuse.kernel "b1_k0"
// HALF-SAME: tileC = 16, {{.*}}ciChunk = 64, {{.*}}mmaWarpsC = 1
// HALF-NOT: rows =
// HALF-SAME: -> tensor<1x256x8x8xf32>
// HALF-LABEL: fuse.kernel "b16_k0"
// HALF-SAME: tileC = 64, {{.*}}ciChunk = 64, {{.*}}rows = 4, wgmmaN = 8, wgmmaGroups = 1>
func.func @b1(%x: tensor<1x512x4x4xf32>, %w: tensor<512x256x4x4xf32>) -> tensor<1x256x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x512x4x4xf32>, tensor<512x256x4x4xf32>) -> tensor<1x256x8x8xf32>
  return %0 : tensor<1x256x8x8xf32>
}

// The same layer at batch 16: wgmma's 64 blocks (two samples or 128
// channels a block) left it on mma.sync; 128 wgmma blocks of 64 channels.
// CHECK-LABEL: fuse.kernel "b16_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 32, {{.*}}rows = 4, wgmmaN = 8, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "b16_k0"
// OLD-SAME: ciChunk = 16, {{.*}}mmaWarpsC = 2, {{.*}}rows = 4>
func.func @b16(%x: tensor<16x512x4x4xf32>, %w: tensor<512x256x4x4xf32>) -> tensor<16x256x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x512x4x4xf32>, tensor<512x256x4x4xf32>) -> tensor<16x256x8x8xf32>
  return %0 : tensor<16x256x8x8xf32>
}

// Fewer input channels than a round of 32: unchanged.
// CHECK-LABEL: fuse.kernel "narrow_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}rows = 4>
// OLD-LABEL: fuse.kernel "narrow_k0"
// OLD-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}rows = 4>
func.func @narrow(%x: tensor<1x16x4x4xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<1x64x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x4xf32>, tensor<16x64x4x4xf32>) -> tensor<1x64x8x8xf32>
  return %0 : tensor<1x64x8x8xf32>
}
