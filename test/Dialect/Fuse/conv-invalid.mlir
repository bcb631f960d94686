// RUN: fusecc-opt %s -split-input-file -verify-diagnostics
// Every diagnostic of fuse.conv's verifier, and the forward_weight checks of
// fuse.conv_transpose.

func.func @rank(%x: tensor<2x4xf32>, %w: tensor<8x4xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'fuse.conv' op expected input of rank 3, 4 or 5 ([N, Cin, *spatial] with 1 to 3 spatial dims), got rank 2}}
  %0 = fuse.conv %x, %w {stride = array<i64>, padding = array<i64>, dilation = array<i64>} : (tensor<2x4xf32>, tensor<8x4xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @weight_rank(%x: tensor<2x4x5xf32>, %w: tensor<8x4xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{'fuse.conv' op expected weight of rank 3 ([Cout, Cin/groups, *kernel]), got rank 2}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<8x4xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}

// -----

func.func @stride_count(%x: tensor<2x4x5xf32>, %w: tensor<8x4x1xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{'fuse.conv' op expected 'stride' to have 1 entries (one per spatial dim), got 2}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<8x4x1xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}

// -----

func.func @dilation_zero(%x: tensor<2x4x5xf32>, %w: tensor<8x4x1xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{'fuse.conv' op expected every 'dilation' entry >= 1, got 0}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 0>} : (tensor<2x4x5xf32>, tensor<8x4x1xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}

// -----

func.func @groups(%x: tensor<2x4x5xf32>, %w: tensor<6x2x1xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{'fuse.conv' op groups (4) must be positive and divide the input channels (4) and the output channels (6)}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, groups = 4 : i64} : (tensor<2x4x5xf32>, tensor<6x2x1xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

func.func @weight_cin(%x: tensor<2x4x5xf32>, %w: tensor<8x4x1xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{'fuse.conv' op weight dim 1 must equal the input channels per group (2), got weight shape [8, 4, 1]}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64} : (tensor<2x4x5xf32>, tensor<8x4x1xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}

// -----

func.func @result_channels(%x: tensor<2x4x5xf32>, %w: tensor<8x4x1xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{'fuse.conv' op expected result batch 2 and channels 8 (weight dim 0), got result shape [2, 6, 5]}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<8x4x1xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

func.func @bias(%x: tensor<2x4x5xf32>, %w: tensor<8x4x1xf32>, %b: tensor<4xf32>) -> tensor<2x8x5xf32> {
  // expected-error @+1 {{'fuse.conv' op expected bias of shape [8], got [4]}}
  %0 = fuse.conv %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<8x4x1xf32>, tensor<4xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}

// -----

func.func @padding_past_reach(%x: tensor<2x4x5xf32>, %w: tensor<8x4x3xf32>) -> tensor<2x8x9xf32> {
  // expected-error @+1 {{'fuse.conv' op padding[0] = 3 exceeds dilation * (kernel - 1) = 2 (a window wholly in the padding is not supported)}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 3>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<8x4x3xf32>) -> tensor<2x8x9xf32>
  return %0 : tensor<2x8x9xf32>
}

// -----

func.func @no_window(%x: tensor<2x4x2xf32>, %w: tensor<8x4x5xf32>) -> tensor<2x8x1xf32> {
  // expected-error @+1 {{'fuse.conv' op no window fits along spatial dim 0 (in = 2, padding = 0 + 0, dilation * (kernel - 1) = 4)}}
  %0 = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x2xf32>, tensor<8x4x5xf32>) -> tensor<2x8x1xf32>
  return %0 : tensor<2x8x1xf32>
}

// -----

func.func @result_size(%x: tensor<2x4x9xf32>, %w: tensor<8x4x3xf32>) -> tensor<2x8x9xf32> {
  // expected-error @+1 {{'fuse.conv' op result spatial dim 0 is 9, expected 5 = floor((in + padding + padding_end - dilation * (kernel - 1) - 1) / stride) + 1}}
  %0 = fuse.conv %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, dilation = array<i64: 1>} : (tensor<2x4x9xf32>, tensor<8x4x3xf32>) -> tensor<2x8x9xf32>
  return %0 : tensor<2x8x9xf32>
}

// -----

func.func @forward_groups(%x: tensor<2x4x5xf32>, %w: tensor<6x2x3xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{'fuse.conv_transpose' op groups (4) must divide the forward weight's dim 0 (Cout), got weight shape [6, 2, 3]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 4 : i64, forward_weight} : (tensor<2x4x5xf32>, tensor<6x2x3xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

func.func @forward_cin(%x: tensor<2x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<2x6x5xf32> {
  // expected-error @+1 {{'fuse.conv_transpose' op forward weight dim 1 must equal the input channels per group (2), got weight shape [6, 4, 3]}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64, forward_weight} : (tensor<2x4x5xf32>, tensor<6x4x3xf32>) -> tensor<2x6x5xf32>
  return %0 : tensor<2x6x5xf32>
}

// -----

func.func @forward_result(%x: tensor<2x4x5xf32>, %w: tensor<6x4x3xf32>) -> tensor<2x4x5xf32> {
  // expected-error @+1 {{'fuse.conv_transpose' op result channels (4) must equal weight dim 0 (6)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, forward_weight} : (tensor<2x4x5xf32>, tensor<6x4x3xf32>) -> tensor<2x4x5xf32>
  return %0 : tensor<2x4x5xf32>
}
