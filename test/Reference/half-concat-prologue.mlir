// RUN: fusecc-check --plan-prologue=always %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always %s --chip=sm_90a | FileCheck %s
// RUN: fusecc-check --plan-prologue=always %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check --plan-prologue=always %s --chip=sm_90a --tile-wgmma=always --plan-half-intermediates=false | FileCheck %s
// RUN: fusecc %s --plan-prologue=always --emit=fused | FileCheck %s --check-prefix=FUSED
// RUN: fusecc %s --plan-prologue=always --emit=plan | FileCheck %s --check-prefix=PLAN
// Half operands of a convolution's prologue (docs/design/types.md): a
// U-Net's skip concatenation of a layer's result with a half graph input,
// both read by the next convolution's prologue in their storage type. The
// skip's widening cast is copied into the convolution kernel (an operand
// cast read by the concat), so no elementwise kernel writes an f32 copy of
// it, and the layer's result, which only the concat reads (and the concat
// only the convolution, as its input on bf16 / f16 tensor cores), is a half
// intermediate. An elementwise prologue reading half graph inputs loads
// them as vectors of 4 halves. The simulator runs the kernels against
// float64.

// CHECK: @bf16_skip: PASS {{.*}} storage bf16
// CHECK: @f16_skip_first: PASS {{.*}} storage f16
// CHECK: @bf16_add_inputs: PASS {{.*}} storage bf16
// CHECK-NOT: FAIL

// FUSED-LABEL: func.func @bf16_skip
// FUSED-NOT: fuse.kernel {{.*}} -> tensor<2x32x6x12xf32>
// FUSED: fuse.kernel {{.*}} -> tensor<2x32x6x12xbf16>
// FUSED: fuse.kernel {{.*}}tensor<2x32x6x12xbf16>, tensor<2x32x6x12xbf16>
// FUSED: fuse.cast {{.*}} : tensor<2x32x6x12xbf16> -> tensor<2x32x6x12xf32>
// FUSED: fuse.cast {{.*}} : tensor<2x32x6x12xbf16> -> tensor<2x32x6x12xf32>
// FUSED-NEXT: fuse.concat
// FUSED-LABEL: func.func @f16_skip_first
// FUSED-NOT: -> tensor<2x32x8x8xf32> {
// FUSED: fuse.concat
// FUSED-LABEL: func.func @bf16_add_inputs
// FUSED-NOT: -> tensor<2x32x6x8xf32> {
// FUSED: fuse.add

// PLAN-LABEL: plan @bf16_skip
// PLAN: writes [[B0:b[0-9]+]] (2x32x6x12xbf16)
// PLAN: reads {{.*}}[[B0]]
// PLAN-NOT: xf32)
// PLAN-LABEL: plan @f16_skip_first
// PLAN: writes [[B1:b[0-9]+]] (2x32x8x8xf16)
// PLAN: reads {{.*}}[[B1]]
// PLAN-LABEL: plan @bf16_add_inputs
// PLAN: 1 kernel,

func.func @bf16_skip(%x: tensor<2x64x3x6xbf16>, %w0: tensor<64x32x4x4xbf16>, %skip: tensor<2x32x6x12xbf16>, %w1: tensor<64x16x4x4xbf16>, %b1: tensor<16xbf16>) -> tensor<2x16x12x24xbf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xbf16>, tensor<64x32x4x4xbf16>) -> tensor<2x32x6x12xbf16>
  %1 = fuse.relu %0 : tensor<2x32x6x12xbf16>
  %2 = fuse.concat %1, %skip {dim = 1 : i64} : (tensor<2x32x6x12xbf16>, tensor<2x32x6x12xbf16>) -> tensor<2x64x6x12xbf16>
  %3 = fuse.conv_transpose %2, %w1, %b1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x6x12xbf16>, tensor<64x16x4x4xbf16>, tensor<16xbf16>) -> tensor<2x16x12x24xbf16>
  %4 = fuse.tanh %3 : tensor<2x16x12x24xbf16>
  return %4 : tensor<2x16x12x24xbf16>
}

// The skip first, a batch norm before the concat, a stride-1 reader.
func.func @f16_skip_first(%x: tensor<2x48x4x4xf16>, %w0: tensor<48x32x4x4xf16>, %m: tensor<32xf16>, %v: tensor<32xf16>, %g: tensor<32xf16>, %b: tensor<32xf16>, %skip: tensor<2x16x8x8xf16>, %w1: tensor<48x32x3x3xf16>) -> tensor<2x32x8x8xf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x48x4x4xf16>, tensor<48x32x4x4xf16>) -> tensor<2x32x8x8xf16>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%b) {epsilon = 1.0e-05 : f64} : (tensor<2x32x8x8xf16>, tensor<32xf16>, tensor<32xf16>, tensor<32xf16>, tensor<32xf16>) -> tensor<2x32x8x8xf16>
  %2 = fuse.relu %1 : tensor<2x32x8x8xf16>
  %3 = fuse.concat %skip, %2 {dim = 1 : i64} : (tensor<2x16x8x8xf16>, tensor<2x32x8x8xf16>) -> tensor<2x48x8x8xf16>
  %4 = fuse.conv_transpose %3, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x48x8x8xf16>, tensor<48x32x3x3xf16>) -> tensor<2x32x8x8xf16>
  return %4 : tensor<2x32x8x8xf16>
}

// An elementwise prologue of two half graph inputs (rows of 8: vectors of
// 4 halves).
func.func @bf16_add_inputs(%x: tensor<2x32x6x8xbf16>, %y: tensor<2x32x6x8xbf16>, %w: tensor<32x16x4x4xbf16>) -> tensor<2x16x12x16xbf16> {
  %0 = fuse.add %x, %y : tensor<2x32x6x8xbf16>, tensor<2x32x6x8xbf16> -> tensor<2x32x6x8xbf16>
  %1 = fuse.relu %0 : tensor<2x32x6x8xbf16>
  %2 = fuse.conv_transpose %1, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x8xbf16>, tensor<32x16x4x4xbf16>) -> tensor<2x16x12x16xbf16>
  return %2 : tensor<2x16x12x16xbf16>
}
