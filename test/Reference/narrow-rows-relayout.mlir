// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-cluster-k=2 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=2 --tile-wgmma-split=2 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --emit=gpu | FileCheck %s --check-prefix=PACK
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --emit=gpu | FileCheck %s --check-prefix=PACK
// Narrow / odd input rows (W = 6, 7, 10: no multiple of 4, so no 16-byte
// row loads) whose element-by-element staging the main loop would repeat
// over at least the re-layout pass's elements (several channel tiles, H
// taps): the input is re-laid out once per call (InputPackPlan,
// `narrowRowsRelayoutPays` in GPUPlan.cpp) and each round's rows arrive
// as 16-byte asynchronous copies of columns, from a first column that is
// no multiple of 4 (padL, iwMin). Checked against float64 with
// epilogues (eval batch_norm + relu; bias + residual + tanh; sigmoid), in
// tf32 and bf16, with the reduction split over a cluster (clusterK = 2)
// and in blocks of 2 samples split over 2 warpgroups. @nr_few keeps its
// element-by-element staging (one channel tile: staged 0.45-0.74 times
// the pass's elements).

// CHECK: @nr_k4s2_bn_relu: PASS
// CHECK: @nr_w7_residual: PASS
// CHECK: @nr_w10_sigmoid: PASS
// CHECK: @nr_few: PASS
// CHECK-NOT: FAIL
// HALF: @nr_k4s2_bn_relu: PASS {{.*}}bf16-operands
// HALF: @nr_w7_residual: PASS {{.*}}bf16-operands
// HALF: @nr_w10_sigmoid: PASS {{.*}}bf16-operands
// HALF: @nr_few: PASS {{.*}}bf16-operands
// HALF-NOT: FAIL

// PACK: launch_func @fusecc_kernels::@nr_k4s2_bn_relu_k0_ipack
// PACK: launch_func @fusecc_kernels::@nr_w7_residual_k0_ipack
// PACK: launch_func @fusecc_kernels::@nr_w10_sigmoid_k0_ipack
// PACK-NOT: @nr_few_k0_ipack

func.func @nr_k4s2_bn_relu(%x: tensor<3x16x4x6xf32>, %w: tensor<16x1024x4x4xf32>, %m: tensor<1024xf32>, %v: tensor<1024xf32>, %g: tensor<1024xf32>, %be: tensor<1024xf32>) -> tensor<3x1024x8x12xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x16x4x6xf32>, tensor<16x1024x4x4xf32>) -> tensor<3x1024x8x12xf32>
  %n = fuse.batch_norm %c, %m, %v weight(%g) bias(%be) {epsilon = 1.0e-05 : f64} : (tensor<3x1024x8x12xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<3x1024x8x12xf32>
  %r = fuse.relu %n : tensor<3x1024x8x12xf32>
  return %r : tensor<3x1024x8x12xf32>
}

func.func @nr_w7_residual(%x: tensor<2x16x5x7xf32>, %w: tensor<16x1024x5x5xf32>, %b: tensor<1024xf32>, %res: tensor<2x1024x9x11xf32>) -> tensor<2x1024x9x11xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x5x7xf32>, tensor<16x1024x5x5xf32>, tensor<1024xf32>) -> tensor<2x1024x9x11xf32>
  %a = fuse.add %c, %res : tensor<2x1024x9x11xf32>, tensor<2x1024x9x11xf32> -> tensor<2x1024x9x11xf32>
  %t = fuse.tanh %a : tensor<2x1024x9x11xf32>
  return %t : tensor<2x1024x9x11xf32>
}

func.func @nr_w10_sigmoid(%x: tensor<2x32x5x10xf32>, %w: tensor<32x320x4x4xf32>) -> tensor<2x320x10x20xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x5x10xf32>, tensor<32x320x4x4xf32>) -> tensor<2x320x10x20xf32>
  %s = fuse.sigmoid %c : tensor<2x320x10x20xf32>
  return %s : tensor<2x320x10x20xf32>
}

func.func @nr_few(%x: tensor<2x32x5x7xf32>, %w: tensor<32x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<2x64x7x9xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x5x7xf32>, tensor<32x64x3x3xf32>, tensor<64xf32>) -> tensor<2x64x7x9xf32>
  %r = fuse.relu %c : tensor<2x64x7x9xf32>
  return %r : tensor<2x64x7x9xf32>
}
