// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// The same patterns in tf32 mode (tensor-core main loop).

// CHECK: @tf_sm3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tf_dil3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tf_ln2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tf_groups: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tf_c70_1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tf_cin40: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @tf_sm3d(%x0: tensor<3x3x2x3x3xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>) -> tensor<3x5x4x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x2x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x4x6x6xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x5x4x6x6xf32>
  %v2 = fuse.sigmoid %v1 : tensor<3x5x4x6x6xf32>
  return %v2 : tensor<3x5x4x6x6xf32>
}

func.func @tf_dil3d(%x0: tensor<1x3x3x4x5xf32>, %w1: tensor<3x7x3x3x3xf32>) -> tensor<1x7x7x9x11xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<1x3x3x4x5xf32>, tensor<3x7x3x3x3xf32>) -> tensor<1x7x7x9x11xf32>
  return %v0 : tensor<1x7x7x9x11xf32>
}

func.func @tf_ln2d(%x0: tensor<1x5x3x3xf32>, %w1: tensor<5x7x3x3xf32>, %b2: tensor<7xf32>, %g3: tensor<5xf32>, %beta4: tensor<5xf32>) -> tensor<1x7x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x3x3xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<1x7x5x5xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<5xf32>) bias(%beta4 : tensor<5xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x7x5x5xf32>
  %v2 = fuse.gelu %v1 : tensor<1x7x5x5xf32>
  return %v2 : tensor<1x7x5x5xf32>
}

func.func @tf_groups(%x0: tensor<1x4x2x5xf32>, %w1: tensor<4x3x3x3xf32>, %b2: tensor<6xf32>) -> tensor<1x6x5x14xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x2x5xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x14xf32>
  return %v0 : tensor<1x6x5x14xf32>
}

func.func @tf_c70_1d(%x0: tensor<3x20x5xf32>, %w1: tensor<20x70x4xf32>, %b2: tensor<70xf32>) -> tensor<3x70x10xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x20x5xf32>, tensor<20x70x4xf32>, tensor<70xf32>) -> tensor<3x70x10xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x70x10xf32>
  return %v1 : tensor<3x70x10xf32>
}

func.func @tf_cin40(%x0: tensor<1x40x2x3xf32>, %w1: tensor<40x9x2x2xf32>, %b2: tensor<9xf32>) -> tensor<1x9x3x4xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x2x3xf32>, tensor<40x9x2x2xf32>, tensor<9xf32>) -> tensor<1x9x3x4xf32>
  return %v0 : tensor<1x9x3x4xf32>
}

