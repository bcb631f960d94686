// RUN: fusecc-opt %s -split-input-file -verify-diagnostics
// Every diagnostic of fuse.upsample's and fuse.concat's verifiers.

func.func @up_rank(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected an input [N, C, *spatial] with 1 to 3 spatial dims, got rank 2}}
  %0 = fuse.upsample %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @up_result_rank(%x: tensor<2x3x4xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected a result of rank 3 (the input's), got 4}}
  %0 = fuse.upsample %x : tensor<2x3x4xf32> -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @up_channels(%x: tensor<2x3x4xf32>) -> tensor<2x4x8xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected the result to keep N and C [2,3], got [2,4]}}
  %0 = fuse.upsample %x : tensor<2x3x4xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

func.func @up_align_nearest(%x: tensor<2x3x4xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'fuse.upsample' op align_corners needs linear interpolation (PyTorch rejects it for nearest)}}
  %0 = fuse.upsample %x {align_corners} : tensor<2x3x4xf32> -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @up_scale_count(%x: tensor<2x3x4xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected 1 scales (one per spatial dim), got 2}}
  %0 = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<2x3x4xf32> -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @up_scale_negative(%x: tensor<2x3x4xf32>) -> tensor<2x3x8xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected positive finite scales, got -2.000000e+00 for dim 2}}
  %0 = fuse.upsample %x {scales = array<f64: -2.0>} : tensor<2x3x4xf32> -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

func.func @up_scale_size(%x: tensor<2x3x4xf32>) -> tensor<2x3x9xf32> {
  // expected-error @+1 {{'fuse.upsample' op result dim 2 is 9, expected floor(4 * 2.000000e+00) = 8.000000e+00}}
  %0 = fuse.upsample %x {scales = array<f64: 2.0>} : tensor<2x3x4xf32> -> tensor<2x3x9xf32>
  return %0 : tensor<2x3x9xf32>
}

// -----

func.func @up_empty(%x: tensor<2x3x0xf32>) -> tensor<2x3x2xf32> {
  // expected-error @+1 {{'fuse.upsample' op expected non-empty spatial dims, dim 2 is 0 -> 2}}
  %0 = fuse.upsample %x : tensor<2x3x0xf32> -> tensor<2x3x2xf32>
  return %0 : tensor<2x3x2xf32>
}

// -----

func.func @cat_none() -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.concat' op expected at least one input}}
  %0 = fuse.concat {dim = 0 : i64} : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cat_dim(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'fuse.concat' op expected dim in [0, 2), got 2}}
  %0 = fuse.concat %a {dim = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cat_rank(%a: tensor<2x3xf32>, %b: tensor<2x3x1xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'fuse.concat' op expected input #1 of rank 2 (the result's), got [2,3,1]}}
  %0 = fuse.concat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x3x1xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @cat_other_dim(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'fuse.concat' op expected input #1 to match the result in every dim but 1: got [4,3] for result [2,6]}}
  %0 = fuse.concat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @cat_sum(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'fuse.concat' op expected the result's dim 1 to be the inputs' sum, got 6}}
  %0 = fuse.concat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
