// RUN: fusecc-check %s | FileCheck %s
// Every binary elementwise op with each broadcast form: rank-0 constant,
// [C,1,1], [1,C,1,1,1], [1,1,1], [W], a full-size second input, and operand order.

// CHECK: @b_add_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_add_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_add_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_sub_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_sub_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_sub_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_mul_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_mul_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_mul_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_div_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_div_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_div_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_maximum_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_maximum_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_maximum_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_minimum_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_minimum_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_minimum_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_sub_const_lhs: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_div_chan_lhs: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_add_chan5_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_mul_chan_3d_n3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_add_ones: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_add_lastdim: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_pow_const: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_pow_full: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @b_pow_chan: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @b_add_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.add %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_add_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_add_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_sub_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.sub %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_sub_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sub %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_sub_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sub %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_mul_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.mul %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_mul_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.mul %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_mul_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.mul %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_div_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.div %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_div_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.div %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_div_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.div %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_maximum_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.maximum %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_maximum_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.maximum %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_maximum_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.maximum %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_minimum_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.minimum %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_minimum_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.minimum %v0, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_minimum_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.minimum %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_sub_const_lhs(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<0.75> : tensor<f32>
  %v2 = fuse.sub %v1, %v0 : tensor<f32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_div_chan_lhs(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.exp %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.div %p3, %v1 : tensor<5x1x1xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_add_chan5_3d(%x0: tensor<1x3x1x2x3xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x1x1x1xf32>) -> tensor<1x5x2x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x1x2x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x2x4x6xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x5x2x4x6xf32>, tensor<1x5x1x1x1xf32> -> tensor<1x5x2x4x6xf32>
  return %v1 : tensor<1x5x2x4x6xf32>
}

func.func @b_mul_chan_3d_n3(%x0: tensor<3x3x1x2x2xf32>, %w1: tensor<3x5x3x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1x1xf32>) -> tensor<3x5x2x4x4xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x1x2x2xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x2x4x4xf32>
  %v1 = fuse.mul %v0, %p3 : tensor<3x5x2x4x4xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x2x4x4xf32>
  return %v1 : tensor<3x5x2x4x4xf32>
}

func.func @b_add_ones(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x5x4x6xf32>, tensor<1x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_add_lastdim(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x5x4x6xf32>, tensor<6xf32> -> tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @b_pow_const(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = arith.constant dense<0.75> : tensor<f32>
  %v3 = fuse.pow %v1, %v2 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  return %v3 : tensor<1x5x4x6xf32>
}

func.func @b_pow_full(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<1x5x4x6xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.pow %v1, %p3 : tensor<1x5x4x6xf32>, tensor<1x5x4x6xf32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @b_pow_chan(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>, %p3: tensor<5x1x1xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.pow %v1, %p3 : tensor<1x5x4x6xf32>, tensor<5x1x1xf32> -> tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

