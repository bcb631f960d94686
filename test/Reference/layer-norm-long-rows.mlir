// RUN: fusecc-check %s | FileCheck %s
// A layer_norm over a last dim longer than any convolution tile holds
// (fuse::maxTileRowWidth: 2048 at W stride 1, 8192 at 32) is normalised by
// a kernel of its own after the convolution (issue 37: rand37_13, rand37_49,
// rand37_12): its statistics are planned phases in f32 (split over blocks
// where the row is longer than the warp set limit).

// CHECK: @long_row_stride1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @long_row_grouped_gelu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @long_row_upscore: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @long_row_stride1(%x: tensor<1x2x2048xf32>, %w: tensor<2x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x2050xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x2x2048xf32>, tensor<2x3x3xf32>, tensor<3xf32>) -> tensor<1x3x2050xf32>
  %1 = fuse.layer_norm %0 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x3x2050xf32>
  return %1 : tensor<1x3x2050xf32>
}

// rand37_13 in small: depthwise, strides (2, 1), W dilation 2, then gelu.
func.func @long_row_grouped_gelu(%x: tensor<1x2x2x2048xf32>, %w: tensor<2x1x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x2050xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, output_padding = array<i64: 1, 0>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<1x2x2x2048xf32>, tensor<2x1x3x2xf32>, tensor<2xf32>) -> tensor<1x2x4x2050xf32>
  %1 = fuse.layer_norm %0 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x2x4x2050xf32>
  %2 = fuse.gelu %1 : tensor<1x2x4x2050xf32>
  return %2 : tensor<1x2x4x2050xf32>
}

// rand37_12 in small: stride 32, kernel 64, an affine layer_norm over a row
// of 9600 (longer than one warp's set: partial statistics, then combine).
func.func @long_row_upscore(%x: tensor<1x2x300xf32>, %w: tensor<2x1x64xf32>, %b: tensor<2xf32>, %g: tensor<9600xf32>, %beta: tensor<9600xf32>) -> tensor<1x2x9600xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64} : (tensor<1x2x300xf32>, tensor<2x1x64xf32>, tensor<2xf32>) -> tensor<1x2x9600xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<9600xf32>) bias(%beta : tensor<9600xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x2x9600xf32>
  return %1 : tensor<1x2x9600xf32>
}
