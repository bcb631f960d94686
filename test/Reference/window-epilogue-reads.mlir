// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a | FileCheck %s
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=FUSED
// An op after a pooling that reads the convolution's own value (found by
// bench/vocab_graphs.py: the lowering crashed on it). After the window op
// a block's tile holds pooled values only, so fuse-form-kernels ends the
// convolution's kernel at the pooling and gives the op a kernel of its own.

// CHECK: @pool_then_residual: PASS
// CHECK: @pool_then_input: PASS
// CHECK-NOT: FAIL

// FUSED-LABEL: func.func @pool_then_residual
// FUSED: fuse.kernel "pool_then_residual_k0"
// FUSED: fuse.conv_transpose
// FUSED-NOT: fuse.add
// FUSED: fuse.kernel "pool_then_residual_k1"
// FUSED: fuse.add
// A pooling followed by ops on its own value and graph inputs stays in the
// convolution's kernel.
// FUSED-LABEL: func.func @pool_then_input
// FUSED: fuse.kernel "pool_then_input_k0"
// FUSED: fuse.conv_transpose
// FUSED: fuse.max_pool
// FUSED: fuse.add
// FUSED-NOT: fuse.kernel

func.func @pool_then_residual(%x: tensor<3x3x7xf32>, %w: tensor<3x48x1xf32>, %b: tensor<48xf32>) -> tensor<3x48x19xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x3x7xf32>, tensor<3x48x1xf32>, tensor<48xf32>) -> tensor<3x48x19xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>, ceil_mode = true} : tensor<3x48x19xf32> -> tensor<3x48x19xf32>
  %2 = fuse.add %1, %0 : tensor<3x48x19xf32>, tensor<3x48x19xf32> -> tensor<3x48x19xf32>
  %3 = fuse.avg_pool %2 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>, ceil_mode = true, count_include_pad = false} : tensor<3x48x19xf32> -> tensor<3x48x19xf32>
  return %3 : tensor<3x48x19xf32>
}

func.func @pool_then_input(%x: tensor<1x5x4x6xf32>, %w: tensor<5x7x3x3xf32>, %y: tensor<1x7x4x6xf32>) -> tensor<1x7x4x6xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x4x6xf32>, tensor<5x7x3x3xf32>) -> tensor<1x7x8x12xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x7x8x12xf32> -> tensor<1x7x4x6xf32>
  %2 = fuse.add %1, %y : tensor<1x7x4x6xf32>, tensor<1x7x4x6xf32> -> tensor<1x7x4x6xf32>
  return %2 : tensor<1x7x4x6xf32>
}
