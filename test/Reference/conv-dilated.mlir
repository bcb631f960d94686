// RUN: fusecc-check %s | FileCheck %s
// Plain transposed convolutions with dilation (KernelBench 1/77).

// CHECK: @dil3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @dil3d_n3_op: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @dil2d_s3_k5: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @dil1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @dil2d_mixed: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @dil3d(%x0: tensor<1x3x3x4x5xf32>, %w1: tensor<3x7x3x3x3xf32>) -> tensor<1x7x7x9x11xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<1x3x3x4x5xf32>, tensor<3x7x3x3x3xf32>) -> tensor<1x7x7x9x11xf32>
  return %v0 : tensor<1x7x7x9x11xf32>
}

func.func @dil3d_n3_op(%x0: tensor<3x2x2x2x3xf32>, %w1: tensor<2x5x2x2x2xf32>) -> tensor<3x5x5x5x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<3x2x2x2x3xf32>, tensor<2x5x2x2x2xf32>) -> tensor<3x5x5x5x6xf32>
  return %v0 : tensor<3x5x5x5x6xf32>
}

func.func @dil2d_s3_k5(%x0: tensor<1x5x3x4xf32>, %w1: tensor<5x3x5x5xf32>) -> tensor<1x3x12x15xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 3, 3>, padding = array<i64: 2, 2>, output_padding = array<i64: 1, 1>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x5x3x4xf32>, tensor<5x3x5x5xf32>) -> tensor<1x3x12x15xf32>
  return %v0 : tensor<1x3x12x15xf32>
}

func.func @dil1d(%x0: tensor<2x3x7xf32>, %w1: tensor<3x5x3xf32>, %b2: tensor<5xf32>) -> tensor<2x5x15xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<2x3x7xf32>, tensor<3x5x3xf32>, tensor<5xf32>) -> tensor<2x5x15xf32>
  return %v0 : tensor<2x5x15xf32>
}

func.func @dil2d_mixed(%x0: tensor<1x3x4x5xf32>, %w1: tensor<3x5x3x2xf32>, %b2: tensor<5xf32>) -> tensor<1x5x10x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 3>, padding = array<i64: 1, 0>, output_padding = array<i64: 1, 2>, dilation = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x3x4x5xf32>, tensor<3x5x3x2xf32>, tensor<5xf32>) -> tensor<1x5x10x16xf32>
  return %v0 : tensor<1x5x10x16xf32>
}

