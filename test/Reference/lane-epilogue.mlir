// RUN: fusecc-check --precision=ieee %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=0 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-max-w=256 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --tile-max-w=256 %s | FileCheck %s
// Output rows of at least 128 positions whose length is not a multiple of
// 4 (no 16-byte stores): the epilogue's lanes walk consecutive positions of
// a (row, channel) line, one position per whole group of 32, the positions
// past the last whole group element by element; rows split over several
// W tiles (259 positions) and in one tile (--tile-max-w=256 where it
// fits). Reductions read and write their tiles through the same mapping.

// CHECK: @w129_softmax_sigmoid: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @w131_tanh_1d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @w163_layer_norm: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @w259_softmax_c: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @w129_scaled_softmax_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

func.func @w129_softmax_sigmoid(%x0: tensor<1x4x1x64xf32>, %w1: tensor<4x16x4x4xf32>, %b2: tensor<16xf32>, %bias3: tensor<16x1x1xf32>) -> tensor<1x16x3x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x1x64xf32>, tensor<4x16x4x4xf32>, tensor<16xf32>) -> tensor<1x16x3x129xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x16x3x129xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<1x16x3x129xf32>, tensor<16x1x1xf32> -> tensor<1x16x3x129xf32>
  %v3 = fuse.mul %v2, %bias3 : tensor<1x16x3x129xf32>, tensor<16x1x1xf32> -> tensor<1x16x3x129xf32>
  %v4 = fuse.sigmoid %v3 : tensor<1x16x3x129xf32>
  return %v4 : tensor<1x16x3x129xf32>
}

func.func @w131_tanh_1d(%x0: tensor<2x6x65xf32>, %w1: tensor<6x20x4xf32>, %b2: tensor<20xf32>) -> tensor<2x20x131xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x6x65xf32>, tensor<6x20x4xf32>, tensor<20xf32>) -> tensor<2x20x131xf32>
  %v1 = fuse.tanh %v0 : tensor<2x20x131xf32>
  return %v1 : tensor<2x20x131xf32>
}

func.func @w163_layer_norm(%x0: tensor<1x8x2x81xf32>, %w1: tensor<8x12x4x4xf32>, %b2: tensor<12xf32>, %g3: tensor<163xf32>, %beta4: tensor<163xf32>) -> tensor<1x12x5x163xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x2x81xf32>, tensor<8x12x4x4xf32>, tensor<12xf32>) -> tensor<1x12x5x163xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<163xf32>) bias(%beta4 : tensor<163xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x12x5x163xf32>
  %v2 = fuse.gelu %v1 : tensor<1x12x5x163xf32>
  return %v2 : tensor<1x12x5x163xf32>
}

func.func @w259_softmax_c(%x0: tensor<1x8x1x129xf32>, %w1: tensor<8x24x4x4xf32>, %b2: tensor<24xf32>) -> tensor<1x24x3x259xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x1x129xf32>, tensor<8x24x4x4xf32>, tensor<24xf32>) -> tensor<1x24x3x259xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x24x3x259xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x24x3x259xf32>
  return %v2 : tensor<1x24x3x259xf32>
}

// The reductions' inputs are not the convolution itself: both are
// materialised in their tiles through the lane walk.
func.func @w129_scaled_softmax_w(%x0: tensor<1x4x1x64xf32>, %w1: tensor<4x16x4x4xf32>, %b2: tensor<16xf32>, %bias3: tensor<16x1x1xf32>) -> tensor<1x16x3x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x1x64xf32>, tensor<4x16x4x4xf32>, tensor<16xf32>) -> tensor<1x16x3x129xf32>
  %v1 = fuse.mul %v0, %bias3 : tensor<1x16x3x129xf32>, tensor<16x1x1xf32> -> tensor<1x16x3x129xf32>
  %v2 = fuse.softmax %v1 {dim = 3 : i64} : tensor<1x16x3x129xf32>
  %v3 = fuse.softmax %v2 {dim = 1 : i64} : tensor<1x16x3x129xf32>
  return %v3 : tensor<1x16x3x129xf32>
}
