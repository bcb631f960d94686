// RUN: fusecc-check %s | FileCheck %s
// Every unary elementwise op in a fused epilogue.

// CHECK: @u_neg: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_abs: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_exp: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_erf: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_tanh: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_sigmoid: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_relu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_silu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_softplus: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_mish: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_hardsigmoid: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_hardswish: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_gelu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_gelu_tanh: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_leaky_relu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_clamp: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_clamp_min: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_clamp_max: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_log_sigmoid: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_sqrt: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_rsqrt: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_softplus_big: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @u_hardswish_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @u_neg(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.neg %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_abs(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.abs %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_exp(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.exp %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_erf(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.erf %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_tanh(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.tanh %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_sigmoid(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_relu(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.relu %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_silu(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.silu %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_softplus(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.softplus %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_mish(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.mish %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_hardsigmoid(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.hardsigmoid %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_hardswish(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.hardswish %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_gelu(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.gelu %v0 : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_gelu_tanh(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.gelu %v0 {approximate = "tanh"} : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_leaky_relu(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.leaky_relu %v0 {slope = 0.2 : f64} : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_clamp(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.clamp %v0 {min = -0.1 : f64, max = 0.2 : f64} : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_clamp_min(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.clamp %v0 {min = 0.05 : f64} : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_clamp_max(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.clamp %v0 {max = 0.0 : f64} : tensor<1x5x4x6xf32>
  return %v1 : tensor<1x5x4x6xf32>
}

func.func @u_log_sigmoid(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.log %v1 : tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @u_sqrt(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.sqrt %v1 : tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @u_rsqrt(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x5x4x6xf32>
  %v2 = fuse.rsqrt %v1 : tensor<1x5x4x6xf32>
  return %v2 : tensor<1x5x4x6xf32>
}

func.func @u_softplus_big(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<60.0> : tensor<f32>
  %v2 = fuse.mul %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  %v3 = fuse.softplus %v2 : tensor<1x5x4x6xf32>
  return %v3 : tensor<1x5x4x6xf32>
}

func.func @u_hardswish_wide(%x0: tensor<1x3x2x3xf32>, %w1: tensor<3x5x3x3xf32>, %b2: tensor<5xf32>) -> tensor<1x5x4x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6xf32>
  %v1 = arith.constant dense<8.0> : tensor<f32>
  %v2 = fuse.mul %v0, %v1 : tensor<1x5x4x6xf32>, tensor<f32> -> tensor<1x5x4x6xf32>
  %v3 = fuse.hardswish %v2 : tensor<1x5x4x6xf32>
  return %v3 : tensor<1x5x4x6xf32>
}

