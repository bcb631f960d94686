// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-split-w=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-split-w=1 --tile-rows=2 --tile-merge-h=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-split-w=1 --tile-rows=1 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-split-w=1 --tile-rows=4 --tile-ci-chunk=32 --tile-merge-h=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --tile-split-w=1 --tile-rows=2 --tile-merge-h=1 --emit=fused %s | FileCheck %s --check-prefix=CFG
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --tile-split-w=1 --tile-rows=2 --tile-merge-h=1 -o - %s | FileCheck %s --check-prefix=GRID
// wgmma blocks of one W stride phase (`splitWPhases`) run in the CPU
// simulator against the float64 reference: each block stages only its
// phase's W taps, accumulates the phase's positions (ow = ow0 + phase +
// stride x j) and stores them stride_w apart. Shapes: an odd output width
// (phase 0 one position longer, KernelBench 2/91 in small), rows past the
// output edge, input rows that are multiples of 4 long (16-byte staging)
// and that are not, stride 3 with two taps per phase, dilation 3 (taps
// 0, 2 and 1, 3), 1-D and 3-D, a channel softmax over two channel groups.

// CHECK: @split_smb2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @split_odd_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @split_stride3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @split_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @split_dil3: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// CFG-LABEL: func.func @split_smb2d
// CFG: rows = 2, mergeHTaps = 1, wgmmaN = 24, wgmmaGroups = 2, splitWPhases = 1>
// CFG-LABEL: func.func @split_odd_w
// CFG: wgmmaN = 8, wgmmaGroups = 1, splitWPhases = 1>
// CFG-LABEL: func.func @split_stride3
// CFG: splitWPhases = 1>
// CFG-LABEL: func.func @split_3d
// CFG: splitWPhases = 1>
// CFG-LABEL: func.func @split_dil3
// CFG: splitWPhases = 1>

// One block per W phase: 1 image x 6 row groups (2 rows of one H phase)
// x 1 W tile x 2 phases.
// GRID: launch split_smb2d_k0 grid 12 1 1 block 256 1 1

func.func @split_smb2d(%x0: tensor<1x24x5x20xf32>, %w1: tensor<24x128x4x4xf32>, %b2: tensor<128xf32>, %bias3: tensor<128x1x1xf32>) -> tensor<1x128x11x41xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x5x20xf32>, tensor<24x128x4x4xf32>, tensor<128xf32>) -> tensor<1x128x11x41xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x128x11x41xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<1x128x11x41xf32>, tensor<128x1x1xf32> -> tensor<1x128x11x41xf32>
  %v3 = arith.constant dense<2.0> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<1x128x11x41xf32>, tensor<f32> -> tensor<1x128x11x41xf32>
  %v5 = fuse.sigmoid %v4 : tensor<1x128x11x41xf32>
  return %v5 : tensor<1x128x11x41xf32>
}

func.func @split_odd_w(%x0: tensor<2x12x4x7xf32>, %w1: tensor<12x64x4x4xf32>, %b2: tensor<64xf32>) -> tensor<2x64x8x14xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x12x4x7xf32>, tensor<12x64x4x4xf32>, tensor<64xf32>) -> tensor<2x64x8x14xf32>
  %v1 = fuse.gelu %v0 : tensor<2x64x8x14xf32>
  return %v1 : tensor<2x64x8x14xf32>
}

func.func @split_stride3(%x0: tensor<2x8x10xf32>, %w1: tensor<8x32x6xf32>) -> tensor<2x32x29xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 3>, padding = array<i64: 2>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x8x10xf32>, tensor<8x32x6xf32>) -> tensor<2x32x29xf32>
  %v1 = fuse.tanh %v0 : tensor<2x32x29xf32>
  return %v1 : tensor<2x32x29xf32>
}

func.func @split_3d(%x0: tensor<1x8x3x4x8xf32>, %w1: tensor<8x64x4x4x4xf32>, %b2: tensor<64xf32>, %p3: tensor<64x1x1x1xf32>) -> tensor<1x64x6x8x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x8x3x4x8xf32>, tensor<8x64x4x4x4xf32>, tensor<64xf32>) -> tensor<1x64x6x8x16xf32>
  %v1 = fuse.add %v0, %p3 : tensor<1x64x6x8x16xf32>, tensor<64x1x1x1xf32> -> tensor<1x64x6x8x16xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x64x6x8x16xf32>
  return %v2 : tensor<1x64x6x8x16xf32>
}

func.func @split_dil3(%x0: tensor<1x8x5x9xf32>, %w1: tensor<8x64x4x4xf32>) -> tensor<1x64x15x23xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 2, 2>, output_padding = array<i64: 1, 1>, dilation = array<i64: 3, 3>, groups = 1 : i64} : (tensor<1x8x5x9xf32>, tensor<8x64x4x4xf32>) -> tensor<1x64x15x23xf32>
  %v1 = fuse.relu %v0 : tensor<1x64x15x23xf32>
  return %v1 : tensor<1x64x15x23xf32>
}
