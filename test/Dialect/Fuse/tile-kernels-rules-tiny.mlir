// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session36 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session35 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HALF
// Session 37's rule (issue 37's held-out layers, docs/perf.md 191): a
// layer of at most 32 output channels (the wgmma M of 64 at most half
// full), a channel reduction's too, whose outputs sum fewer than 32
// products on average takes mma.sync; `--tile-rules=session36` (and
// session35) keep wgmma. Half operands (unmeasured) keep wgmma too.

// 4 -> 24 channels, 7 taps at stride 4: 4 x 7 / 4 = 7 products an output
// (rand41_42's layer).
// CHECK-LABEL: fuse.kernel "tiny_reduction_k0"
// CHECK-SAME: tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2>
// OLD-LABEL: fuse.kernel "tiny_reduction_k0"
// OLD-SAME: tileC = 64, {{.*}}wgmmaN = 40, wgmmaGroups = 1>
// HALF-LABEL: fuse.kernel "tiny_reduction_k0"
// HALF-SAME: operand = bf16, {{.*}}wgmmaN = 40, wgmmaGroups = 1>
func.func @tiny_reduction(%x: tensor<16x4x262144xf32>, %w: tensor<4x24x7xf32>) -> tensor<16x24x1048563xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 4>, padding = array<i64: 11>, output_padding = array<i64: 0>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<16x4x262144xf32>, tensor<4x24x7xf32>) -> tensor<16x24x1048563xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<16x24x1048563xf32>
  return %1 : tensor<16x24x1048563xf32>
}

// A log-softmax over 4 channels (3 x 6 x 2 taps / 3 phases = 12 products
// an output; rand41_83's layer): the block takes all 4 channels on
// mma.sync.
// CHECK-LABEL: fuse.kernel "tiny_softmax_k0"
// CHECK-SAME: tileC = 16, {{.*}}mmaWarpsC = 1, {{.*}}rows = 4, mergeHTaps = 1>
// OLD-LABEL: fuse.kernel "tiny_softmax_k0"
// OLD-SAME: tileC = 64, {{.*}}wgmmaN = 32, wgmmaGroups = 1>
// HALF-LABEL: fuse.kernel "tiny_softmax_k0"
// HALF-SAME: operand = bf16, {{.*}}wgmmaN = 32, wgmmaGroups = 1>
func.func @tiny_softmax(%x: tensor<256x3x320x32xf32>, %w: tensor<3x4x6x2xf32>) -> tensor<256x4x311x96xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 3>, padding = array<i64: 10, 0>, output_padding = array<i64: 1, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<256x3x320x32xf32>, tensor<3x4x6x2xf32>) -> tensor<256x4x311x96xf32>
  %1 = fuse.log_softmax %0 {dim = 1 : i64} : tensor<256x4x311x96xf32>
  return %1 : tensor<256x4x311x96xf32>
}

// 24 -> 32 channels, 7 taps at stride 4: 24 x 7 / 4 = 42 products an
// output (rand41_82's layer, 11% faster on wgmma): wgmma under both rules.
// CHECK-LABEL: fuse.kernel "short_reduction_k0"
// CHECK-SAME: tileC = 64, {{.*}}wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "short_reduction_k0"
// OLD-SAME: tileC = 64, {{.*}}wgmmaGroups = 1>
func.func @short_reduction(%x: tensor<4x24x1048576xf32>, %w: tensor<24x32x7xf32>, %b: tensor<32xf32>) -> tensor<4x32x4194303xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4>, padding = array<i64: 2>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<4x24x1048576xf32>, tensor<24x32x7xf32>, tensor<32xf32>) -> tensor<4x32x4194303xf32>
  %1 = fuse.neg %0 : tensor<4x32x4194303xf32>
  return %1 : tensor<4x32x4194303xf32>
}
