// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=PLAN
// Half stores (docs/design/types.md): bf16/f16 convolutions with bias and
// activation epilogues store their half result themselves (one kernel),
// rounded to nearest even once in the epilogue (the cast's truncf; the
// store's own truncf is then exact): 2-byte scalar stores, 4- and 8-byte
// vectors of 2 and 4 halves where rows allow, on mma.sync (sm_90) and
// wgmma (sm_90a, register epilogue; bulk stores: half-bulk-store.mlir). Checked
// against float64 on the same half values with the half storage rule.

// PLAN-LABEL: plan @bf16_bias_relu: 1 kernel, 0 buffers
// PLAN-NEXT: step 0 bf16_bias_relu_k0 (convolution)
// PLAN: writes result (2x64x8x16xbf16)
// PLAN-LABEL: plan @f16_bias_gelu: 1 kernel, 0 buffers
// PLAN: writes result (2x64x9x9xf16)
// PLAN-LABEL: plan @bf16_bias_sigmoid_odd: 1 kernel, 0 buffers
// PLAN: writes result (1x16x7x7xbf16)
// PLAN-LABEL: plan @f16_relu_3d: 1 kernel, 0 buffers
// PLAN: writes result (1x32x6x6x8xf16)
// PLAN-LABEL: plan @bf16_reread: 2 kernels
// PLAN: writes b0 (1x64x8x16xbf16)
// PLAN: reads b0

// CHECK: @bf16_bias_relu: PASS {{.*}} storage bf16
// CHECK: @f16_bias_gelu: PASS {{.*}} storage f16
// CHECK: @bf16_bias_sigmoid_odd: PASS {{.*}} storage bf16
// CHECK: @f16_relu_3d: PASS {{.*}} storage f16
// CHECK: @bf16_reread: PASS
// CHECK-NOT: FAIL

func.func @bf16_bias_relu(%x: tensor<2x32x4x8xbf16>, %w: tensor<32x64x2x2xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x8x16xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x4x8xbf16>, tensor<32x64x2x2xbf16>, tensor<64xbf16>) -> tensor<2x64x8x16xbf16>
  %r = fuse.relu %y : tensor<2x64x8x16xbf16>
  return %r : tensor<2x64x8x16xbf16>
}

func.func @f16_bias_gelu(%x: tensor<2x16x4x4xf16>, %w: tensor<16x64x3x3xf16>, %b: tensor<64xf16>) -> tensor<2x64x9x9xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x4xf16>, tensor<16x64x3x3xf16>, tensor<64xf16>) -> tensor<2x64x9x9xf16>
  %g = fuse.gelu %y : tensor<2x64x9x9xf16>
  return %g : tensor<2x64x9x9xf16>
}

func.func @bf16_bias_sigmoid_odd(%x: tensor<1x8x5x5xbf16>, %w: tensor<8x16x3x3xbf16>, %b: tensor<16xbf16>) -> tensor<1x16x7x7xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x5x5xbf16>, tensor<8x16x3x3xbf16>, tensor<16xbf16>) -> tensor<1x16x7x7xbf16>
  %s = fuse.sigmoid %y : tensor<1x16x7x7xbf16>
  %m = fuse.mul %s, %y : tensor<1x16x7x7xbf16>, tensor<1x16x7x7xbf16> -> tensor<1x16x7x7xbf16>
  return %m : tensor<1x16x7x7xbf16>
}

func.func @f16_relu_3d(%x: tensor<1x16x3x3x4xf16>, %w: tensor<16x32x2x2x2xf16>, %b: tensor<32xf16>) -> tensor<1x32x6x6x8xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x3x3x4xf16>, tensor<16x32x2x2x2xf16>, tensor<32xf16>) -> tensor<1x32x6x6x8xf16>
  %r = fuse.relu %y : tensor<1x32x6x6x8xf16>
  return %r : tensor<1x32x6x6x8xf16>
}

// A half intermediate: the convolution stores bf16, the elementwise kernel
// reads it.
func.func @bf16_reread(%x: tensor<1x32x4x8xf32>, %w: tensor<32x64x2x2xf32>) -> tensor<1x64x8x16xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x4x8xf32>, tensor<32x64x2x2xf32>) -> tensor<1x64x8x16xf32>
  %h = fuse.cast %y : tensor<1x64x8x16xf32> -> tensor<1x64x8x16xbf16>
  %e = fuse.tanh %h : tensor<1x64x8x16xbf16>
  %f = fuse.cast %e : tensor<1x64x8x16xbf16> -> tensor<1x64x8x16xf32>
  return %f : tensor<1x64x8x16xf32>
}
