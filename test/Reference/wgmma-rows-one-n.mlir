// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=4 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-merge-h %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always --tile-rows=2 %s | FileCheck %s --check-prefix=IEEE
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --emit=ptx %s | FileCheck %s --check-prefix=PTX
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=4 --emit=ptx %s | FileCheck %s --check-prefix=PTX4
// W stride 1: a warpgroup's consecutive rows are one wgmma N. Staged input
// rows lie one after another in each plane (4 channels x span columns),
// row r's positions at r x span of the accumulator; the positions between
// a row's tile and the next row's are computed and not stored. Cases:
// kw 5 with bias and ReLU over partial W tiles and an odd row count (the
// last block's second row is past the output), a channel softmax over 72
// channels (two warpgroups, every channel in the block), dilation 2 with
// padding, and a 3-D layer.

// CHECK: @k5_bias: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @softmax72: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @dilated: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @conv3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @k5_bias: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @softmax72: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @dilated: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @conv3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// k5_bias: 28 positions per row -> a tile of 32, a span of 40 (36 staged
// columns, a multiple of 8): two rows are N = 40 + 32 = 72, four rows
// 3 x 40 + 32 = 152.
// PTX-LABEL: .entry k5_bias_k0(
// PTX: wgmma.mma_async.sync.aligned.m64n72k8.f32.tf32.tf32
// PTX4-LABEL: .entry k5_bias_k0(
// PTX4: wgmma.mma_async.sync.aligned.m64n152k8.f32.tf32.tf32

func.func @k5_bias(%x: tensor<2x12x5x24xf32>, %w: tensor<12x40x3x5xf32>, %b: tensor<40xf32>) -> tensor<2x40x7x28xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x12x5x24xf32>, tensor<12x40x3x5xf32>, tensor<40xf32>) -> tensor<2x40x7x28xf32>
  %r = fuse.relu %y : tensor<2x40x7x28xf32>
  return %r : tensor<2x40x7x28xf32>
}

func.func @softmax72(%x: tensor<1x16x4x10xf32>, %w: tensor<16x72x3x3xf32>, %b: tensor<72xf32>) -> tensor<1x72x6x12xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x10xf32>, tensor<16x72x3x3xf32>, tensor<72xf32>) -> tensor<1x72x6x12xf32>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x72x6x12xf32>
  return %s : tensor<1x72x6x12xf32>
}

func.func @dilated(%x: tensor<1x20x6x17xf32>, %w: tensor<20x24x3x3xf32>) -> tensor<1x24x8x19xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : (tensor<1x20x6x17xf32>, tensor<20x24x3x3xf32>) -> tensor<1x24x8x19xf32>
  return %y : tensor<1x24x8x19xf32>
}

func.func @conv3d(%x: tensor<1x8x3x4x9xf32>, %w: tensor<8x16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x5x6x11xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x8x3x4x9xf32>, tensor<8x16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x5x6x11xf32>
  %g = fuse.gelu %y : tensor<1x16x5x6x11xf32>
  return %g : tensor<1x16x5x6x11xf32>
}
