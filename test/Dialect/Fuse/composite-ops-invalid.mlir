// RUN: fusecc-opt %s -split-input-file -verify-diagnostics
// Every diagnostic of the composite ops' verifiers.

func.func @bn_rank(%x: tensor<4x5xf32>, %s: tensor<5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected an input of rank 3, 4 or 5 ([N, C, *spatial] with 1 to 3 spatial dims), got rank 2}}
  %0 = fuse.batch_norm %x, %s, %s : (tensor<4x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @bn_empty(%x: tensor<0x5x3xf32>, %s: tensor<5xf32>) -> tensor<0x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected every input dim to be positive (empty tensors are not supported), got input shape [0, 5, 3]}}
  %0 = fuse.batch_norm %x, %s, %s : (tensor<0x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<0x5x3xf32>
  return %0 : tensor<0x5x3xf32>
}

// -----

func.func @bn_result(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x4xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected result #0 of the input's type 'tensor<2x5x3xf32>', got 'tensor<2x5x4xf32>'}}
  %0 = fuse.batch_norm %x, %s, %s : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x4xf32>
  return %0 : tensor<2x5x4xf32>
}

// -----

func.func @bn_running_mean(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>, %t: tensor<3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected running_mean of shape [5] (one per channel), got 'tensor<3xf32>'}}
  %0 = fuse.batch_norm %x, %t, %s : (tensor<2x5x3xf32>, tensor<3xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_running_var(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>, %t: tensor<5x1xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected running_var of shape [5] (one per channel), got 'tensor<5x1xf32>'}}
  %0 = fuse.batch_norm %x, %s, %t : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5x1xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_weight(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>, %t: tensor<1xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected weight of shape [5] (one per channel), got 'tensor<1xf32>'}}
  %0 = fuse.batch_norm %x, %s, %s weight(%t) bias(%s) : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>, tensor<1xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_bias(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>, %t: tensor<f32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected bias of shape [5] (one per channel), got 'tensor<f32>'}}
  %0 = fuse.batch_norm %x, %s, %s bias(%t) : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>, tensor<f32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_eps_negative(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 'epsilon' to be a non-negative value representable in f32, got -1.000000e-05}}
  %0 = fuse.batch_norm %x, %s, %s {epsilon = -1.0e-05 : f64} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_eps_f32_overflow(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 'epsilon' to be a non-negative value representable in f32, got 1.000000e+39}}
  %0 = fuse.batch_norm %x, %s, %s {epsilon = 1.0e+39 : f64} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_eps_nan(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 'epsilon' to be a non-negative value representable in f32, got nan}}
  %0 = fuse.batch_norm %x, %s, %s {epsilon = 0x7FF8000000000000 : f64} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_momentum_above_one(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 'momentum' in [0, 1], got 1.500000e+00}}
  %0 = fuse.batch_norm %x, %s, %s {training = true, momentum = 1.5 : f64} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_momentum_negative(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 'momentum' in [0, 1], got -1.000000e-01}}
  %0 = fuse.batch_norm %x, %s, %s {momentum = -0.1 : f64} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_two_results(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected 1 or 3 results (the output, then optionally the updated running mean and variance), got 2}}
  %0, %1 = fuse.batch_norm %x, %s, %s {training = true} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x5x3xf32>, tensor<5xf32>)
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_stats_inference(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op the updated running statistics (results #1 and #2) need training = true}}
  %0:3 = fuse.batch_norm %x, %s, %s : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>)
  return %0#0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_stats_shape(%x: tensor<2x5x3xf32>, %s: tensor<5xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op expected result #2 (the updated running variance) of shape [5], got 'tensor<1x5x1xf32>'}}
  %0:3 = fuse.batch_norm %x, %s, %s {training = true} : (tensor<2x5x3xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<2x5x3xf32>, tensor<5xf32>, tensor<1x5x1xf32>)
  return %0#0 : tensor<2x5x3xf32>
}

// -----

func.func @bn_training_one_value(%x: tensor<1x5x1x1xf32>, %s: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  // expected-error @+1 {{'fuse.batch_norm' op training needs more than one value per channel (N * spatial is 1), as in PyTorch}}
  %0 = fuse.batch_norm %x, %s, %s {training = true} : (tensor<1x5x1x1xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<1x5x1x1xf32>
  return %0 : tensor<1x5x1x1xf32>
}

// -----

// Inference reads no batch statistics: one value per channel is fine.
func.func @bn_inference_one_value(%x: tensor<1x5x1x1xf32>, %s: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %0 = fuse.batch_norm %x, %s, %s : (tensor<1x5x1x1xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<1x5x1x1xf32>
  return %0 : tensor<1x5x1x1xf32>
}

// -----

func.func @in_rank(%x: tensor<2x3x4x5x6x7xf32>) -> tensor<2x3x4x5x6x7xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected an input of rank 3, 4 or 5 ([N, C, *spatial] with 1 to 3 spatial dims), got rank 6}}
  %0 = fuse.instance_norm %x : tensor<2x3x4x5x6x7xf32>
  return %0 : tensor<2x3x4x5x6x7xf32>
}

// -----

func.func @in_empty(%x: tensor<2x3x0xf32>) -> tensor<2x3x0xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected every input dim to be positive (empty tensors are not supported), got input shape [2, 3, 0]}}
  %0 = fuse.instance_norm %x : tensor<2x3x0xf32>
  return %0 : tensor<2x3x0xf32>
}

// -----

func.func @in_one_spatial(%x: tensor<2x3x1x1xf32>) -> tensor<2x3x1x1xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected more than one spatial element per (sample, channel) (as PyTorch), got spatial shape [1, 1]}}
  %0 = fuse.instance_norm %x : tensor<2x3x1x1xf32>
  return %0 : tensor<2x3x1x1xf32>
}

// -----

func.func @in_weight(%x: tensor<2x3x5xf32>, %w: tensor<5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected weight of shape [3] (one per channel), got 'tensor<5xf32>'}}
  %0 = fuse.instance_norm %x weight(%w : tensor<5xf32>) : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @in_bias(%x: tensor<2x3x5xf32>, %w: tensor<3xf32>, %b: tensor<1x3xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected bias of shape [3] (one per channel), got 'tensor<1x3xf32>'}}
  %0 = fuse.instance_norm %x weight(%w : tensor<3xf32>) bias(%b : tensor<1x3xf32>) : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @in_eps(%x: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op expected 'epsilon' to be a non-negative value representable in f32, got -1.000000e+00}}
  %0 = fuse.instance_norm %x {epsilon = -1.0 : f64} : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @in_result(%x: tensor<2x3x5xf32>) -> tensor<2x3x6xf32> {
  // expected-error @+1 {{'fuse.instance_norm' op failed to verify that all of {input, result} have same type}}
  %0 = "fuse.instance_norm"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x3x5xf32>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}
