// RUN: fusecc-check %s | FileCheck %s
// Softmax along the last dim, and two reductions in one kernel.

// CHECK: @smw3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @smw2d_then_smc: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @smw1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @smw3d(%x0: tensor<1x3x2x2x3xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x2x2x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x4x6xf32>
  %v1 = fuse.softmax %v0 {dim = 4 : i64} : tensor<1x5x4x4x6xf32>
  return %v1 : tensor<1x5x4x4x6xf32>
}

func.func @smw2d_then_smc(%x0: tensor<2x3x3x3xf32>, %w1: tensor<3x7x3x3xf32>, %b2: tensor<7xf32>) -> tensor<2x7x3x3xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x3x3xf32>, tensor<3x7x3x3xf32>, tensor<7xf32>) -> tensor<2x7x3x3xf32>
  %v1 = fuse.softmax %v0 {dim = 3 : i64} : tensor<2x7x3x3xf32>
  %v2 = fuse.softmax %v1 {dim = 1 : i64} : tensor<2x7x3x3xf32>
  %v3 = fuse.tanh %v2 : tensor<2x7x3x3xf32>
  return %v3 : tensor<2x7x3x3xf32>
}

func.func @smw1d(%x0: tensor<1x3x7xf32>, %w1: tensor<3x5x5xf32>, %b2: tensor<5xf32>) -> tensor<1x5x20xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3>, padding = array<i64: 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x3x7xf32>, tensor<3x5x5xf32>, tensor<5xf32>) -> tensor<1x5x20xf32>
  %v1 = fuse.softmax %v0 {dim = 2 : i64} : tensor<1x5x20xf32>
  return %v1 : tensor<1x5x20xf32>
}

