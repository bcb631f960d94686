// RUN: fusecc-opt %s -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --fuse-specialize-batch='max-batch=8' -verify-diagnostics

// Graphs a dynamic-batch bundle cannot serve: each op that mixes samples
// is a located error naming it (DynamicBatch.cpp).

func.func @sum_over_batch(%x: tensor<?x4x8xf32>) -> tensor<4x8xf32> {
  // expected-error@+1 {{'fuse.sum' op mixes the batch into its other dims: result 0 has type 'tensor<4x8xf32>', whose dim 0 is not the dynamic batch ('?') of its operands}}
  %0 = fuse.sum %x {dims = array<i64: 0>} : tensor<?x4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @mean_keepdim_batch(%x: tensor<?x4x8xf32>) -> tensor<?x4x1xf32> {
  // expected-error@+1 {{'fuse.mean' op reduces over the batch dim (dim 0): batch statistics need every sample, which a dynamic-batch bundle does not have at compile time; not supported with a dynamic batch}}
  %0 = fuse.mean %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<?x4x8xf32> -> tensor<?x4x1xf32>
  return %0 : tensor<?x4x1xf32>
}

// -----

func.func @softmax_batch(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'fuse.softmax' op normalises over the batch dim (dim 0)}}
  %0 = fuse.softmax %x {dim = 0 : i64} : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @layer_norm_all(%x: tensor<?x4x8xf32>) -> tensor<?x4x8xf32> {
  // expected-error@+1 {{'fuse.layer_norm' op normalises over every dim, the batch included}}
  %0 = fuse.layer_norm %x {normalized_rank = 3 : i64, epsilon = 1.0e-05 : f64} : tensor<?x4x8xf32>
  return %0 : tensor<?x4x8xf32>
}

// -----

func.func @bn_training(%x: tensor<?x4x8x8xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<?x4x8x8xf32> {
  // expected-error@+1 {{'fuse.batch_norm' op is a training-mode batch_norm (statistics over dims 0, 2, ...)}}
  %0 = fuse.batch_norm %x, %m, %v {training = true} : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// -----

func.func @reshape_folds_batch(%x: tensor<?x4x8xf32>) -> tensor<32xf32> {
  // expected-error@+1 {{'fuse.reshape' op mixes the batch into its other dims}}
  %0 = fuse.reshape %x : tensor<?x4x8xf32> -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// -----

func.func @concat_batch(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'fuse.concat' op concatenates along the batch dim (dim 0); not supported with a dynamic batch}}
  %0 = fuse.concat %x, %y {dim = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @batched_weight(%x: tensor<?x4x8x8xf32>, %w: tensor<?x4x3x3xf32>) -> tensor<?x4x10x10xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op has a batched operand 1 (a weight or parameter); only its input may carry the batch}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<?x4x8x8xf32>, tensor<?x4x3x3xf32>) -> tensor<?x4x10x10xf32>
  return %0 : tensor<?x4x10x10xf32>
}

// -----

func.func @broadcast_rank(%x: tensor<?x4xf32>, %y: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // expected-error@+1 {{'fuse.add' op mixes the batch into its other dims}}
  %0 = fuse.add %x, %y : tensor<?x4xf32>, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @inner_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}
// expected-error@-3 {{argument 0 has type 'tensor<?x?xf32>': only the leading (batch) dim may be dynamic}}

// -----

func.func @unbatched_source(%w: tensor<1x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'fuse.add' op result 0 has a dynamic batch dim but no operand has one}}
  %0 = fuse.add %w, %w : tensor<1x4xf32>, tensor<1x4xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
