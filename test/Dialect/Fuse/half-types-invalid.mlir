// RUN: fusecc-opt %s -split-input-file -verify-diagnostics
// The element-type rule (docs/design/types.md): every tensor of an op has
// its first operand's element type; a normalisation's parameters may stay
// f32 on half data; fuse.cast converts.

func.func @binary_mix(%x: tensor<4xbf16>, %y: tensor<4xf32>) -> tensor<4xbf16> {
  // expected-error@+1 {{'fuse.add' op operand #1 has element type 'f32'; expected 'bf16', as operand #0 (all tensors of an op share one element type; fuse.cast converts)}}
  %0 = fuse.add %x, %y : tensor<4xbf16>, tensor<4xf32> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @binary_result(%x: tensor<4xf16>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.mul' op result #0 has element type 'f32'; expected 'f16', as operand #0}}
  %0 = fuse.mul %x, %y : tensor<4xf16>, tensor<4xf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @conv_weight(%x: tensor<1x2x3xbf16>, %w: tensor<2x2x3xf16>) -> tensor<1x2x5xbf16> {
  // expected-error@+1 {{'fuse.conv_transpose' op operand #1 has element type 'f16'; expected 'bf16', as operand #0}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<1x2x3xbf16>, tensor<2x2x3xf16>) -> tensor<1x2x5xbf16>
  return %0 : tensor<1x2x5xbf16>
}

// -----

func.func @conv_f32_bias(%x: tensor<1x2x3xbf16>, %w: tensor<2x2x3xbf16>, %b: tensor<2xf32>) -> tensor<1x2x5xbf16> {
  // A convolution's bias is no normalisation parameter: it shares the type.
  // expected-error@+1 {{'fuse.conv_transpose' op operand #2 has element type 'f32'; expected 'bf16', as operand #0}}
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64}
       : (tensor<1x2x3xbf16>, tensor<2x2x3xbf16>, tensor<2xf32>) -> tensor<1x2x5xbf16>
  return %0 : tensor<1x2x5xbf16>
}

// -----

func.func @norm_other_half(%x: tensor<2x5xf16>, %g: tensor<5xbf16>) -> tensor<2x5xf16> {
  // expected-error@+1 {{'fuse.layer_norm' op operand #1 has element type 'bf16'; expected 'f16' or f32, as operand #0 (all tensors of an op share one element type; parameters may stay f32; fuse.cast converts)}}
  %0 = fuse.layer_norm %x weight(%g : tensor<5xbf16>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x5xf16>
  return %0 : tensor<2x5xf16>
}

// -----

func.func @batch_norm_stats(%x: tensor<2x3x4xbf16>, %rm: tensor<3xf32>, %rv: tensor<3xf16>) -> tensor<2x3x4xbf16> {
  // expected-error@+1 {{'fuse.batch_norm' op operand #2 has element type 'f16'; expected 'bf16' or f32}}
  %0 = fuse.batch_norm %x, %rm, %rv : (tensor<2x3x4xbf16>, tensor<3xf32>, tensor<3xf16>) -> tensor<2x3x4xbf16>
  return %0 : tensor<2x3x4xbf16>
}

// -----

func.func @reduction_result(%x: tensor<2x8xbf16>) -> tensor<2x1xf32> {
  // expected-error@+1 {{'fuse.sum' op result #0 has element type 'f32'; expected 'bf16', as operand #0}}
  %0 = fuse.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<2x8xbf16> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

func.func @cast_shape(%x: tensor<4x8xf32>) -> tensor<8x4xbf16> {
  // expected-error@+1 {{'fuse.cast' op failed to verify that all of {input, result} have same shape}}
  %0 = fuse.cast %x : tensor<4x8xf32> -> tensor<8x4xbf16>
  return %0 : tensor<8x4xbf16>
}

// -----

func.func @cast_f64(%x: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error@+1 {{'fuse.cast' op result #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<4xf64>'}}
  %0 = fuse.cast %x : tensor<4xf32> -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// The decoder ops (issue 36) follow the same rule: a forward convolution's
// weight and bias, every input of a concatenation, an upsample's result.
func.func @fwd_conv_bias(%x: tensor<1x2x5xbf16>, %w: tensor<3x2x3xbf16>, %b: tensor<3xf32>) -> tensor<1x3x5xbf16> {
  // expected-error@+1 {{'fuse.conv' op operand #2 has element type 'f32'; expected 'bf16', as operand #0}}
  %0 = fuse.conv %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>}
       : (tensor<1x2x5xbf16>, tensor<3x2x3xbf16>, tensor<3xf32>) -> tensor<1x3x5xbf16>
  return %0 : tensor<1x3x5xbf16>
}

// -----

func.func @fwd_conv_result(%x: tensor<1x2x5xf16>, %w: tensor<3x2x3xf16>) -> tensor<1x3x5xf32> {
  // expected-error@+1 {{'fuse.conv' op result #0 has element type 'f32'; expected 'f16', as operand #0}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>}
       : (tensor<1x2x5xf16>, tensor<3x2x3xf16>) -> tensor<1x3x5xf32>
  return %0 : tensor<1x3x5xf32>
}

// -----

func.func @concat_mix(%a: tensor<1x2x4xf16>, %b: tensor<1x3x4xbf16>) -> tensor<1x5x4xf16> {
  // expected-error@+1 {{'fuse.concat' op operand #1 has element type 'bf16'; expected 'f16', as operand #0}}
  %0 = fuse.concat %a, %b {dim = 1 : i64} : (tensor<1x2x4xf16>, tensor<1x3x4xbf16>) -> tensor<1x5x4xf16>
  return %0 : tensor<1x5x4xf16>
}

// -----

func.func @upsample_result(%x: tensor<1x2x4xbf16>) -> tensor<1x2x8xf32> {
  // expected-error@+1 {{'fuse.upsample' op result #0 has element type 'f32'; expected 'bf16', as operand #0}}
  %0 = fuse.upsample %x : tensor<1x2x4xbf16> -> tensor<1x2x8xf32>
  return %0 : tensor<1x2x8xf32>
}
