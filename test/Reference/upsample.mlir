// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc --emit=plan %s | FileCheck %s --check-prefix=PLAN
// fuse.upsample (F.interpolate nearest / linear, align_corners both ways,
// sizes and scale factors): alone (an elementwise kernel), and in front of
// a convolution, where a nearest upsample (one read per element) folds
// into the convolution's input staging.

// CHECK: @nearest_x2: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @nearest_sizes_5_to_7: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bilinear: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bilinear_align: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @linear1d_scale: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @trilinear_down: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @nearest_then_conv: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @bilinear_then_conv_transpose: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @nearest_then_rgb_conv: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// PLAN-LABEL: plan @nearest_then_conv
// PLAN: upsample folded into input staging
// PLAN-LABEL: plan @bilinear_then_conv_transpose

func.func @nearest_x2(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x8x10xf32> {
  %y = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<2x3x4x5xf32> -> tensor<2x3x8x10xf32>
  return %y : tensor<2x3x8x10xf32>
}

func.func @nearest_sizes_5_to_7(%x: tensor<1x2x5x3xf32>) -> tensor<1x2x7x4xf32> {
  %y = fuse.upsample %x : tensor<1x2x5x3xf32> -> tensor<1x2x7x4xf32>
  return %y : tensor<1x2x7x4xf32>
}

func.func @bilinear(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x9x10xf32> {
  %y = fuse.upsample %x {linear} : tensor<1x3x4x5xf32> -> tensor<1x3x9x10xf32>
  return %y : tensor<1x3x9x10xf32>
}

func.func @bilinear_align(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x9x1xf32> {
  %y = fuse.upsample %x {linear, align_corners} : tensor<1x3x4x5xf32> -> tensor<1x3x9x1xf32>
  return %y : tensor<1x3x9x1xf32>
}

func.func @linear1d_scale(%x: tensor<2x3x7xf32>) -> tensor<2x3x17xf32> {
  %y = fuse.upsample %x {linear, scales = array<f64: 2.5>} : tensor<2x3x7xf32> -> tensor<2x3x17xf32>
  return %y : tensor<2x3x17xf32>
}

func.func @trilinear_down(%x: tensor<1x2x4x6x5xf32>) -> tensor<1x2x3x4x2xf32> {
  %y = fuse.upsample %x {linear} : tensor<1x2x4x6x5xf32> -> tensor<1x2x3x4x2xf32>
  return %y : tensor<1x2x3x4x2xf32>
}

// A decoder stage: nearest x2 then a 3x3 convolution and SiLU.
func.func @nearest_then_conv(%x: tensor<1x8x4x4xf32>, %w: tensor<16x8x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %u = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<1x8x4x4xf32> -> tensor<1x8x8x8xf32>
  %c = fuse.conv %u, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %y = fuse.silu %c : tensor<1x16x8x8xf32>
  return %y : tensor<1x16x8x8xf32>
}

func.func @bilinear_then_conv_transpose(%x: tensor<1x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x11x11xf32> {
  %u = fuse.upsample %x {linear, align_corners} : tensor<1x4x3x3xf32> -> tensor<1x4x6x6xf32>
  %c = fuse.conv_transpose %u, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x11x11xf32>
  return %c : tensor<1x8x11x11xf32>
}

// A decoder's RGB layer (vae_decoder's conv_out): nearest x2 then a 3x3
// convolution to 3 channels. Its input staging (one word per slot through
// the prologue) issues the loads of several slots before their stores,
// in batches that do not divide the slots (stores guarded).
func.func @nearest_then_rgb_conv(%x: tensor<1x32x6x12xf32>, %w: tensor<3x32x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x12x24xf32> {
  %u = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<1x32x6x12xf32> -> tensor<1x32x12x24xf32>
  %c = fuse.conv %u, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x32x12x24xf32>, tensor<3x32x3x3xf32>, tensor<3xf32>) -> tensor<1x3x12x24xf32>
  return %c : tensor<1x3x12x24xf32>
}
