// RUN: fusecc-check --reference-only --print-output %s | FileCheck %s
// The reference interpreter against hand-computed transposed convolutions
// (constant inputs, so no compilation is involved).

// x = [1, 2], w = [3, 4], k = 2, s = 2: every input element scatters its own
// copy of the kernel: y = [1*3, 1*4, 2*3, 2*4].
// CHECK-LABEL: @k2_s2: result 0 elements 4 sum 21 abs-sum 21
// CHECK-NEXT: 3 4 6 8
func.func @k2_s2() -> tensor<1x1x4xf32> {
  %x = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[3.0, 4.0]]]> : tensor<1x1x2xf32>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 1>}
       : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
  return %y : tensor<1x1x4xf32>
}

// Stride 1: overlapping taps add: y = [1*3, 1*4 + 2*3, 2*4]; bias 0.5.
// CHECK-LABEL: @k2_s1_bias: result 0 elements 3 sum 22.5
// CHECK-NEXT: 3.5 10.5 8.5
func.func @k2_s1_bias() -> tensor<1x1x3xf32> {
  %x = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[3.0, 4.0]]]> : tensor<1x1x2xf32>
  %b = arith.constant dense<[0.5]> : tensor<1xf32>
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 1>}
       : (tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<1xf32>) -> tensor<1x1x3xf32>
  return %y : tensor<1x1x3xf32>
}

// Padding 1 crops one element at each end of the full output [3, 4, 6, 8]
// (-> [4, 6]); output_padding 1 extends the end by one: [4, 6, 8].
// out = (2-1)*2 - 2 + 1*(2-1) + 1 + 1 = 3.
// CHECK-LABEL: @pad1_op1: result 0 elements 3 sum 18
// CHECK-NEXT: 4 6 8
func.func @pad1_op1() -> tensor<1x1x3xf32> {
  %x = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[3.0, 4.0]]]> : tensor<1x1x2xf32>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2>,
         padding = array<i64: 1>, output_padding = array<i64: 1>,
         dilation = array<i64: 1>}
       : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x3xf32>
  return %y : tensor<1x1x3xf32>
}

// k = 1, s = 2, output_padding 1: positions 1 and 3 get no tap, only the
// bias: [1*3, 0, 2*3, 0] + 0.5.
// CHECK-LABEL: @k1_s2_op1_bias: result 0 elements 4 sum 11
// CHECK-NEXT: 3.5 0.5 6.5 0.5
func.func @k1_s2_op1_bias() -> tensor<1x1x4xf32> {
  %x = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[3.0]]]> : tensor<1x1x1xf32>
  %b = arith.constant dense<[0.5]> : tensor<1xf32>
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>,
         padding = array<i64: 0>, output_padding = array<i64: 1>,
         dilation = array<i64: 1>}
       : (tensor<1x1x2xf32>, tensor<1x1x1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32>
  return %y : tensor<1x1x4xf32>
}

// Dilation 2, stride 1, k = 2: taps at offsets 0 and 2:
// y[o] = sum x[i] w[t] with o = i + 2t: y = [3, 6, 4, 8].
// CHECK-LABEL: @dil2: result 0 elements 4 sum 21
// CHECK-NEXT: 3 6 4 8
func.func @dil2() -> tensor<1x1x4xf32> {
  %x = arith.constant dense<[[[1.0, 2.0]]]> : tensor<1x1x2xf32>
  %w = arith.constant dense<[[[3.0, 4.0]]]> : tensor<1x1x2xf32>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 2>}
       : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x4xf32>
  return %y : tensor<1x1x4xf32>
}

// Groups 2, k = 1: input channel 0 feeds output channels 0-1 (weights 1, 2),
// channel 1 feeds 2-3 (weights 3, 4); x = [10, 100].
// CHECK-LABEL: @groups2: result 0 elements 4 sum 730
// CHECK-NEXT: 10
// CHECK-NEXT: 20
// CHECK-NEXT: 300
// CHECK-NEXT: 400
func.func @groups2() -> tensor<1x4x1xf32> {
  %x = arith.constant dense<[[[10.0], [100.0]]]> : tensor<1x2x1xf32>
  %w = arith.constant dense<[[[1.0], [2.0]], [[3.0], [4.0]]]> : tensor<2x2x1xf32>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x2x1xf32>, tensor<2x2x1xf32>) -> tensor<1x4x1xf32>
  return %y : tensor<1x4x1xf32>
}

// 2-D, 1x1 input, k = 2x2, s = 2: the output is the kernel scaled by x = 2.
// CHECK-LABEL: @k22_2d: result 0 elements 4 sum 20
// CHECK-NEXT: 2 4
// CHECK-NEXT: 6 8
func.func @k22_2d() -> tensor<1x1x2x2xf32> {
  %x = arith.constant dense<2.0> : tensor<1x1x1x1xf32>
  %w = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>,
         padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>}
       : (tensor<1x1x1x1xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %y : tensor<1x1x2x2xf32>
}

// softmax over [0, ln 3] = [1/4, 3/4]; layer_norm of [1, 3] = [-1, 1]
// (mean 2, biased variance 1, eps 0); broadcast add of a [2,1] column.
// CHECK-LABEL: @norms: result 0 elements 4 sum 61
// CHECK-NEXT: 10.25 10.75
// CHECK-NEXT: 19 21
func.func @norms() -> tensor<2x2xf32> {
  %a = arith.constant dense<[[0.0, 1.0986122886681098], [1.0, 3.0]]> : tensor<2x2xf32>
  %s = fuse.softmax %a {dim = 1 : i64} : tensor<2x2xf32>
  %l = fuse.layer_norm %a {normalized_rank = 1 : i64, epsilon = 0.0 : f64} : tensor<2x2xf32>
  %c = arith.constant dense<[[1.0], [0.0]]> : tensor<2x1xf32>
  %sel1 = fuse.mul %s, %c : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
  %c2 = arith.constant dense<[[0.0], [1.0]]> : tensor<2x1xf32>
  %sel2 = fuse.mul %l, %c2 : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
  %sum = fuse.add %sel1, %sel2 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
  %d = arith.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %r = fuse.add %sum, %d : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
