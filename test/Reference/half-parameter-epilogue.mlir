// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --plan-half-intermediates=false | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=FUSED
// Parameter values of a half graph (fuse-form-kernels,
// `collectParameterChain`): an eval batch_norm's running statistics,
// weight and bias stored in bf16 / f16 are read by the convolution kernel
// through their widening casts, and its scale rsqrt(var + eps) * weight
// and the [C] -> [C, 1, 1] views are evaluated in f32 where the epilogue
// reads them, so each plan is the convolution kernels alone (no one-block
// kernel per vector). Shapes: channels that fill no tile, stride 2 (wgmma's
// register epilogue), a second layer reading a half intermediate, and the
// same layer in f32. Running variances are shifted by 4
// (fuse.check.mean; docs/design/checking.md). The simulator runs the
// kernels against float64.

// CHECK: @bf16_bn: PASS {{.*}} storage bf16
// CHECK: @f16_bn_two_layers: PASS {{.*}} storage f16
// CHECK: @f32_bn: PASS
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @bf16_bn: 1 kernel, 0 buffers
// PLAN-LABEL: plan @f16_bn_two_layers: 2 kernels, 1 buffer
// PLAN-LABEL: plan @f32_bn: 1 kernel, 0 buffers

// FUSED-LABEL: func.func @bf16_bn
// FUSED: fuse.kernel {{.*}} ins({{.*}}tensor<40xbf16>, tensor<40xbf16>, tensor<40xbf16>, tensor<40xbf16>)
// FUSED: fuse.conv_transpose
// FUSED: fuse.cast {{.*}} : tensor<40xbf16> -> tensor<40xf32>
// FUSED: fuse.rsqrt
// FUSED: fuse.sub
// FUSED-NOT: fuse.kernel
// FUSED-LABEL: func.func @f16_bn_two_layers

func.func @bf16_bn(%x: tensor<2x24x5x10xbf16>, %w: tensor<24x40x4x4xbf16>, %rm: tensor<40xbf16>, %rv: tensor<40xbf16> {fuse.check.mean = 4.0 : f64}, %g: tensor<40xbf16>, %bb: tensor<40xbf16>) -> tensor<2x40x10x20xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xbf16>, tensor<24x40x4x4xbf16>) -> tensor<2x40x10x20xbf16>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x40x10x20xbf16>, tensor<40xbf16>, tensor<40xbf16>, tensor<40xbf16>, tensor<40xbf16>) -> tensor<2x40x10x20xbf16>
  %2 = fuse.relu %1 : tensor<2x40x10x20xbf16>
  return %2 : tensor<2x40x10x20xbf16>
}

// Two layers, each conv + batch norm + relu; the first one's result is a
// half intermediate that the second reads as its input.
func.func @f16_bn_two_layers(%x: tensor<2x32x4x4xf16>, %w0: tensor<32x24x4x4xf16>, %m0: tensor<24xf16>, %v0: tensor<24xf16> {fuse.check.mean = 4.0 : f64}, %g0: tensor<24xf16>, %b0: tensor<24xf16>, %w1: tensor<24x16x3x3xf16>, %m1: tensor<16xf16>, %v1: tensor<16xf16> {fuse.check.mean = 4.0 : f64}, %g1: tensor<16xf16>, %b1: tensor<16xf16>) -> tensor<2x16x8x8xf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x4x4xf16>, tensor<32x24x4x4xf16>) -> tensor<2x24x8x8xf16>
  %1 = fuse.batch_norm %0, %m0, %v0 weight(%g0) bias(%b0) {epsilon = 1.0e-05 : f64} : (tensor<2x24x8x8xf16>, tensor<24xf16>, tensor<24xf16>, tensor<24xf16>, tensor<24xf16>) -> tensor<2x24x8x8xf16>
  %2 = fuse.relu %1 : tensor<2x24x8x8xf16>
  %3 = fuse.conv_transpose %2, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x8x8xf16>, tensor<24x16x3x3xf16>) -> tensor<2x16x8x8xf16>
  %4 = fuse.batch_norm %3, %m1, %v1 weight(%g1) bias(%b1) {epsilon = 1.0e-03 : f64} : (tensor<2x16x8x8xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>, tensor<16xf16>) -> tensor<2x16x8x8xf16>
  %5 = fuse.relu %4 : tensor<2x16x8x8xf16>
  return %5 : tensor<2x16x8x8xf16>
}

func.func @f32_bn(%x: tensor<2x24x5x10xf32>, %w: tensor<24x40x4x4xf32>, %rm: tensor<40xf32>, %rv: tensor<40xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<40xf32>, %bb: tensor<40xf32>) -> tensor<2x40x10x20xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x10xf32>, tensor<24x40x4x4xf32>) -> tensor<2x40x10x20xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x40x10x20xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<2x40x10x20xf32>
  %2 = fuse.relu %1 : tensor<2x40x10x20xf32>
  return %2 : tensor<2x40x10x20xf32>
}
