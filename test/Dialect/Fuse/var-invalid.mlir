// RUN: fusecc-opt %s -split-input-file -verify-diagnostics

// fuse.var's verifier: the reduction checks it shares with sum and mean,
// then its correction against the set size.

func.func @var_negative_correction(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.var' op expected a non-negative 'correction', got -1}}
  %0 = fuse.var %x {dims = array<i64: 1>, correction = -1 : i64} : tensor<2x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @var_set_not_above_correction(%x: tensor<2x1x3xf32>) {
  // expected-error@+1 {{'fuse.var' op reduces sets of 1 element; expected more than 'correction' = 1 (the divisor n - correction must be positive)}}
  %0 = fuse.var %x {dims = array<i64: 1>} : tensor<2x1x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @var_set_equals_correction(%x: tensor<2x4x3xf32>) {
  // expected-error@+1 {{'fuse.var' op reduces sets of 6 elements; expected more than 'correction' = 6 (the divisor n - correction must be positive)}}
  %0 = fuse.var %x {dims = array<i64: 0, 2>, correction = 6 : i64} : tensor<2x4x3xf32> -> tensor<4xf32>
  return
}

// -----

func.func @var_no_dims(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.var' op expected at least one dim in 'dims'}}
  %0 = fuse.var %x {dims = array<i64>} : tensor<2x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @var_dim_out_of_range(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.var' op dim 2 is out of range for a rank-2 tensor (expected 0..1)}}
  %0 = fuse.var %x {dims = array<i64: 2>} : tensor<2x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @var_dim_twice(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.var' op dim 1 appears twice in 'dims'}}
  %0 = fuse.var %x {dims = array<i64: 1, 1>} : tensor<2x4xf32> -> tensor<2xf32>
  return
}

// -----

func.func @var_empty_set(%x: tensor<2x0xf32>) {
  // expected-error@+1 {{'fuse.var' op reduces dim 1 of size 0 (an empty set)}}
  %0 = fuse.var %x {dims = array<i64: 1>} : tensor<2x0xf32> -> tensor<2xf32>
  return
}

// -----

func.func @var_result_shape(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'fuse.var' op expected result shape [2,1,4], got [2,4]}}
  %0 = fuse.var %x {dims = array<i64: 1>, keepdim = true, correction = 0 : i64} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return
}
