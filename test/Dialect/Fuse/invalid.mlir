// RUN: fusecc-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// ODS type constraints: statically shaped f32, bf16 or f16 tensors only
//===----------------------------------------------------------------------===//

func.func @not_float(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<4xf64>'}}
  %0 = fuse.relu %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @dynamic_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = fuse.exp %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @unranked(%x: tensor<*xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<*xf32>'}}
  %0 = "fuse.add"(%x, %y) : (tensor<*xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @memref_operand(%x: memref<4xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'memref<4xf32>'}}
  %0 = "fuse.neg"(%x) : (memref<4xf32>) -> memref<4xf32>
  return
}

// -----

func.func @i32_result(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{result #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<4xi32>'}}
  %0 = "fuse.add"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi32>
  return
}

// -----

func.func @conv_f64_weight(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf64>) {
  // expected-error@+1 {{operand #1 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<4x3x3xf64>'}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf64>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @unary_type_mismatch(%x: tensor<4xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = "fuse.sigmoid"(%x) : (tensor<4xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @softmax_type_mismatch(%x: tensor<4x2xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = "fuse.softmax"(%x) {dim = 1 : i64} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_type_mismatch(%x: tensor<4x2xf32>) {
  // expected-error@+1 {{failed to verify that all of {input, result} have same type}}
  %0 = "fuse.layer_norm"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_missing_stride(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{requires attribute 'stride'}}
  %0 = fuse.conv_transpose %x, %w {padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @softmax_missing_dim(%x: tensor<4x2xf32>) {
  // expected-error@+1 {{requires attribute 'dim'}}
  %0 = fuse.softmax %x : tensor<4x2xf32>
  return
}

// -----

func.func @gelu_approximate_not_string(%x: tensor<4xf32>) {
  // expected-error@+1 {{attribute 'approximate' failed to satisfy constraint: string attribute}}
  %0 = fuse.gelu %x {approximate = 1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @leaky_relu_slope_f32(%x: tensor<4xf32>) {
  // expected-error@+1 {{attribute 'slope' failed to satisfy constraint: 64-bit float attribute}}
  %0 = fuse.leaky_relu %x {slope = 0.1 : f32} : tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// conv_transpose verifier
//===----------------------------------------------------------------------===//

// -----

func.func @conv_rank2(%x: tensor<1x4xf32>, %w: tensor<4x3xf32>) {
  // expected-error@+1 {{'fuse.conv_transpose' op expected input of rank 3, 4 or 5 ([N, Cin, *spatial] with 1 to 3 spatial dims), got rank 2}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64>, padding = array<i64>,
         output_padding = array<i64>, dilation = array<i64>}
       : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @conv_rank6(%x: tensor<1x1x1x1x1x1xf32>, %w: tensor<1x1x1x1x1x1xf32>) {
  // expected-error@+1 {{expected input of rank 3, 4 or 5 ([N, Cin, *spatial] with 1 to 3 spatial dims), got rank 6}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1, 1>, padding = array<i64: 0, 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1, 1>}
       : (tensor<1x1x1x1x1x1xf32>, tensor<1x1x1x1x1x1xf32>) -> tensor<1x1x1x1x1x1xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{expected weight of rank 3 ([Cin, Cout/groups, *kernel]), got rank 4}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_result_rank(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected result of rank 3, got rank 4}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7x1xf32>
  return
}

// -----

func.func @conv_stride_entries(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{expected 'stride' to have 2 entries (one per spatial dim), got 1}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @conv_padding_entries(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected 'padding' to have 1 entries (one per spatial dim), got 2}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_output_padding_entries(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected 'output_padding' to have 1 entries (one per spatial dim), got 0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_dilation_entries(%x: tensor<1x4x5x5x5xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{expected 'dilation' to have 3 entries (one per spatial dim), got 2}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x5x5x5xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x3x7x7x7xf32>
  return
}

// -----

func.func @conv_stride_zero(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected every 'stride' entry >= 1, got 0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 0>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

// A negative padding adds bias-only positions before the scatter's first
// one: the result must be that much longer (7 + 2 x 1 = 9, not 7).
func.func @conv_negative_padding_result_size(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{result spatial dim 0 is 7, expected 9 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: -1>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

// Any padding, but -2 x padding must fit int64.
func.func @conv_negative_padding_overflow(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{output size along spatial dim 0 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1 overflows int64 (in = 5, stride = 1, padding = -4611686018427387904, dilation = 1, k = 3, output_padding = 0)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: -4611686018427387904>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

// A negative output_padding is an end crop: the result must be that much
// shorter (7 - 1 = 6, not 7).
func.func @conv_end_crop_result_size(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{result spatial dim 0 is 7, expected 6 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: -1>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_end_crop_everything(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{output size along spatial dim 0 is 0 (empty output): padding too large}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: -7>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x1xf32>
  return
}

// -----

func.func @conv_dilation_zero(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected every 'dilation' entry >= 1, got 0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 0>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x5xf32>
  return
}

// -----

func.func @conv_groups_zero(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{expected groups >= 1, got 0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 0 : i64}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_groups_divide(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{groups (3) must divide the input channels (4)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 3 : i64}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x9x7xf32>
  return
}

// -----

func.func @conv_weight_cin(%x: tensor<1x4x5xf32>, %w: tensor<3x4x3xf32>) {
  // expected-error@+1 {{weight dim 0 must equal the input channels (4), got weight shape [3, 4, 3]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<3x4x3xf32>) -> tensor<1x4x7xf32>
  return
}

// -----

func.func @conv_result_batch(%x: tensor<2x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{result batch (1) must equal the input batch (2)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_result_channels(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{result channels (3) must equal weight dim 1 * groups (6)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_bias_shape(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{expected bias of shape [3], got [4]}}
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>, tensor<4xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_bias_rank(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>, %b: tensor<3x1xf32>) {
  // expected-error@+1 {{expected bias of shape [3], got [3, 1]}}
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>, tensor<3x1xf32>) -> tensor<1x3x7xf32>
  return
}

// -----

func.func @conv_empty_kernel(%x: tensor<1x4x5xf32>, %w: tensor<4x3x0xf32>) {
  // expected-error@+1 {{kernel size along spatial dim 0 must be positive, got 0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x0xf32>) -> tensor<1x3x4xf32>
  return
}

// -----

func.func @conv_empty_output(%x: tensor<1x4x1x2xf32>, %w: tensor<4x3x1x1xf32>) {
  // (1 - 1) * 1 - 2 * 1 + 0 + 0 + 1 = -1
  // expected-error@+1 {{output size along spatial dim 0 is -1 (empty output): padding too large}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x1x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x3x1x2xf32>
  return
}

// -----

func.func @conv_result_spatial(%x: tensor<1x4x5x5x5xf32>, %w: tensor<4x3x3x3x3xf32>) {
  // expected-error@+1 {{result spatial dim 2 is 12, expected 9 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 1, 1, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x4x5x5x5xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x3x10x10x12xf32>
  return
}

//===----------------------------------------------------------------------===//
// Elementwise verifiers
//===----------------------------------------------------------------------===//

// -----

func.func @binary_no_broadcast(%x: tensor<2x3xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.add' op operand shapes [2, 3] and [4] do not broadcast}}
  %0 = fuse.add %x, %y : tensor<2x3xf32>, tensor<4xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @binary_wrong_result(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'fuse.mul' op result shape [3] must be the broadcast shape [2, 3]}}
  %0 = fuse.mul %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @binary_result_too_big(%x: tensor<2x1xf32>, %y: tensor<1xf32>) {
  // expected-error@+1 {{'fuse.pow' op result shape [2, 4] must be the broadcast shape [2, 1]}}
  %0 = fuse.pow %x, %y : tensor<2x1xf32>, tensor<1xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @binary_sub(%x: tensor<5xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.sub' op operand shapes [5] and [4] do not broadcast}}
  %0 = fuse.sub %x, %y : tensor<5xf32>, tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

func.func @binary_div(%x: tensor<f32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.div' op result shape [] must be the broadcast shape [4]}}
  %0 = fuse.div %x, %y : tensor<f32>, tensor<4xf32> -> tensor<f32>
  return
}

// -----

func.func @binary_maximum(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) {
  // expected-error@+1 {{'fuse.maximum' op operand shapes [2, 3] and [3, 2] do not broadcast}}
  %0 = fuse.maximum %x, %y : tensor<2x3xf32>, tensor<3x2xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @binary_minimum(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error@+1 {{'fuse.minimum' op result shape [1, 2, 3] must be the broadcast shape [2, 3]}}
  %0 = fuse.minimum %x, %y : tensor<2x3xf32>, tensor<3xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @gelu_bad_approximate(%x: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.gelu' op approximate must be "none" or "tanh", got "erf"}}
  %0 = fuse.gelu %x {approximate = "erf"} : tensor<4xf32>
  return
}

// -----

func.func @clamp_no_bound(%x: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.clamp' op expected at least one of 'min' and 'max'}}
  %0 = fuse.clamp %x : tensor<4xf32>
  return
}

// -----

func.func @clamp_min_above_max(%x: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.clamp' op min (2.000000e+00) must not exceed max (1.000000e+00)}}
  %0 = fuse.clamp %x {min = 2.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_dim_too_large(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.softmax' op dim 2 is out of range for a rank-2 tensor (expected 0..1)}}
  %0 = fuse.softmax %x {dim = 2 : i64} : tensor<2x4xf32>
  return
}

// -----

func.func @softmax_dim_negative(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.softmax' op dim -1 is out of range for a rank-2 tensor (expected 0..1)}}
  %0 = fuse.softmax %x {dim = -1 : i64} : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_rank_zero(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.layer_norm' op normalized_rank 0 is out of range for a rank-2 tensor (expected 1..2)}}
  %0 = fuse.layer_norm %x {normalized_rank = 0 : i64} : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_rank_too_large(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.layer_norm' op normalized_rank 3 is out of range for a rank-2 tensor (expected 1..2)}}
  %0 = fuse.layer_norm %x {normalized_rank = 3 : i64} : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_negative_epsilon(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.layer_norm' op epsilon must be non-negative, got -1}}
  %0 = fuse.layer_norm %x {epsilon = -1.0 : f64} : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_weight_shape(%x: tensor<2x4xf32>, %g: tensor<2xf32>) {
  // expected-error@+1 {{'fuse.layer_norm' op expected weight of shape [4] (the normalised dims), got [2]}}
  %0 = fuse.layer_norm %x weight(%g : tensor<2xf32>) : tensor<2x4xf32>
  return
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<2x4xf32>, %g: tensor<2x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.layer_norm' op expected bias of shape [2, 4] (the normalised dims), got [4]}}
  %0 = fuse.layer_norm %x weight(%g : tensor<2x4xf32>) bias(%b : tensor<4xf32>)
         {normalized_rank = 2 : i64} : tensor<2x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// fuse.kernel / fuse.yield
//===----------------------------------------------------------------------===//

// -----

func.func @kernel_arg_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.kernel' op body has 2 arguments but the kernel has 1 inputs}}
  %0 = fuse.kernel "k" ins(%x : tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_arg_type(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.kernel' op body argument 1 has type 'tensor<4xf32>' but input 1 has type 'tensor<2xf32>'}}
  %0 = fuse.kernel "k" ins(%x, %y : tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_yield_type(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'fuse.kernel' op yields 'tensor<4xf32>' but the kernel result is 'tensor<2xf32>'}}
  %0 = fuse.kernel "k" ins(%x : tensor<4xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @kernel_no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.kernel' op body must end with 'fuse.yield'}}
  %0 = "fuse.kernel"(%x) <{kernel_name = "k"}> ({
  ^bb0(%a: tensor<4xf32>):
    "llvm.unreachable"() : () -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_empty_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.kernel' op expects a non-empty block}}
  %0 = "fuse.kernel"(%x) <{kernel_name = "k"}> ({
  ^bb0(%a: tensor<4xf32>):
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_two_blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.kernel' op expects region #0 to have 0 or 1 blocks}}
  %0 = "fuse.kernel"(%x) <{kernel_name = "k"}> ({
  ^bb0(%a: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  ^bb1:
    fuse.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_missing_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{requires attribute 'kernel_name'}}
  %0 = "fuse.kernel"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @kernel_bad_config_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{attribute 'config' failed to satisfy constraint}}
  %0 = fuse.kernel "k" ins(%x : tensor<4xf32>) {config = 1 : i64} -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    fuse.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_outside_kernel(%x: tensor<4xf32>) {
  // expected-error@+1 {{'fuse.yield' op expects parent op 'fuse.kernel'}}
  fuse.yield %x : tensor<4xf32>
}

// -----

func.func @kernel_not_isolated(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note@+1 {{required by region isolation constraints}}
  %0 = fuse.kernel "k" ins() -> tensor<4xf32> {
    // expected-error@+1 {{'fuse.relu' op using value defined outside the region}}
    %r = fuse.relu %x : tensor<4xf32>
    fuse.yield %r : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// #fuse.tile (TileConfigAttr::verify)
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{tile config sizes must be positive}}
func.func @tile_zero() attributes {cfg = #fuse.tile<tileW = 64, tileC = 0, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+1 {{tile config sizes must be positive}}
func.func @tile_negative_chunk() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = -16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+1 {{tileW (60) must be a multiple of threadsW (16)}}
func.func @tile_w_multiple() attributes {cfg = #fuse.tile<tileW = 60, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+1 {{threadsW * threadsC = 2048 exceeds 1024 threads per block}}
func.func @tile_too_many_threads() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 32, threadsC = 64, chanPerThread = 1, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+2 {{expected ::fusecc::fuse::ConvMath to be one of: ieee, tf32, tf32x3, bf16, f16}}
// expected-error@+1 {{failed to parse}}
func.func @tile_bad_math() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <fp16, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// #fuse.types (KernelTypesAttr::verify): operands of the math's type (or
// f32 on the FMA path), f32 accumulators and statistics, f32/bf16/f16
// storage.
// expected-error@+1 {{operand of tf32 math must be 'tf32' (tensor cores) or f32 (FMA), got 'bf16'}}
func.func @types_operand() attributes {t = #fuse.types<tf32, storage = f32, operand = bf16, accumulator = f32, statistics = f32>} {
  return
}

// -----

// expected-error@+1 {{statistics must be f32, got 'f16'}}
func.func @types_statistics() attributes {t = #fuse.types<f16, storage = f16, operand = f16, accumulator = f32, statistics = f16>} {
  return
}

// -----

// expected-error@+1 {{accumulator must be f32, got 'bf16'}}
func.func @types_accumulator() attributes {t = #fuse.types<bf16, storage = f32, operand = bf16, accumulator = bf16, statistics = f32>} {
  return
}

// -----

// expected-error@+1 {{storage must be f32, bf16 or f16, got 'i32'}}
func.func @types_storage() attributes {t = #fuse.types<ieee, storage = i32, operand = f32, accumulator = f32, statistics = f32>} {
  return
}

// -----

// The operand type is the path's: tf32 on the tensor cores, f32 on FMA.
// expected-error@+1 {{operand type must be 'tf32' for tf32 math on the tensor cores, got 'f32'}}
func.func @tile_operand_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2>} {
  return
}

// -----

// expected-error@+1 {{operand type must be 'f32' for bf16 math on the FMA units, got 'bf16'}}
func.func @tile_operand_fma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+1 {{struct is missing required parameter: types}}
func.func @tile_missing_param() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16>} {
  return
}

// -----

// expected-error@+1 {{rows must be positive, got 0}}
func.func @tile_rows_zero() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>, rows = 0>} {
  return
}

// -----

// expected-error@+1 {{rows > 1 needs the tensor-core path}}
func.func @tile_rows_without_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>, rows = 2>} {
  return
}

// -----

// expected-error@+1 {{tensor-core tile sizes must all be positive}}
func.func @tile_mma_partial() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2>} {
  return
}

// -----

// expected-error@+1 {{tensor cores (mma tiles) need tf32, tf32x3, bf16 or f16 math, got ieee}}
func.func @tile_mma_ieee() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2>} {
  return
}

// -----

// Split-operand tensor cores (ieee on mma.sync or wgmma) without them.
// expected-error@+1 {{math tf32x3 needs the tensor-core path}}
func.func @tile_split_fma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>>} {
  return
}

// -----

// expected-error@+1 {{tileC (64) must be 16 * mmaWarpsC * mmaTilesC (32)}}
func.func @tile_mma_tile_c() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2>} {
  return
}

// -----

// expected-error@+1 {{ciChunk (4) must be a multiple of 8 with tensor cores}}
func.func @tile_mma_ci_chunk() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2>} {
  return
}

// -----

// expected-error@+1 {{mergeHTaps must be 0 or 1, got 2}}
func.func @tile_merge_h_two() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, mergeHTaps = 2>} {
  return
}

// -----

// expected-error@+1 {{mergeHTaps needs the tensor-core path}}
func.func @tile_merge_h_without_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>, mergeHTaps = 1>} {
  return
}

// -----

// expected-error@+1 {{a tile config uses either mma.sync tiles or wgmma, not both}}
func.func @tile_mma_and_wgmma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{wgmma needs tf32, tf32x3, bf16 or f16 math, got ieee}}
func.func @tile_wgmma_ieee() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// Half operands on wgmma: one k16 step per pair of 4-channel planes.
// expected-error@+1 {{ciChunk (8) must be a multiple of 16 with bf16 wgmma}}
func.func @tile_wgmma_half_chunk() attributes {cfg = #fuse.tile<tileW = 32, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>} {
  return
}

// -----

// expected-error@+1 {{wgmmaN must be a multiple of 8 in [8, 256], got 12}}
func.func @tile_wgmma_n() attributes {cfg = #fuse.tile<tileW = 24, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 12, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{tileC (96) must be a multiple of 64 with wgmma}}
func.func @tile_wgmma_tile_c() attributes {cfg = #fuse.tile<tileW = 64, tileC = 96, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{wgmmaGroups (3) must be a positive multiple of tileC / 64 (2)}}
func.func @tile_wgmma_groups() attributes {cfg = #fuse.tile<tileW = 64, tileC = 128, threadsW = 8, threadsC = 48, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 3>} {
  return
}

// -----

// expected-error@+1 {{tileW (60) must be stride_w * wgmmaN, a multiple of wgmmaN (32)}}
func.func @tile_wgmma_tile_w() attributes {cfg = #fuse.tile<tileW = 60, tileC = 64, threadsW = 4, threadsC = 64, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{threadsW * threadsC (128) must be 128 * wgmmaGroups (256)}}
func.func @tile_wgmma_threads() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{ciChunk (4) must be a multiple of 8 with wgmma}}
func.func @tile_wgmma_ci_chunk() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{rows (1) must be a multiple of the warpgroups per channel group (2)}}
func.func @tile_wgmma_rows() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 2>} {
  return
}

// -----

// expected-error@+1 {{clusterC must be 1, 2, 4 or 8, got 3}}
func.func @tile_cluster_three() attributes {cfg = #fuse.tile<tileW = 144, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 72, wgmmaGroups = 2, clusterC = 3>} {
  return
}

// -----

// expected-error@+1 {{mmaPositionsM must be 0 or 1, got 2}}
func.func @tile_positions_m_two() attributes {cfg = #fuse.tile<tileW = 64, tileC = 3, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 1, mmaPositionsM = 2>} {
  return
}

// -----

// expected-error@+1 {{wgmma with positions on M takes at most 64 positions a phase (wgmmaN, got 128) and 64 channels (tileC, got 64)}}
func.func @tile_positions_m_wgmma_n() attributes {cfg = #fuse.tile<tileW = 512, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 128, wgmmaGroups = 2, mmaPositionsM = 1, wgmmaPhaseSplit = 2>} {
  return
}

// -----

// expected-error@+1 {{tileC (12) must need all of the mmaTilesC 8-channel N tiles (1) with positions on M}}
func.func @tile_positions_m_channels() attributes {cfg = #fuse.tile<tileW = 64, tileC = 12, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 1, mmaPositionsM = 1>} {
  return
}

// -----

// expected-error@+1 {{mmaWarpsC must be 1 with positions on M, got 2}}
func.func @tile_positions_m_warps() attributes {cfg = #fuse.tile<tileW = 64, tileC = 8, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 1, mmaPositionsM = 1>} {
  return
}

// -----

// expected-error@+1 {{mmaPositionsM needs mma.sync tiles}}
func.func @tile_positions_m_fma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>, mmaPositionsM = 1>} {
  return
}

// -----

// expected-error@+1 {{clusterC > 1 needs the wgmma path}}
func.func @tile_cluster_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, clusterC = 2>} {
  return
}

// -----

func.func @ls_dim(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'fuse.log_softmax' op dim 3 is out of range for a rank-3 tensor (expected 0..2)}}
  %0 = fuse.log_softmax %x {dim = 3 : i64} : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @ls_negative_dim(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'fuse.log_softmax' op dim -1 is out of range for a rank-3 tensor (expected 0..2)}}
  %0 = fuse.log_softmax %x {dim = -1 : i64} : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @ls_empty(%x: tensor<2x0x5xf32>) -> tensor<2x0x5xf32> {
  // expected-error @+1 {{'fuse.log_softmax' op dim 1 has size 0 (an empty set)}}
  %0 = fuse.log_softmax %x {dim = 1 : i64} : tensor<2x0x5xf32>
  return %0 : tensor<2x0x5xf32>
}

// -----

// expected-error@+1 {{wgmmaPhaseSplit must be positive, got 0}}
func.func @tile_phase_split_zero() attributes {cfg = #fuse.tile<tileW = 512, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 64, wgmmaGroups = 1, wgmmaPhaseSplit = 0>} {
  return
}

// -----

// expected-error@+1 {{wgmmaPhaseSplit > 1 needs wgmma with one row per warpgroup, wgmmaGroups = tileC / 64 x rows x wgmmaPhaseSplit, no samples, merged H taps or cluster}}
func.func @tile_phase_split_rows() attributes {cfg = #fuse.tile<tileW = 512, tileC = 64, threadsW = 8, threadsC = 64, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 64, wgmmaGroups = 4, wgmmaPhaseSplit = 4>} {
  return
}

// -----

// expected-error@+1 {{samples must not be negative, got -1}}
func.func @tile_samples_negative() attributes {cfg = #fuse.tile<tileW = 32, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1, samples = -1>} {
  return
}

// -----

// expected-error@+1 {{samples > 0 needs wgmma with no merged H taps, no channel cluster and rows a multiple of samples}}
func.func @tile_samples_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, samples = 2>} {
  return
}
