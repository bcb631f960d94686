// RUN: fusecc %s --precision=tf32 --emit=tuning-keys | FileCheck %s
// Only convolution kernels have tiles to tune: a plan's pooling (prologue)
// and normalisation kernels print no key (regression: --emit=tuning-keys
// failed on them, so bench/tune.py could not prepare such graphs).

// CHECK-NOT: _k1
// CHECK: prologue_gn_k0{{[[:space:]]}}tf32 {{.*}} | conv_transpose relu
// CHECK-NOT: _k

func.func @prologue_gn(%x: tensor<2x3x8x8xf32>, %w: tensor<3x8x3x3xf32>) -> tensor<2x8x7x7xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %0 = fuse.conv_transpose %p, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3x8x3x3xf32>) -> tensor<2x8x7x7xf32>
  %1 = fuse.relu %0 : tensor<2x8x7x7xf32>
  %2 = fuse.group_norm %1 {num_groups = 2 : i64} : tensor<2x8x7x7xf32>
  return %2 : tensor<2x8x7x7xf32>
}
