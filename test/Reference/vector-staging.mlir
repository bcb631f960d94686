// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// Input rows whose length is a multiple of 4 are staged with 16-byte loads
// from a window aligned to 4 columns: the window starts before the row
// (padding), inside it (later W tiles), and runs past its end; input
// channels that do not fill a chunk are zero; dilation widens the window.

// CHECK: @vs_ln3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vs_softmax3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vs_residual_tiles: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vs_dilated: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vs_softmax2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vs_1d_stride3: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @vs_ln3d(%x0: tensor<2x5x2x3x8xf32>, %w1: tensor<5x16x4x4x4xf32>, %b2: tensor<16xf32>, %g3: tensor<16xf32>, %beta4: tensor<16xf32>) -> tensor<2x16x4x6x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x5x2x3x8xf32>, tensor<5x16x4x4x4xf32>, tensor<16xf32>) -> tensor<2x16x4x6x16xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<16xf32>) bias(%beta4 : tensor<16xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x16x4x6x16xf32>
  %v2 = fuse.gelu %v1 : tensor<2x16x4x6x16xf32>
  return %v2 : tensor<2x16x4x6x16xf32>
}

func.func @vs_softmax3d(%x0: tensor<1x9x2x2x4xf32>, %w1: tensor<9x20x3x3x3xf32>, %b2: tensor<20xf32>) -> tensor<1x20x4x4x8xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x9x2x2x4xf32>, tensor<9x20x3x3x3xf32>, tensor<20xf32>) -> tensor<1x20x4x4x8xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x20x4x4x8xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x20x4x4x8xf32>
  return %v2 : tensor<1x20x4x4x8xf32>
}

// 100 input columns: several W tiles, so windows start inside the row at
// columns that are not multiples of 4 before alignment.
func.func @vs_residual_tiles(%x0: tensor<1x3x1x2x100xf32>, %w1: tensor<3x16x3x3x3xf32>, %b2: tensor<16xf32>, %bias: tensor<16x1x1x1xf32>) -> tensor<1x16x2x4x200xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x1x2x100xf32>, tensor<3x16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x2x4x200xf32>
  %v1 = fuse.add %v0, %bias : tensor<1x16x2x4x200xf32>, tensor<16x1x1x1xf32> -> tensor<1x16x2x4x200xf32>
  %v2 = fuse.add %v1, %v0 : tensor<1x16x2x4x200xf32>, tensor<1x16x2x4x200xf32> -> tensor<1x16x2x4x200xf32>
  %v3 = fuse.mul %v2, %v0 : tensor<1x16x2x4x200xf32>, tensor<1x16x2x4x200xf32> -> tensor<1x16x2x4x200xf32>
  return %v3 : tensor<1x16x2x4x200xf32>
}

func.func @vs_dilated(%x0: tensor<1x4x2x3x8xf32>, %w1: tensor<4x16x3x3x3xf32>) -> tensor<1x16x5x7x17xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<1x4x2x3x8xf32>, tensor<4x16x3x3x3xf32>) -> tensor<1x16x5x7x17xf32>
  return %v0 : tensor<1x16x5x7x17xf32>
}

func.func @vs_softmax2d(%x0: tensor<2x8x3x12xf32>, %w1: tensor<8x24x4x4xf32>, %b2: tensor<24xf32>, %bias: tensor<24x1x1xf32>) -> tensor<2x24x7x25xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x3x12xf32>, tensor<8x24x4x4xf32>, tensor<24xf32>) -> tensor<2x24x7x25xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<2x24x7x25xf32>
  %v2 = fuse.add %v1, %bias : tensor<2x24x7x25xf32>, tensor<24x1x1xf32> -> tensor<2x24x7x25xf32>
  %v3 = fuse.sigmoid %v2 : tensor<2x24x7x25xf32>
  return %v3 : tensor<2x24x7x25xf32>
}

func.func @vs_1d_stride3(%x0: tensor<2x6x12xf32>, %w1: tensor<6x16x5xf32>) -> tensor<2x16x36xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x6x12xf32>, tensor<6x16x5xf32>) -> tensor<2x16x36xf32>
  return %v0 : tensor<2x16x36xf32>
}
