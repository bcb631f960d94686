// RUN: fusecc-check %s | FileCheck %s
// Plain transposed convolutions at awkward shapes: kernel 1..5, stride 1..3,
// spatial size 1, output_padding, groups, batch 1 and 3, channels 3..70.

// CHECK: @k1_s1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @k1_s2_op1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sp1_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @sp1_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @k5_s1_p2: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @k2_s3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @k4_s2_p1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @groups2_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @groups2_1d_s3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @c70_2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @cin70_1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wide_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @k1_s1(%x0: tensor<1x3x5x5xf32>, %w1: tensor<3x5x1x1xf32>, %b2: tensor<5xf32>) -> tensor<1x5x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x1x1xf32>, tensor<5xf32>) -> tensor<1x5x5x5xf32>
  return %v0 : tensor<1x5x5x5xf32>
}

func.func @k1_s2_op1(%x0: tensor<3x7x3x5xf32>, %w1: tensor<7x5x1x1xf32>, %b2: tensor<5xf32>) -> tensor<3x5x6x10xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x7x3x5xf32>, tensor<7x5x1x1xf32>, tensor<5xf32>) -> tensor<3x5x6x10xf32>
  return %v0 : tensor<3x5x6x10xf32>
}

func.func @sp1_3d(%x0: tensor<1x3x1x1x1xf32>, %w1: tensor<3x7x3x3x3xf32>, %b2: tensor<7xf32>) -> tensor<1x7x3x3x3xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x1x1x1xf32>, tensor<3x7x3x3x3xf32>, tensor<7xf32>) -> tensor<1x7x3x3x3xf32>
  return %v0 : tensor<1x7x3x3x3xf32>
}

func.func @sp1_w(%x0: tensor<2x5x3x1xf32>, %w1: tensor<5x3x4x4xf32>, %b2: tensor<3xf32>) -> tensor<2x3x6x2xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x3x1xf32>, tensor<5x3x4x4xf32>, tensor<3xf32>) -> tensor<2x3x6x2xf32>
  return %v0 : tensor<2x3x6x2xf32>
}

func.func @k5_s1_p2(%x0: tensor<1x3x5x7xf32>, %w1: tensor<3x5x5x5xf32>, %b2: tensor<5xf32>) -> tensor<1x5x5x7xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x7xf32>, tensor<3x5x5x5xf32>, tensor<5xf32>) -> tensor<1x5x5x7xf32>
  return %v0 : tensor<1x5x5x7xf32>
}

func.func @k2_s3(%x0: tensor<1x3x5xf32>, %w1: tensor<3x5x2xf32>, %b2: tensor<5xf32>) -> tensor<1x5x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3>, padding = array<i64: 0>, output_padding = array<i64: 2>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x3x5xf32>, tensor<3x5x2xf32>, tensor<5xf32>) -> tensor<1x5x16xf32>
  return %v0 : tensor<1x5x16xf32>
}

func.func @k4_s2_p1(%x0: tensor<3x5x2x3x5xf32>, %w1: tensor<5x7x4x4x4xf32>, %b2: tensor<7xf32>) -> tensor<3x7x4x6x10xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x5x2x3x5xf32>, tensor<5x7x4x4x4xf32>, tensor<7xf32>) -> tensor<3x7x4x6x10xf32>
  return %v0 : tensor<3x7x4x6x10xf32>
}

func.func @groups2_3d(%x0: tensor<1x4x2x3x3xf32>, %w1: tensor<4x3x3x3x3xf32>, %b2: tensor<6xf32>) -> tensor<1x6x4x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 2 : i64} : (tensor<1x4x2x3x3xf32>, tensor<4x3x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x4x6x6xf32>
  return %v0 : tensor<1x6x4x6x6xf32>
}

func.func @groups2_1d_s3(%x0: tensor<2x6x5xf32>, %w1: tensor<6x5x3xf32>, %b2: tensor<10xf32>) -> tensor<2x10x14xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 2 : i64} : (tensor<2x6x5xf32>, tensor<6x5x3xf32>, tensor<10xf32>) -> tensor<2x10x14xf32>
  return %v0 : tensor<2x10x14xf32>
}

func.func @c70_2d(%x0: tensor<1x3x3x3xf32>, %w1: tensor<3x70x3x3xf32>, %b2: tensor<70xf32>) -> tensor<1x70x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x3x3xf32>, tensor<3x70x3x3xf32>, tensor<70xf32>) -> tensor<1x70x5x5xf32>
  return %v0 : tensor<1x70x5x5xf32>
}

func.func @cin70_1d(%x0: tensor<1x70x5xf32>, %w1: tensor<70x5x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x9xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x70x5xf32>, tensor<70x5x3xf32>, tensor<5xf32>) -> tensor<1x5x9xf32>
  return %v0 : tensor<1x5x9xf32>
}

func.func @wide_w(%x0: tensor<1x3x1x40xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x2x80xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x1x40xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x2x80xf32>
  return %v0 : tensor<1x5x2x80xf32>
}

