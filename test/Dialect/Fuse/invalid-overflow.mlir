// RUN: fusecc-opt %s -split-input-file -verify-diagnostics
//
// Issue 17: sizes and attributes that int64 / f32 cannot represent are
// rejected by the verifiers (no wrapped output size, tensor size or
// attribute reaches the passes).

// padding of INT64_MAX: 2 * padding overflows (it used to wrap to a
// plausible output size).
func.func @padding_int64_max(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x17x17xf32> {
  // expected-error@+1 {{output size along spatial dim 0 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1 overflows int64 (in = 8, stride = 2, padding = 9223372036854775807, dilation = 1, k = 3, output_padding = 0)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 9223372036854775807, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x17x17xf32>
  return %0 : tensor<1x4x17x17xf32>
}

// -----

func.func @stride_overflow(%x: tensor<1x1x3xf32>, %w: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  // expected-error@+1 {{output size along spatial dim 0 = (in - 1) * stride - 2 * padding + dilation * (k - 1) + output_padding + 1 overflows int64 (in = 3, stride = 9223372036854775807}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 9223372036854775807>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

func.func @dilation_overflow(%x: tensor<1x1x1xf32>, %w: tensor<1x1x3xf32>) -> tensor<1x1x1xf32> {
  // expected-error@+1 {{overflows int64 (in = 1, stride = 1, padding = 0, dilation = 4611686018427387904, k = 3, output_padding = 0)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 4611686018427387904>} : (tensor<1x1x1xf32>, tensor<1x1x3xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// -----

// An output of 2^64 elements (2^32 channels x 2^32 positions): its element
// count used to wrap to 0.
func.func @output_2_64_elements(%x: tensor<1x1x4294967296xf32>, %w: tensor<1x4294967296x1xf32>) -> tensor<1x4294967296x4294967296xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op result #0 of type 'tensor<1x4294967296x4294967296xf32>' needs more than 2^62 bytes (4611686018427387904), the largest tensor fusecc accepts}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x1x4294967296xf32>, tensor<1x4294967296x1xf32>) -> tensor<1x4294967296x4294967296xf32>
  return %0 : tensor<1x4294967296x4294967296xf32>
}

// -----

// A batch of 2^63 - 1: the grid size computed from it used to wrap to -2.
func.func @batch_int64_max(%x: tensor<9223372036854775807x1x1xf32>, %w: tensor<1x1x1xf32>) -> tensor<9223372036854775807x1x1xf32> {
  // expected-error@+1 {{operand #0 of type 'tensor<9223372036854775807x1x1xf32>' needs more than 2^62 bytes}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<9223372036854775807x1x1xf32>, tensor<1x1x1xf32>) -> tensor<9223372036854775807x1x1xf32>
  return %0 : tensor<9223372036854775807x1x1xf32>
}

// -----

// cout = weight dim 1 * groups beyond int64: every such weight or input is
// larger than 2^62 bytes and is rejected first.
func.func @cout_overflow(%x: tensor<1x4611686018427387904x1xf32>, %w: tensor<4611686018427387904x4x1xf32>) -> tensor<1x4x1xf32> {
  // expected-error@+1 {{operand #0 of type 'tensor<1x4611686018427387904x1xf32>' needs more than 2^62 bytes}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 4611686018427387904 : i64} : (tensor<1x4611686018427387904x1xf32>, tensor<4611686018427387904x4x1xf32>) -> tensor<1x4x1xf32>
  return %0 : tensor<1x4x1xf32>
}

// -----

// 2^62 channels: 2^64 bytes (it used to reach the NVVM lowering on
// --precision=tf32 --chip=sm_90a and fail there with an IR dump).
func.func @channels_2_62(%x: tensor<1x4611686018427387904x1xf32>) -> tensor<1x4611686018427387904x1xf32> {
  // expected-error@+1 {{'fuse.softmax' op operand #0 of type 'tensor<1x4611686018427387904x1xf32>' needs more than 2^62 bytes}}
  %0 = fuse.softmax %x {dim = 1 : i64} : tensor<1x4611686018427387904x1xf32>
  return %0 : tensor<1x4611686018427387904x1xf32>
}

// -----

// Exactly 2^62 bytes is accepted.
func.func @largest_tensor(%x: tensor<1152921504606846976xf32>) -> tensor<1152921504606846976xf32> {
  %0 = fuse.relu %x : tensor<1152921504606846976xf32>
  return %0 : tensor<1152921504606846976xf32>
}

// -----

func.func @elementwise_too_large(%x: tensor<1152921504606846977xf32>) -> tensor<1152921504606846977xf32> {
  // expected-error@+1 {{'fuse.relu' op operand #0 of type 'tensor<1152921504606846977xf32>' needs more than 2^62 bytes}}
  %0 = fuse.relu %x : tensor<1152921504606846977xf32>
  return %0 : tensor<1152921504606846977xf32>
}

// -----

func.func @leaky_relu_slope_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.leaky_relu' op expected 'slope' to be a finite value representable in f32 (magnitude at most 3.402823e+38), got 1.000000e+300}}
  %0 = fuse.leaky_relu %x {slope = 1.0e300} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @leaky_relu_slope_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{expected 'slope' to be a finite value representable in f32}}
  %0 = fuse.leaky_relu %x {slope = 0x7FF8000000000000 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_min_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.clamp' op expected 'min' to be a finite value representable in f32}}
  %0 = fuse.clamp %x {min = -1.0e39 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_max_inf(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'fuse.clamp' op expected 'max' to be a finite value representable in f32}}
  %0 = fuse.clamp %x {min = 0.0 : f64, max = 0x7FF0000000000000 : f64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @layer_norm_eps_f32(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error@+1 {{'fuse.layer_norm' op expected 'epsilon' to be a finite value representable in f32}}
  %0 = fuse.layer_norm %x {normalized_rank = 1 : i64, epsilon = 1.0e300 : f64} : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Empty tensors (found by hand while testing issue 17): a batch of 0 gave a
// bundle launching a grid of 0 blocks; 0 input or output channels crashed
// fusecc (SIGFPE in the tiling) or failed in the NVVM lowering.
func.func @empty_batch(%x: tensor<0x4x8xf32>, %w: tensor<4x4x3xf32>) -> tensor<0x4x10xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op expected every input dim to be positive (empty tensors are not supported), got input shape [0, 4, 8]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<0x4x8xf32>, tensor<4x4x3xf32>) -> tensor<0x4x10xf32>
  return %0 : tensor<0x4x10xf32>
}

// -----

func.func @empty_input_channels(%x: tensor<1x0x8xf32>, %w: tensor<0x4x3xf32>) -> tensor<1x4x10xf32> {
  // expected-error@+1 {{expected every input dim to be positive (empty tensors are not supported), got input shape [1, 0, 8]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x0x8xf32>, tensor<0x4x3xf32>) -> tensor<1x4x10xf32>
  return %0 : tensor<1x4x10xf32>
}

// -----

func.func @empty_input_width(%x: tensor<1x4x0xf32>, %w: tensor<4x4x5xf32>) -> tensor<1x4x4xf32> {
  // expected-error@+1 {{expected every input dim to be positive (empty tensors are not supported), got input shape [1, 4, 0]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x0xf32>, tensor<4x4x5xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

func.func @empty_output_channels(%x: tensor<1x4x8xf32>, %w: tensor<4x0x3xf32>) -> tensor<1x0x10xf32> {
  // expected-error@+1 {{expected weight dim 1 (Cout/groups) to be positive (empty tensors are not supported), got weight shape [4, 0, 3]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x8xf32>, tensor<4x0x3xf32>) -> tensor<1x0x10xf32>
  return %0 : tensor<1x0x10xf32>
}
