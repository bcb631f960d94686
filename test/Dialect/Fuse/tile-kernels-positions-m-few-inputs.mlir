// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session37 --emit=fused | FileCheck %s --check-prefix=OLD
// Session 42's rule (issue 37's held-out layers of seed 43, docs/perf.md
// 234-235): one-group tf32 layers of at most 8 output channels take
// positions on M whatever their input channels (before: at least 16,
// which `--tile-rules=session37` keeps).

// An RGB upscoring head, 3 -> 3 channels, 16 x 16 taps at stride 8
// (rand43_21's layer): positions on M, all 3 channels in a block.
// CHECK-LABEL: fuse.kernel "rgb_upscore_k0"
// CHECK-SAME: tileC = 3, {{.*}}mmaPositionsM = 1
// OLD-LABEL: fuse.kernel "rgb_upscore_k0"
// OLD-SAME: tileC = 16,
// OLD-NOT: mmaPositionsM
// OLD: return
func.func @rgb_upscore(%x: tensor<4x3x512x512xf32>, %w: tensor<3x3x16x16xf32>) -> tensor<4x3x4096x4096xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<4x3x512x512xf32>, tensor<3x3x16x16xf32>) -> tensor<4x3x4096x4096xf32>
  return %0 : tensor<4x3x4096x4096xf32>
}

// 3 -> 4 channels, 13 taps at stride 4 and dilation 2 (rand43_64's layer).
// CHECK-LABEL: fuse.kernel "rgb_1d_k0"
// CHECK-SAME: tileC = 4, {{.*}}mmaPositionsM = 1
// OLD-LABEL: fuse.kernel "rgb_1d_k0"
// OLD-SAME: tileC = 16,
// OLD-NOT: mmaPositionsM
// OLD: return
func.func @rgb_1d(%x: tensor<64x3x524288xf32>, %w: tensor<3x4x13xf32>) -> tensor<64x4x2097156xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 4>, padding = array<i64: 10>, output_padding = array<i64: 3>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<64x3x524288xf32>, tensor<3x4x13xf32>) -> tensor<64x4x2097156xf32>
  return %0 : tensor<64x4x2097156xf32>
}

// A 1x1 kernel (one tap a phase) keeps the channels-on-M tile.
// CHECK-LABEL: fuse.kernel "rgb_one_tap_k0"
// CHECK-NOT: mmaPositionsM
// CHECK: return
func.func @rgb_one_tap(%x: tensor<16x3x512x512xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<16x3x1024x1024xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x3x512x512xf32>, tensor<3x3x1x1xf32>) -> tensor<16x3x1024x1024xf32>
  return %0 : tensor<16x3x1024x1024xf32>
}
