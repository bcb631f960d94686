// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --tile-ci-chunk=16 --emit=gpu | FileCheck %s --check-prefix=LOOP
// A wgmma main loop of at most one round (MainLoopWgmma.cpp, `freshRound`:
// one d tap, at most one valid h tap at H stride 5 with k3 d2, all input
// channels in one chunk; kb1_81's layer) issues its round into fresh
// accumulators, each one's first wgmma with scale-d = 0, so that no copy
// of the zero accumulators sits between two wgmma (ptxas waited for each
// wgmma before the next one there). Rows without a valid h tap run no
// round and store zeros; W phases without a valid tap keep zero
// accumulators. Checked against float64 on the same half / TF32 values.

// CHECK: @bf16_one_round: PASS {{.*}} unwritten 0
// CHECK: @f16_one_round_bias: PASS {{.*}} unwritten 0
// CHECK: @f32_one_round: PASS {{.*}} unwritten 0
// CHECK-NOT: FAIL

// The first wgmma of each W phase's accumulator ignores its input, the
// next k step adds to it.
// GPU-LABEL: gpu.func @bf16_one_round_k0(
// GPU: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>], A[<bf16>
// GPU: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>], A[<bf16>
// GPU-LABEL: gpu.func @f16_one_round_bias_k0(
// GPU: nvvm.wgmma.mma_async {{.*}} D[<f32>, <zero>], A[<f16>
// Two chunks of 16 channels: two rounds, accumulated as before.
// LOOP-LABEL: gpu.func @bf16_one_round_k0(
// LOOP-NOT: D[<f32>, <zero>]
// LOOP: gpu.return

func.func @bf16_one_round(%x: tensor<2x32x4x6xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<2x64x18x28xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<2x32x4x6xbf16>, tensor<32x64x3x3xbf16>) -> tensor<2x64x18x28xbf16>
  return %y : tensor<2x64x18x28xbf16>
}

func.func @f16_one_round_bias(%x: tensor<1x16x3x5xf16>, %w: tensor<16x48x3x3xf16>, %b: tensor<48xf16>) -> tensor<1x48x13x23xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x5xf16>, tensor<16x48x3x3xf16>, tensor<48xf16>) -> tensor<1x48x13x23xf16>
  %r = fuse.relu %y : tensor<1x48x13x23xf16>
  return %r : tensor<1x48x13x23xf16>
}

func.func @f32_one_round(%x: tensor<2x32x4x6xf32>, %w: tensor<32x64x3x3xf32>) -> tensor<2x64x18x28xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<2x32x4x6xf32>, tensor<32x64x3x3xf32>) -> tensor<2x64x18x28xf32>
  return %y : tensor<2x64x18x28xf32>
}
