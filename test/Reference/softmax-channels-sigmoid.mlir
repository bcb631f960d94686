// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --epilogue-math=fast %s | FileCheck %s
// conv_transpose -> softmax over channels -> sigmoid (KernelBench 2/49).

// CHECK: @sm3d_n3_c5: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sm3d_c70: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sm2d_c7_s3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sm1d_c3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sm2d_groups2: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @sm3d_n3_c5(%x0: tensor<3x3x2x3x3xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>) -> tensor<3x5x4x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x2x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x4x6x6xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x5x4x6x6xf32>
  %v2 = fuse.sigmoid %v1 : tensor<3x5x4x6x6xf32>
  return %v2 : tensor<3x5x4x6x6xf32>
}

func.func @sm3d_c70(%x0: tensor<1x4x1x2x3xf32>, %w1: tensor<4x70x3x3x3xf32>, %b2: tensor<70xf32>) -> tensor<1x70x2x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x4x1x2x3xf32>, tensor<4x70x3x3x3xf32>, tensor<70xf32>) -> tensor<1x70x2x4x6xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x70x2x4x6xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x70x2x4x6xf32>
  return %v2 : tensor<1x70x2x4x6xf32>
}

func.func @sm2d_c7_s3(%x0: tensor<1x5x3x5xf32>, %w1: tensor<5x7x2x4xf32>, %b2: tensor<7xf32>) -> tensor<1x7x8x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 2, 2>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x3x5xf32>, tensor<5x7x2x4xf32>, tensor<7xf32>) -> tensor<1x7x8x16xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x7x8x16xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x7x8x16xf32>
  return %v2 : tensor<1x7x8x16xf32>
}

func.func @sm1d_c3(%x0: tensor<3x7x7xf32>, %w1: tensor<7x3x5xf32>, %b2: tensor<3xf32>) -> tensor<3x3x14xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2>, padding = array<i64: 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x7x7xf32>, tensor<7x3x5xf32>, tensor<3xf32>) -> tensor<3x3x14xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x3x14xf32>
  %v2 = fuse.sigmoid %v1 : tensor<3x3x14xf32>
  return %v2 : tensor<3x3x14xf32>
}

func.func @sm2d_groups2(%x0: tensor<1x4x3x4xf32>, %w1: tensor<4x4x3x3xf32>, %b2: tensor<8xf32>) -> tensor<1x8x6x8xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x4x3x4xf32>, tensor<4x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x8xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x8x6x8xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x8x6x8xf32>
  return %v2 : tensor<1x8x6x8xf32>
}

