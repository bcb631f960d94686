// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-widen-half,fuse-form-kernels))' | FileCheck %s

// Half stores (docs/design/types.md): a convolution kernel whose result,
// after its elementwise or in-tile normalising epilogue, is only rounded to
// bf16/f16 by the cast fuse-widen-half places takes the cast and stores the
// half type itself (so does a normalisation kernel): no f32 intermediate,
// no cast kernel.

// CHECK-LABEL: func.func @bf16_conv
// CHECK: %[[K:.*]] = fuse.kernel "bf16_conv_k0" ins(%arg0, %arg1 : tensor<2x4x5x5xbf16>, tensor<4x8x3x3xbf16>) -> tensor<2x8x7x7xbf16>
// CHECK: fuse.conv_transpose
// CHECK-NEXT: %[[C:.*]] = fuse.cast %{{.*}} : tensor<2x8x7x7xf32> -> tensor<2x8x7x7xbf16>
// CHECK-NEXT: fuse.yield %[[C]]
// CHECK-NOT: fuse.kernel
// CHECK: return %[[K]]
func.func @bf16_conv(%x: tensor<2x4x5x5xbf16>, %w: tensor<4x8x3x3xbf16>) -> tensor<2x8x7x7xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xbf16>, tensor<4x8x3x3xbf16>) -> tensor<2x8x7x7xbf16>
  return %y : tensor<2x8x7x7xbf16>
}

// -----

// Bias and activation epilogue, f16: the cast follows the relu.

// CHECK-LABEL: func.func @f16_conv_bias_relu
// CHECK: fuse.kernel "f16_conv_bias_relu_k0" {{.*}} -> tensor<1x8x7x7xf16>
// CHECK: fuse.relu
// CHECK-NEXT: %[[C:.*]] = fuse.cast %{{.*}} : tensor<1x8x7x7xf32> -> tensor<1x8x7x7xf16>
// CHECK-NEXT: fuse.yield %[[C]]
// CHECK-NOT: fuse.kernel
func.func @f16_conv_bias_relu(%x: tensor<1x4x5x5xf16>, %w: tensor<4x8x3x3xf16>, %b: tensor<8xf16>) -> tensor<1x8x7x7xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5xf16>, tensor<4x8x3x3xf16>, tensor<8xf16>) -> tensor<1x8x7x7xf16>
  %r = fuse.relu %y : tensor<1x8x7x7xf16>
  return %r : tensor<1x8x7x7xf16>
}

// -----

// A half value read again (a widening cast, an elementwise kernel reading
// half storage) is still stored in half by the convolution.

// CHECK-LABEL: func.func @bf16_reread
// CHECK: %[[K:.*]] = fuse.kernel "bf16_reread_k0" {{.*}} -> tensor<1x8x7x7xbf16>
// CHECK: fuse.kernel "bf16_reread_k1" ins(%[[K]] : tensor<1x8x7x7xbf16>)
func.func @bf16_reread(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  %h = fuse.cast %y : tensor<1x8x7x7xf32> -> tensor<1x8x7x7xbf16>
  %e = fuse.exp %h : tensor<1x8x7x7xbf16>
  %f = fuse.cast %e : tensor<1x8x7x7xbf16> -> tensor<1x8x7x7xf32>
  return %f : tensor<1x8x7x7xf32>
}

// -----

// The f32 value is also used elsewhere: the cast stays a kernel of its own.

// CHECK-LABEL: func.func @f32_also_returned
// CHECK: fuse.kernel "f32_also_returned_k0" {{.*}} -> tensor<1x8x7x7xf32>
// CHECK: fuse.kernel "f32_also_returned_k1" {{.*}} -> tensor<1x8x7x7xbf16>
func.func @f32_also_returned(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> (tensor<1x8x7x7xf32>, tensor<1x8x7x7xbf16>) {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  %h = fuse.cast %y : tensor<1x8x7x7xf32> -> tensor<1x8x7x7xbf16>
  return %y, %h : tensor<1x8x7x7xf32>, tensor<1x8x7x7xbf16>
}

// -----

// A pooled epilogue stores the half result too (PooledEpilogue.cpp rounds
// at its stores): no cast kernel.

// CHECK-LABEL: func.func @bf16_conv_maxpool
// CHECK: %[[K:.*]] = fuse.kernel "bf16_conv_maxpool_k0" {{.*}} -> tensor<1x4x4x4xbf16>
// CHECK: fuse.max_pool
// CHECK-NEXT: %[[C:.*]] = fuse.cast %{{.*}} : tensor<1x4x4x4xf32> -> tensor<1x4x4x4xbf16>
// CHECK-NEXT: fuse.yield %[[C]]
// CHECK-NOT: fuse.kernel
// CHECK: return %[[K]]
func.func @bf16_conv_maxpool(%x: tensor<1x2x4x4xbf16>, %w: tensor<2x4x2x2xbf16>) -> tensor<1x4x4x4xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xbf16>, tensor<2x4x2x2xbf16>) -> tensor<1x4x8x8xbf16>
  %p = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x4x8x8xbf16> -> tensor<1x4x4x4xbf16>
  return %p : tensor<1x4x4x4xbf16>
}

// -----

// A reduction over the channels stores f32 only: the cast kernel stays.

// CHECK-LABEL: func.func @bf16_conv_channel_mean
// CHECK: fuse.kernel "bf16_conv_channel_mean_k0" {{.*}} -> tensor<1x1x8x8xf32>
// CHECK: fuse.kernel "bf16_conv_channel_mean_k1" {{.*}} -> tensor<1x1x8x8xbf16>
func.func @bf16_conv_channel_mean(%x: tensor<1x2x4x4xbf16>, %w: tensor<2x4x2x2xbf16>) -> tensor<1x1x8x8xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xbf16>, tensor<2x4x2x2xbf16>) -> tensor<1x4x8x8xbf16>
  %m = fuse.mean %y {dims = array<i64: 1>, keepdim = true} : tensor<1x4x8x8xbf16> -> tensor<1x1x8x8xbf16>
  return %m : tensor<1x1x8x8xbf16>
}

// -----

// A softmax over the channels, normalised in the convolution's tile: the
// convolution kernel stores the half result too.

// CHECK-LABEL: func.func @bf16_conv_softmax_c
// CHECK: %[[K:.*]] = fuse.kernel "bf16_conv_softmax_c_k0" {{.*}} -> tensor<1x16x5x5xbf16>
// CHECK: fuse.softmax
// CHECK-NEXT: %[[C:.*]] = fuse.cast %{{.*}} : tensor<1x16x5x5xf32> -> tensor<1x16x5x5xbf16>
// CHECK-NEXT: fuse.yield %[[C]]
// CHECK-NOT: fuse.kernel
// CHECK: return %[[K]]
func.func @bf16_conv_softmax_c(%x: tensor<1x4x3x3xbf16>, %w: tensor<4x16x3x3xbf16>) -> tensor<1x16x5x5xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x3x3xbf16>, tensor<4x16x3x3xbf16>) -> tensor<1x16x5x5xbf16>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x16x5x5xbf16>
  return %s : tensor<1x16x5x5xbf16>
}

// -----

// A group norm (its sets span blocks) is a normalisation kernel of its own,
// which stores the half result itself; its f32 parameters are widened by
// elementwise kernels.

// CHECK-LABEL: func.func @f16_group_norm
// CHECK: %[[K:.*]] = fuse.kernel "f16_group_norm_k0" {{.*}} -> tensor<2x16x9x9xf32>
// CHECK: %[[N:.*]] = fuse.kernel "f16_group_norm_k{{[0-9]+}}" ins(%[[K]], {{.*}}) -> tensor<2x16x9x9xf16>
// CHECK: fuse.group_norm
// CHECK-NEXT: %[[C:.*]] = fuse.cast %{{.*}} : tensor<2x16x9x9xf32> -> tensor<2x16x9x9xf16>
// CHECK-NEXT: fuse.yield %[[C]]
// CHECK: return %[[N]]
func.func @f16_group_norm(%x: tensor<2x4x7x7xf16>, %w: tensor<4x16x3x3xf16>, %g: tensor<16xf16>, %b: tensor<16xf16>) -> tensor<2x16x9x9xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x7x7xf16>, tensor<4x16x3x3xf16>) -> tensor<2x16x9x9xf16>
  %n = fuse.group_norm %y weight(%g : tensor<16xf16>) bias(%b : tensor<16xf16>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x16x9x9xf16>
  return %n : tensor<2x16x9x9xf16>
}

// -----

// A half residual that the epilogue adds is read by the convolution kernel
// itself (an operand cast copied in, like the convolution's own operands):
// the kernel's input is the bf16 argument, no elementwise kernel widens it.

// CHECK-LABEL: func.func @bf16_residual
// CHECK: %[[K:.*]] = fuse.kernel "bf16_residual_k0" ins(%arg0, %arg1, %arg2 : tensor<1x4x5x5xbf16>, tensor<4x8x3x3xbf16>, tensor<1x8x7x7xbf16>) -> tensor<1x8x7x7xbf16>
// CHECK: %[[R:.*]] = fuse.cast %{{.*}} : tensor<1x8x7x7xbf16> -> tensor<1x8x7x7xf32>
// CHECK: %[[Y:.*]] = fuse.conv_transpose
// CHECK: fuse.add %[[Y]], %[[R]]
// CHECK-NOT: fuse.kernel
// CHECK: return %[[K]]
func.func @bf16_residual(%x: tensor<1x4x5x5xbf16>, %w: tensor<4x8x3x3xbf16>, %r: tensor<1x8x7x7xbf16>) -> tensor<1x8x7x7xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5xbf16>, tensor<4x8x3x3xbf16>) -> tensor<1x8x7x7xbf16>
  %a = fuse.add %y, %r : tensor<1x8x7x7xbf16>, tensor<1x8x7x7xbf16> -> tensor<1x8x7x7xbf16>
  return %a : tensor<1x8x7x7xbf16>
}
