// RUN: fusecc-check --precision=tf32 --tile-merge-h=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --tile-merge-h=1 --emit=fused %s | FileCheck %s --check-prefix=CFG
// Tensor-core rounds that stage all valid H taps at once (mergeHTaps): the
// input rows of all taps (rows + taps - 1 of them) and one weight plane per
// tap; blocks at the top/bottom edge have fewer valid taps than planes.

// CFG: fuse.kernel "mh_ln3d_k0" {{.*}}rows = 2, mergeHTaps = 1>
// CHECK: @mh_ln3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @mh_softmax3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @mh_2d_k4: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @mh_dilated: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @mh_stride3_k5: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @mh_ln3d(%x0: tensor<2x5x2x3x8xf32>, %w1: tensor<5x16x4x4x4xf32>, %b2: tensor<16xf32>, %g3: tensor<16xf32>, %beta4: tensor<16xf32>) -> tensor<2x16x4x6x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x5x2x3x8xf32>, tensor<5x16x4x4x4xf32>, tensor<16xf32>) -> tensor<2x16x4x6x16xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<16xf32>) bias(%beta4 : tensor<16xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x16x4x6x16xf32>
  %v2 = fuse.gelu %v1 : tensor<2x16x4x6x16xf32>
  return %v2 : tensor<2x16x4x6x16xf32>
}

func.func @mh_softmax3d(%x0: tensor<1x9x2x3x4xf32>, %w1: tensor<9x20x3x3x3xf32>, %b2: tensor<20xf32>) -> tensor<1x20x4x6x8xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x9x2x3x4xf32>, tensor<9x20x3x3x3xf32>, tensor<20xf32>) -> tensor<1x20x4x6x8xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x20x4x6x8xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x20x4x6x8xf32>
  return %v2 : tensor<1x20x4x6x8xf32>
}

func.func @mh_2d_k4(%x0: tensor<2x24x5x12xf32>, %w1: tensor<24x32x4x4xf32>, %b2: tensor<32xf32>) -> tensor<2x32x11x25xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x12xf32>, tensor<24x32x4x4xf32>, tensor<32xf32>) -> tensor<2x32x11x25xf32>
  %v1 = fuse.tanh %v0 : tensor<2x32x11x25xf32>
  return %v1 : tensor<2x32x11x25xf32>
}

// Dilation 2 with stride 2: taps 2 apart, input rows 1 apart.
func.func @mh_dilated(%x0: tensor<1x8x5x8xf32>, %w1: tensor<8x16x4x4xf32>) -> tensor<1x16x13x19xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x8x5x8xf32>, tensor<8x16x4x4xf32>) -> tensor<1x16x13x19xf32>
  return %v0 : tensor<1x16x13x19xf32>
}

// Stride 3, kernel 5: 1 or 2 valid H taps per phase.
func.func @mh_stride3_k5(%x0: tensor<1x8x4x6xf32>, %w1: tensor<8x16x5x3xf32>) -> tensor<1x16x12x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x4x6xf32>, tensor<8x16x5x3xf32>) -> tensor<1x16x12x16xf32>
  return %v0 : tensor<1x16x12x16xf32>
}
