// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-positions-m=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-positions-m=1 --tile-merge-h --tile-rows=2 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 --tile-positions-m=1 %s | FileCheck %s
// RUN: fusecc-check --precision=fp16 --tile-positions-m=1 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-positions-m=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a %s --emit=fused | FileCheck %s --check-prefix=AUTO
// RUN: fusecc --precision=tf32 --tile-positions-m=1 %s --emit=fused | FileCheck %s --check-prefix=FORCED
// RUN: fusecc --precision=bf16 --tile-positions-m=1 %s --emit=fused | FileCheck %s --check-prefix=BF16
// RUN: echo '{"entries": [{"key": "tf32 r3 n2 c20x3 g1 b1 in1x1x9 k1x1x7 s1x1x4 p0x0x2 d1x1x1 out1x1x36 | conv_transpose tanh", "positions_m": 1}, {"key": "tf32 r5 n1 c32x4 g2 b1 in3x2x7 k4x1x3 s3x1x3 p3x0x4 d1x1x2 out4x2x16 | conv_transpose sigmoid", "positions_m": -1}]}' > %t.json
// RUN: fusecc --precision=tf32 --tuning=%t.json %s --emit=fused | FileCheck %s --check-prefix=TUNED
// RUN: fusecc-check --precision=tf32 --tuning=%t.json %s | FileCheck %s
// mma.sync tiles with output positions on the MMA's M side and channels on
// N (TileConfigAttr::positionsOnM, lib/Codegen/Tiling/TilePositionsM.cpp):
// grouped layers of 1-2 channels per group (the cost model's choice: they
// have no other tensor-core tiling), and, forced, one-group layers of 3,
// 12 (two N tiles) and 5 channels (a channel softmax over the block's
// channels), in 1-, 2- and 3-D, with stride phases, dilation and an
// epilogue; tf32, bf16, f16 and split-operand ieee.

// CHECK: @pm_grouped3d: PASS
// CHECK: @pm_depthwise_out: PASS
// CHECK: @pm_rgb1d: PASS
// CHECK: @pm_twelve2d: PASS
// CHECK: @pm_softmax: PASS
// CHECK: @pm_grouped8: PASS
// CHECK: @pm_grouped1: PASS
// CHECK-NOT: FAIL

// AUTO-LABEL: func.func @pm_grouped3d
// AUTO: tileC = 2, {{.*}}operand = tf32{{.*}} mmaWarpsC = 1, {{.*}}mmaTilesC = 1, {{.*}}mmaPositionsM = 1>
// AUTO-LABEL: func.func @pm_depthwise_out
// AUTO: tileC = 1, {{.*}}mmaPositionsM = 1>
// AUTO-LABEL: func.func @pm_rgb1d
// AUTO-NOT: mmaPositionsM
// AUTO-LABEL: func.func @pm_twelve2d
// AUTO-NOT: mmaPositionsM
// AUTO-LABEL: func.func @pm_grouped8
// AUTO: tileC = 12, {{.*}}mmaTilesC = 2, {{.*}}mmaPositionsM = 1>
// AUTO-LABEL: func.func @pm_grouped1
// AUTO-NOT: mmaPositionsM

// FORCED-LABEL: func.func @pm_rgb1d
// FORCED: tileC = 3, {{.*}}mmaTilesC = 1, {{.*}}mmaPositionsM = 1>
// FORCED-LABEL: func.func @pm_twelve2d
// FORCED: tileC = 12, {{.*}}mmaTilesC = 2, {{.*}}mmaPositionsM = 1>
// FORCED-LABEL: func.func @pm_softmax
// FORCED: tileC = 5, {{.*}}mmaPositionsM = 1>

// A tuning entry asks for the tiling (`"positions_m": 1`) or keeps a
// layer off it (-1: rand37_43's shape back on FMA).
// TUNED-LABEL: func.func @pm_grouped3d
// TUNED-NOT: mmaPositionsM
// TUNED: operand = f32
// TUNED-LABEL: func.func @pm_rgb1d
// TUNED: tileC = 3, {{.*}}mmaPositionsM = 1>

// BF16-LABEL: func.func @pm_grouped3d
// BF16: types = <bf16, {{.*}}operand = bf16{{.*}}mmaPositionsM = 1>

// rand37_43's shape at a small size: 2 groups of 16 -> 2 channels, strides
// 3 x 1 x 3, W dilation 2, a bias and a sigmoid.
func.func @pm_grouped3d(%x: tensor<1x32x3x2x7xf32>, %w: tensor<32x2x4x1x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x2x16xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 1, 3>, padding = array<i64: 3, 0, 4>, output_padding = array<i64: 0, 0, 1>, dilation = array<i64: 1, 1, 2>, groups = 2 : i64} : (tensor<1x32x3x2x7xf32>, tensor<32x2x4x1x3xf32>, tensor<4xf32>) -> tensor<1x4x4x2x16xf32>
  %1 = fuse.sigmoid %0 : tensor<1x4x4x2x16xf32>
  return %1 : tensor<1x4x4x2x16xf32>
}

// One output channel per group of 16 input channels, stride 2.
func.func @pm_depthwise_out(%x: tensor<2x64x5x6xf32>, %w: tensor<64x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x10x12xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 4 : i64} : (tensor<2x64x5x6xf32>, tensor<64x1x3x3xf32>, tensor<4xf32>) -> tensor<2x4x10x12xf32>
  %1 = fuse.relu %0 : tensor<2x4x10x12xf32>
  return %1 : tensor<2x4x10x12xf32>
}

// An RGB layer: 20 -> 3 channels, kernel 7 at stride 4 (1-2 taps a phase).
func.func @pm_rgb1d(%x: tensor<2x20x9xf32>, %w: tensor<20x3x7xf32>, %b: tensor<3xf32>) -> tensor<2x3x36xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4>, padding = array<i64: 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x20x9xf32>, tensor<20x3x7xf32>, tensor<3xf32>) -> tensor<2x3x36xf32>
  %1 = fuse.tanh %0 : tensor<2x3x36xf32>
  return %1 : tensor<2x3x36xf32>
}

// 12 channels: two N tiles, the second a third full.
func.func @pm_twelve2d(%x: tensor<1x24x6x20xf32>, %w: tensor<24x12x3x3xf32>) -> tensor<1x12x6x20xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x6x20xf32>, tensor<24x12x3x3xf32>) -> tensor<1x12x6x20xf32>
  return %0 : tensor<1x12x6x20xf32>
}

// A softmax over 5 channels: all of them in one block.
func.func @pm_softmax(%x: tensor<1x16x4x9xf32>, %w: tensor<16x5x2x2xf32>, %b: tensor<5xf32>) -> tensor<1x5x8x18xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x9xf32>, tensor<16x5x2x2xf32>, tensor<5xf32>) -> tensor<1x5x8x18xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x5x8x18xf32>
  return %1 : tensor<1x5x8x18xf32>
}

// rand37_76's kind: 2 groups of 8 -> 12 channels (one k-step of real
// channels: the cost model's choice), and rand37_23's, 1 -> 12 (FMA).
func.func @pm_grouped8(%x: tensor<2x16x19xf32>, %w: tensor<16x12x7xf32>, %b: tensor<24xf32>) -> tensor<2x24x25xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64} : (tensor<2x16x19xf32>, tensor<16x12x7xf32>, tensor<24xf32>) -> tensor<2x24x25xf32>
  return %0 : tensor<2x24x25xf32>
}

func.func @pm_grouped1(%x: tensor<1x4x6x7xf32>, %w: tensor<4x12x2x3xf32>) -> tensor<1x48x13x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 4 : i64} : (tensor<1x4x6x7xf32>, tensor<4x12x2x3xf32>) -> tensor<1x48x13x16xf32>
  return %0 : tensor<1x48x13x16xf32>
}
