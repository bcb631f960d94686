// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc --emit=plan %s | FileCheck %s --check-prefix=PLAN
// fuse.concat of computed tensors and graph inputs: in front of a
// convolution it folds into the input staging (each staged element read
// from the input it lies in; no concatenated buffer), elsewhere it is
// evaluated per element.

// CHECK: @unet_stage: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @two_computed: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @returned: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @last_dim_then_add: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// PLAN-LABEL: plan @unet_stage
// PLAN: concat folded into input staging
// PLAN-LABEL: plan @two_computed
// PLAN: concat folded into input staging

// A pix2pix decoder stage: upsample by a transposed convolution, ReLU, cat
// with the encoder's skip tensor, 3x3 convolution, ReLU.
func.func @unet_stage(%x: tensor<1x16x4x4xf32>, %w: tensor<16x8x4x4xf32>, %b: tensor<8xf32>, %skip: tensor<1x8x8x8xf32>, %w2: tensor<8x16x3x3xf32>, %b2: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %u = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x4x4xf32>, tensor<16x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %r = fuse.relu %u : tensor<1x8x8x8xf32>
  %c = fuse.concat %r, %skip {dim = 1 : i64} : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>) -> tensor<1x16x8x8xf32>
  %y = fuse.conv %c, %w2, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<8x16x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %o = fuse.relu %y : tensor<1x8x8x8xf32>
  return %o : tensor<1x8x8x8xf32>
}

// Both inputs computed (two branches), channel counts 4 and 12, into a
// transposed convolution.
func.func @two_computed(%x: tensor<2x4x5x5xf32>, %w1: tensor<4x4x3x3xf32>, %w2: tensor<12x4x1x1xf32>, %w3: tensor<16x8x3x3xf32>) -> tensor<2x8x9x9xf32> {
  %a = fuse.conv %x, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x4x5x5xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x5x5xf32>
  %s = fuse.sigmoid %a : tensor<2x4x5x5xf32>
  %bb = fuse.conv %x, %w2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x5x5xf32>, tensor<12x4x1x1xf32>) -> tensor<2x12x5x5xf32>
  %c = fuse.concat %s, %bb {dim = 1 : i64} : (tensor<2x4x5x5xf32>, tensor<2x12x5x5xf32>) -> tensor<2x16x5x5xf32>
  %y = fuse.conv_transpose %c, %w3 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x16x5x5xf32>, tensor<16x8x3x3xf32>) -> tensor<2x8x9x9xf32>
  return %y : tensor<2x8x9x9xf32>
}

func.func @returned(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>, %c: tensor<2x1x4xf32>) -> tensor<2x9x4xf32> {
  %e = fuse.exp %b : tensor<2x5x4xf32>
  %y = fuse.concat %a, %e, %c {dim = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>, tensor<2x1x4xf32>) -> tensor<2x9x4xf32>
  return %y : tensor<2x9x4xf32>
}

func.func @last_dim_then_add(%a: tensor<2x3x4xf32>, %b: tensor<2x3x2xf32>, %d: tensor<2x3x6xf32>) -> tensor<2x3x6xf32> {
  %t = fuse.tanh %a : tensor<2x3x4xf32>
  %y = fuse.concat %t, %b {dim = 2 : i64} : (tensor<2x3x4xf32>, tensor<2x3x2xf32>) -> tensor<2x3x6xf32>
  %z = fuse.add %y, %d : tensor<2x3x6xf32>, tensor<2x3x6xf32> -> tensor<2x3x6xf32>
  return %z : tensor<2x3x6xf32>
}
