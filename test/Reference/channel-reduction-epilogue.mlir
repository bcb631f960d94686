// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc %s --precision=tf32 --emit=fused | FileCheck %s --check-prefix=FUSED
// Reductions over the channels (sum, mean, amax, amin, logsumexp over dim
// 1, with and without keepdim) applied in the convolution kernel's
// epilogue: every block holds all channels and builds one result per
// position, so the convolution's result never reaches device memory. The
// simulator runs them on every main loop at awkward shapes (batch 1 and 3,
// 5, 13 and 70 channels, spatial sizes 1, 5 and 7) and compares with the
// float64 reference.

// CHECK: @sum_keep_then_tanh: PASS
// CHECK: @amax_nokeep_3d: PASS
// CHECK: @lse_keep_70: PASS
// CHECK: @amin_mean_1d#0: PASS
// CHECK: @amin_mean_1d#1: PASS
// CHECK: @mean_nokeep_sp1: PASS

// FUSED-LABEL: func.func @sum_keep_then_tanh
// FUSED: fuse.kernel "sum_keep_then_tanh_k0"
// FUSED: fuse.conv_transpose
// FUSED-NEXT: fuse.gelu
// FUSED-NEXT: fuse.sum
// FUSED-NEXT: fuse.add
// FUSED-NEXT: fuse.tanh
// FUSED-NEXT: fuse.yield
// FUSED-NOT: fuse.kernel
// FUSED-LABEL: func.func @amax_nokeep_3d
// FUSED: fuse.conv_transpose
// FUSED-NEXT: fuse.amax
// FUSED-NEXT: fuse.yield
// FUSED: fuse.kernel "amax_nokeep_3d_k1"
// FUSED-NEXT: ^bb0
// FUSED-NEXT: fuse.relu

func.func @sum_keep_then_tanh(%x: tensor<3x4x5x5xf32>, %w: tensor<4x13x3x3xf32>, %b: tensor<13xf32>, %p: tensor<3x1x1x1xf32>) -> tensor<3x1x7x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x5x5xf32>, tensor<4x13x3x3xf32>, tensor<13xf32>) -> tensor<3x13x7x7xf32>
  %1 = fuse.gelu %0 : tensor<3x13x7x7xf32>
  %2 = fuse.sum %1 {dims = array<i64: 1>, keepdim = true} : tensor<3x13x7x7xf32> -> tensor<3x1x7x7xf32>
  %3 = fuse.add %2, %p : tensor<3x1x7x7xf32>, tensor<3x1x1x1xf32> -> tensor<3x1x7x7xf32>
  %4 = fuse.tanh %3 : tensor<3x1x7x7xf32>
  return %4 : tensor<3x1x7x7xf32>
}

// Without keepdim the reduction ends the kernel; the relu runs in a kernel
// of its own on the reduced result.
func.func @amax_nokeep_3d(%x: tensor<1x3x3x3x4xf32>, %w: tensor<3x5x3x3x3xf32>) -> tensor<1x5x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x3x3x3x4xf32>, tensor<3x5x3x3x3xf32>) -> tensor<1x5x5x5x7xf32>
  %1 = fuse.amax %0 {dims = array<i64: 1>} : tensor<1x5x5x5x7xf32> -> tensor<1x5x5x7xf32>
  %2 = fuse.relu %1 : tensor<1x5x5x7xf32>
  return %2 : tensor<1x5x5x7xf32>
}

// logsumexp over 70 channels (two 64-channel wgmma groups in one block).
func.func @lse_keep_70(%x: tensor<3x6x5x3xf32>, %w: tensor<6x70x3x3xf32>, %b: tensor<70xf32>) -> tensor<3x1x11x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x6x5x3xf32>, tensor<6x70x3x3xf32>, tensor<70xf32>) -> tensor<3x70x11x7xf32>
  %1 = fuse.logsumexp %0 {dims = array<i64: 1>, keepdim = true} : tensor<3x70x11x7xf32> -> tensor<3x1x11x7xf32>
  return %1 : tensor<3x1x11x7xf32>
}

// 1-D, two convolutions: amin over the channels with keepdim, mean without.
func.func @amin_mean_1d(%x: tensor<3x7x5xf32>, %w: tensor<7x5x4xf32>, %b: tensor<5xf32>) -> (tensor<3x1x14xf32>, tensor<3x14xf32>) {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x7x5xf32>, tensor<7x5x4xf32>, tensor<5xf32>) -> tensor<3x5x14xf32>
  %1 = fuse.amin %0 {dims = array<i64: 1>, keepdim = true} : tensor<3x5x14xf32> -> tensor<3x1x14xf32>
  %2 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x7x5xf32>, tensor<7x5x4xf32>, tensor<5xf32>) -> tensor<3x5x14xf32>
  %3 = fuse.mean %2 {dims = array<i64: 1>} : tensor<3x5x14xf32> -> tensor<3x14xf32>
  return %1, %3 : tensor<3x1x14xf32>, tensor<3x14xf32>
}

// Spatial size 1, batch 1.
func.func @mean_nokeep_sp1(%x: tensor<1x8x1x1xf32>, %w: tensor<8x13x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x8x1x1xf32>, tensor<8x13x1x1xf32>) -> tensor<1x13x1x1xf32>
  %1 = fuse.mean %0 {dims = array<i64: 1>} : tensor<1x13x1x1xf32> -> tensor<1x1x1xf32>
  return %1 : tensor<1x1x1xf32>
}
