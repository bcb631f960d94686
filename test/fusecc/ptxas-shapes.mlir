// PTX for small, awkward shapes is accepted by ptxas in both precision
// modes: batch 1 and 3, channels 3/5/7 (and 100), spatial sizes 1/5/7,
// 1-D, 2-D and 3-D, groups 2 and depthwise, dilation, strides 2 and 3,
// output padding, with the epilogue kinds (channel and last-dim softmax,
// layer_norm, broadcast binary ops, unary ops).
// REQUIRES: ptxas

// RUN: fusecc %s --emit=ptx -o %t.ieee.ptx
// RUN: %ptxas -arch=sm_90 %t.ieee.ptx -o %t.ieee.cubin
// RUN: FileCheck %s < %t.ieee.ptx
// RUN: fusecc %s --emit=ptx --precision=tf32 -o %t.tf32.ptx
// RUN: %ptxas -arch=sm_90 %t.tf32.ptx -o %t.tf32.cubin
// RUN: FileCheck %s < %t.tf32.ptx

// Every function is one kernel of the module.
// CHECK-DAG: .visible .entry b1_c3_w5_relu_k0(
// CHECK-DAG: .visible .entry b3_c5_w5_s3_softmax_k0(
// CHECK-DAG: .visible .entry b1_c7_hw1_softmax_k0(
// CHECK-DAG: .visible .entry b3_c4_h5w7_dil2_layer_norm_k0(
// CHECK-DAG: .visible .entry b1_c6_h7w5_groups2_bias_k0(
// CHECK-DAG: .visible .entry b1_c4_h3w3_groups2_layer_norm_k0(
// CHECK-DAG: .visible .entry b1_c3_d1h5w7_s123_k0(
// CHECK-DAG: .visible .entry b1_c3_w7_s3_softmax_last_k0(
// CHECK-DAG: .visible .entry b3_c4_w5_groups2_mma_k0(
// CHECK-DAG: .visible .entry b3_c5_dhw1_k0(
// CHECK-DAG: .visible .entry b1_c5_w3_c100_softmax_k0(
// CHECK-DAG: .visible .entry b1_c2_w5_s2_d3_op2_k0(
// CHECK-DAG: .visible .entry b1_c7_h5w1_depthwise_k0(

// b1_c3_w5_relu: out tensor<1x5x7xf32>
func.func @b1_c3_w5_relu(%x: tensor<1x3x5xf32>, %w: tensor<3x5x3xf32>, %b: tensor<5xf32>)
    -> tensor<1x5x7xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<1x3x5xf32>, tensor<3x5x3xf32>, tensor<5xf32>) -> tensor<1x5x7xf32>
  %r = fuse.relu %y : tensor<1x5x7xf32>
  return %r : tensor<1x5x7xf32>
}

// b3_c5_w5_s3_softmax: out tensor<3x7x16xf32>
func.func @b3_c5_w5_s3_softmax(%x: tensor<3x5x5xf32>, %w: tensor<5x7x4xf32>, %b: tensor<7xf32>)
    -> tensor<3x7x16xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 1>,
         output_padding = array<i64: 2>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<3x5x5xf32>, tensor<5x7x4xf32>, tensor<7xf32>) -> tensor<3x7x16xf32>
  %r = fuse.softmax %y {dim = 1 : i64} : tensor<3x7x16xf32>
  return %r : tensor<3x7x16xf32>
}

// b1_c7_hw1_softmax: out tensor<1x3x1x1xf32>
func.func @b1_c7_hw1_softmax(%x: tensor<1x7x1x1xf32>, %w: tensor<7x3x1x1xf32>)
    -> tensor<1x3x1x1xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64}
       : (tensor<1x7x1x1xf32>, tensor<7x3x1x1xf32>) -> tensor<1x3x1x1xf32>
  %r = fuse.softmax %y {dim = 1 : i64} : tensor<1x3x1x1xf32>
  return %r : tensor<1x3x1x1xf32>
}

// b3_c4_h5w7_dil2_layer_norm: out tensor<3x5x11x16xf32>
func.func @b3_c4_h5w7_dil2_layer_norm(%x: tensor<3x4x5x7xf32>, %w: tensor<4x5x3x3xf32>, %b: tensor<5xf32>, %g: tensor<16xf32>, %beta: tensor<16xf32>)
    -> tensor<3x5x11x16xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 1>, dilation = array<i64: 2, 2>, groups = 1 : i64}
       : (tensor<3x4x5x7xf32>, tensor<4x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x11x16xf32>
  %r = fuse.layer_norm %y weight(%g : tensor<16xf32>) bias(%beta : tensor<16xf32>) : tensor<3x5x11x16xf32>
  return %r : tensor<3x5x11x16xf32>
}

// b1_c6_h7w5_groups2_bias: out tensor<1x10x7x7xf32>
func.func @b1_c6_h7w5_groups2_bias(%x: tensor<1x6x7x5xf32>, %w: tensor<6x5x3x3xf32>, %cb: tensor<10x1x1xf32>)
    -> tensor<1x10x7x7xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64}
       : (tensor<1x6x7x5xf32>, tensor<6x5x3x3xf32>) -> tensor<1x10x7x7xf32>
  %a = fuse.add %y, %cb : tensor<1x10x7x7xf32>, tensor<10x1x1xf32> -> tensor<1x10x7x7xf32>
  %r = fuse.sigmoid %a : tensor<1x10x7x7xf32>
  return %r : tensor<1x10x7x7xf32>
}

// b1_c4_h3w3_groups2_layer_norm: out tensor<1x16x7x7xf32>
func.func @b1_c4_h3w3_groups2_layer_norm(%x: tensor<1x4x3x3xf32>, %w: tensor<4x8x2x2xf32>, %b: tensor<16xf32>, %g: tensor<7xf32>, %beta: tensor<7xf32>)
    -> tensor<1x16x7x7xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64}
       : (tensor<1x4x3x3xf32>, tensor<4x8x2x2xf32>, tensor<16xf32>) -> tensor<1x16x7x7xf32>
  %r = fuse.layer_norm %y weight(%g : tensor<7xf32>) bias(%beta : tensor<7xf32>) : tensor<1x16x7x7xf32>
  return %r : tensor<1x16x7x7xf32>
}

// b1_c3_d1h5w7_s123: out tensor<1x5x1x12x23xf32>
func.func @b1_c3_d1h5w7_s123(%x: tensor<1x3x1x5x7xf32>, %w: tensor<3x5x1x3x3xf32>, %b: tensor<5xf32>)
    -> tensor<1x5x1x12x23xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 2, 3>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 1, 2>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64}
       : (tensor<1x3x1x5x7xf32>, tensor<3x5x1x3x3xf32>, tensor<5xf32>) -> tensor<1x5x1x12x23xf32>
  %a = fuse.gelu %y {approximate = "tanh"} : tensor<1x5x1x12x23xf32>
  %r = fuse.clamp %a {min = -0.5 : f64} : tensor<1x5x1x12x23xf32>
  return %r : tensor<1x5x1x12x23xf32>
}

// b1_c3_w7_s3_softmax_last: out tensor<1x3x21xf32>
func.func @b1_c3_w7_s3_softmax_last(%x: tensor<1x3x7xf32>, %w: tensor<3x3x3xf32>)
    -> tensor<1x3x21xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<1x3x7xf32>, tensor<3x3x3xf32>) -> tensor<1x3x21xf32>
  %r = fuse.softmax %y {dim = 2 : i64} : tensor<1x3x21xf32>
  return %r : tensor<1x3x21xf32>
}

// b3_c4_w5_groups2_mma: out tensor<3x32x5xf32>
func.func @b3_c4_w5_groups2_mma(%x: tensor<3x4x5xf32>, %w: tensor<4x16x3xf32>, %b: tensor<32xf32>)
    -> tensor<3x32x5xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 1>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<3x4x5xf32>, tensor<4x16x3xf32>, tensor<32xf32>) -> tensor<3x32x5xf32>
  %r = fuse.mish %y : tensor<3x32x5xf32>
  return %r : tensor<3x32x5xf32>
}

// b3_c5_dhw1: out tensor<3x7x1x1x1xf32>
func.func @b3_c5_dhw1(%x: tensor<3x5x1x1x1xf32>, %w: tensor<5x7x1x1x1xf32>, %b: tensor<7xf32>)
    -> tensor<3x7x1x1x1xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64}
       : (tensor<3x5x1x1x1xf32>, tensor<5x7x1x1x1xf32>, tensor<7xf32>) -> tensor<3x7x1x1x1xf32>
  %r = fuse.tanh %y : tensor<3x7x1x1x1xf32>
  return %r : tensor<3x7x1x1x1xf32>
}

// b1_c5_w3_c100_softmax: out tensor<1x100x7xf32>
func.func @b1_c5_w3_c100_softmax(%x: tensor<1x5x3xf32>, %w: tensor<5x100x2xf32>, %b: tensor<100xf32>)
    -> tensor<1x100x7xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<1x5x3xf32>, tensor<5x100x2xf32>, tensor<100xf32>) -> tensor<1x100x7xf32>
  %r = fuse.softmax %y {dim = 1 : i64} : tensor<1x100x7xf32>
  return %r : tensor<1x100x7xf32>
}

// b1_c2_w5_s2_d3_op2: out tensor<1x3x17xf32>
func.func @b1_c2_w5_s2_d3_op2(%x: tensor<1x2x5xf32>, %w: tensor<2x3x3xf32>)
    -> tensor<1x3x17xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 2>, dilation = array<i64: 3>, groups = 1 : i64}
       : (tensor<1x2x5xf32>, tensor<2x3x3xf32>) -> tensor<1x3x17xf32>
  %a = fuse.hardsigmoid %y : tensor<1x3x17xf32>
  %r = fuse.leaky_relu %a {slope = 0.1 : f64} : tensor<1x3x17xf32>
  return %r : tensor<1x3x17xf32>
}

// b1_c7_h5w1_depthwise: out tensor<1x7x10x2xf32>
func.func @b1_c7_h5w1_depthwise(%x: tensor<1x7x5x1xf32>, %w: tensor<7x1x3x2xf32>, %b: tensor<7xf32>)
    -> tensor<1x7x10x2xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>,
         output_padding = array<i64: 1, 0>, dilation = array<i64: 1, 1>, groups = 7 : i64}
       : (tensor<1x7x5x1xf32>, tensor<7x1x3x2xf32>, tensor<7xf32>) -> tensor<1x7x10x2xf32>
  %r = fuse.relu %y : tensor<1x7x10x2xf32>
  return %r : tensor<1x7x10x2xf32>
}

