// RUN: fusecc-check %s | FileCheck %s
// conv_transpose -> layer_norm over the last dim -> gelu -> * const
// (KernelBench 2/34), with and without the affine parameters.

// CHECK: @ln3d_gelu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ln2d_w7: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ln1d_noaffine: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ln2d_weightonly_w1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ln2d_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ln1d_w300: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @ln3d_gelu(%x0: tensor<1x3x2x3x3xf32>, %w1: tensor<3x5x4x4x4xf32>, %b2: tensor<5xf32>, %g3: tensor<6xf32>, %beta4: tensor<6xf32>) -> tensor<1x5x4x6x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3x3xf32>, tensor<3x5x4x4x4xf32>, tensor<5xf32>) -> tensor<1x5x4x6x6xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<6xf32>) bias(%beta4 : tensor<6xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x5x4x6x6xf32>
  %v2 = fuse.gelu %v1 : tensor<1x5x4x6x6xf32>
  %v3 = arith.constant dense<1.0> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<1x5x4x6x6xf32>, tensor<f32> -> tensor<1x5x4x6x6xf32>
  return %v4 : tensor<1x5x4x6x6xf32>
}

func.func @ln2d_w7(%x0: tensor<3x3x3x3xf32>, %w1: tensor<3x7x3x3xf32>, %b2: tensor<7xf32>, %g3: tensor<5xf32>, %beta4: tensor<5xf32>) -> tensor<3x7x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x3x3x3xf32>, tensor<3x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x5x5xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<5xf32>) bias(%beta4 : tensor<5xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<3x7x5x5xf32>
  %v2 = fuse.gelu %v1 : tensor<3x7x5x5xf32>
  %v3 = arith.constant dense<0.5> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<3x7x5x5xf32>, tensor<f32> -> tensor<3x7x5x5xf32>
  return %v4 : tensor<3x7x5x5xf32>
}

func.func @ln1d_noaffine(%x0: tensor<1x5x5xf32>, %w1: tensor<5x3x3xf32>, %b2: tensor<3xf32>) -> tensor<1x3x7xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x5x5xf32>, tensor<5x3x3xf32>, tensor<3xf32>) -> tensor<1x3x7xf32>
  %v1 = fuse.layer_norm %v0 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x3x7xf32>
  %v2 = fuse.gelu %v1 {approximate = "tanh"} : tensor<1x3x7xf32>
  return %v2 : tensor<1x3x7xf32>
}

func.func @ln2d_weightonly_w1(%x0: tensor<1x3x3x1xf32>, %w1: tensor<3x5x2x1xf32>, %b2: tensor<5xf32>, %g3: tensor<1xf32>) -> tensor<1x5x4x1xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x3x1xf32>, tensor<3x5x2x1xf32>, tensor<5xf32>) -> tensor<1x5x4x1xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<1xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-03 : f64} : tensor<1x5x4x1xf32>
  return %v1 : tensor<1x5x4x1xf32>
}

func.func @ln2d_wide(%x0: tensor<1x3x2x20xf32>, %w1: tensor<3x70x3x3xf32>, %b2: tensor<70xf32>, %g3: tensor<60xf32>, %beta4: tensor<60xf32>) -> tensor<1x70x6x60xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 2, 2>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x20xf32>, tensor<3x70x3x3xf32>, tensor<70xf32>) -> tensor<1x70x6x60xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<60xf32>) bias(%beta4 : tensor<60xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x70x6x60xf32>
  %v2 = fuse.gelu %v1 : tensor<1x70x6x60xf32>
  return %v2 : tensor<1x70x6x60xf32>
}


// A last dim of 300: the row takes 512-thread blocks (a 128-thread block
// would need 8 channels x 19 positions = 152 accumulators per thread).
func.func @ln1d_w300(%x: tensor<1x4x298xf32>, %w: tensor<4x64x3xf32>) -> tensor<1x64x300xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x298xf32>, tensor<4x64x3xf32>) -> tensor<1x64x300xf32>
  %1 = fuse.layer_norm %0 : tensor<1x64x300xf32>
  return %1 : tensor<1x64x300xf32>
}
