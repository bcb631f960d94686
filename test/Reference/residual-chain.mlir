// RUN: fusecc-check %s | FileCheck %s
// conv_transpose -> + bias[C,1,..] -> + y -> * y -> + y (KernelBench 2/20).

// CHECK: @res3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @res2d_n3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @res1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @res3d(%x0: tensor<1x3x2x3x3xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>, %bias3: tensor<5x1x1x1xf32>) -> tensor<1x5x4x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6x6xf32>
  %v1 = fuse.add %v0, %bias3 : tensor<1x5x4x6x6xf32>, tensor<5x1x1x1xf32> -> tensor<1x5x4x6x6xf32>
  %v2 = fuse.add %v1, %v0 : tensor<1x5x4x6x6xf32>, tensor<1x5x4x6x6xf32> -> tensor<1x5x4x6x6xf32>
  %v3 = fuse.mul %v2, %v0 : tensor<1x5x4x6x6xf32>, tensor<1x5x4x6x6xf32> -> tensor<1x5x4x6x6xf32>
  %v4 = fuse.add %v3, %v0 : tensor<1x5x4x6x6xf32>, tensor<1x5x4x6x6xf32> -> tensor<1x5x4x6x6xf32>
  return %v4 : tensor<1x5x4x6x6xf32>
}

func.func @res2d_n3(%x0: tensor<3x5x3x4xf32>, %w1: tensor<5x7x3x3xf32>, %b2: tensor<7xf32>, %bias3: tensor<7x1x1xf32>) -> tensor<3x7x6x8xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x3x4xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x6x8xf32>
  %v1 = fuse.add %v0, %bias3 : tensor<3x7x6x8xf32>, tensor<7x1x1xf32> -> tensor<3x7x6x8xf32>
  %v2 = fuse.add %v1, %v0 : tensor<3x7x6x8xf32>, tensor<3x7x6x8xf32> -> tensor<3x7x6x8xf32>
  %v3 = fuse.mul %v2, %v0 : tensor<3x7x6x8xf32>, tensor<3x7x6x8xf32> -> tensor<3x7x6x8xf32>
  %v4 = fuse.add %v3, %v0 : tensor<3x7x6x8xf32>, tensor<3x7x6x8xf32> -> tensor<3x7x6x8xf32>
  return %v4 : tensor<3x7x6x8xf32>
}

func.func @res1d(%x0: tensor<1x3x5xf32>, %w1: tensor<3x70x3xf32>, %b2: tensor<70xf32>, %bias3: tensor<70x1xf32>) -> tensor<1x70x15xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 2>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x3x5xf32>, tensor<3x70x3xf32>, tensor<70xf32>) -> tensor<1x70x15xf32>
  %v1 = fuse.add %v0, %bias3 : tensor<1x70x15xf32>, tensor<70x1xf32> -> tensor<1x70x15xf32>
  %v2 = fuse.add %v1, %v0 : tensor<1x70x15xf32>, tensor<1x70x15xf32> -> tensor<1x70x15xf32>
  %v3 = fuse.mul %v2, %v0 : tensor<1x70x15xf32>, tensor<1x70x15xf32> -> tensor<1x70x15xf32>
  %v4 = fuse.add %v3, %v0 : tensor<1x70x15xf32>, tensor<1x70x15xf32> -> tensor<1x70x15xf32>
  return %v4 : tensor<1x70x15xf32>
}

