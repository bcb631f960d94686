// RUN: fusecc-check --precision=ieee %s | FileCheck %s --check-prefix=IEEE
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s --check-prefix=TF32
// Weight staging with kw % 4 == 0 (kw = 4, 8) and kw = 3, multi-row tf32
// configs (rows = 4 for all three tf32 tensor-core kernels here).

// IEEE: @kw4_2d: PASS
// IEEE: @kw8_1d_softmax: PASS
// IEEE: @kw4_3d_rows: PASS
// IEEE: @kw3_2d_ln: PASS
// TF32: @kw4_2d: PASS
// TF32: @kw8_1d_softmax: PASS
// TF32: @kw4_3d_rows: PASS
// TF32: @kw3_2d_ln: PASS

func.func @kw4_2d(%x: tensor<2x6x9x7xf32>, %w: tensor<6x20x3x4xf32>, %b: tensor<20xf32>) -> tensor<2x20x17x15xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x6x9x7xf32>, tensor<6x20x3x4xf32>, tensor<20xf32>) -> tensor<2x20x17x15xf32>
  %v1 = fuse.gelu %v0 : tensor<2x20x17x15xf32>
  return %v1 : tensor<2x20x17x15xf32>
}

func.func @kw8_1d_softmax(%x: tensor<3x4x11xf32>, %w: tensor<4x32x8xf32>) -> tensor<3x32x26xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x11xf32>, tensor<4x32x8xf32>) -> tensor<3x32x26xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x32x26xf32>
  return %v1 : tensor<3x32x26xf32>
}

func.func @kw4_3d_rows(%x: tensor<1x4x2x8x5xf32>, %w: tensor<4x16x2x3x4xf32>, %b: tensor<16xf32>) -> tensor<1x16x3x10x8xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x4x2x8x5xf32>, tensor<4x16x2x3x4xf32>, tensor<16xf32>) -> tensor<1x16x3x10x8xf32>
  %v1 = fuse.sigmoid %v0 : tensor<1x16x3x10x8xf32>
  return %v1 : tensor<1x16x3x10x8xf32>
}

func.func @kw3_2d_ln(%x: tensor<1x5x6x6xf32>, %w: tensor<5x12x3x3xf32>, %g: tensor<13xf32>) -> tensor<1x12x13x13xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x6x6xf32>, tensor<5x12x3x3xf32>) -> tensor<1x12x13x13xf32>
  %v1 = fuse.layer_norm %v0 weight(%g : tensor<13xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x12x13x13xf32>
  return %v1 : tensor<1x12x13x13xf32>
}
