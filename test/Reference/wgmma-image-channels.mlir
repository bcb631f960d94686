// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-wgmma-split=2 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-merge-h %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s --check-prefix=IEEE
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=gpu %s | FileCheck %s --check-prefix=GPU
// wgmma weight images hold only the output channels there are (rounded up
// to 8), not 64 per warpgroup: a warpgroup's m64 descriptor reads past
// them into the next plane, or into the zeroed pad after the last plane,
// and the accumulator rows those reads feed are stored as zero. Output
// channels 32 (a kb1_78 block: kw 7, padding), 8, 24 with a channel
// softmax (every channel in one block), 96 with a channel softmax (two
// warpgroups, the second with 32 channels), and 64 (no change: a control).

// CHECK: @c32_k7: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @c8: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @c24_softmax: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @c96_softmax: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @c64: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @c32_k7: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @c8: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @c24_softmax: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @c96_softmax: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// IEEE: @c64: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// The packed weights are exactly the weights (32 x 32 x 3 x 7 = 21504, not
// 64 channels' worth): one image per (H tap, chunk) of 7 x 16 x 32 words.
// GPU-LABEL: gpu.func @c32_k7_k0_wpack
// GPU-SAME: memref<21504xf32>
// GPU-LABEL: gpu.func @c8_k0_wpack
// GPU-SAME: memref<1920xf32>
// GPU-LABEL: gpu.func @c64_k0_wpack
// GPU-SAME: memref<9216xf32>

func.func @c32_k7(%x: tensor<2x32x5x24xf32>, %w: tensor<32x32x3x7xf32>) -> tensor<2x32x5x24xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 3>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x5x24xf32>, tensor<32x32x3x7xf32>) -> tensor<2x32x5x24xf32>
  return %y : tensor<2x32x5x24xf32>
}

func.func @c8(%x: tensor<1x9x3x7xf32>, %w: tensor<9x8x3x5xf32>, %b: tensor<8xf32>) -> tensor<1x8x5x11xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x9x3x7xf32>, tensor<9x8x3x5xf32>, tensor<8xf32>) -> tensor<1x8x5x11xf32>
  %r = fuse.relu %y : tensor<1x8x5x11xf32>
  return %r : tensor<1x8x5x11xf32>
}

func.func @c24_softmax(%x: tensor<2x16x4x6xf32>, %w: tensor<16x24x4x4xf32>, %b: tensor<24xf32>) -> tensor<2x24x8x12xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x6xf32>, tensor<16x24x4x4xf32>, tensor<24xf32>) -> tensor<2x24x8x12xf32>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<2x24x8x12xf32>
  return %s : tensor<2x24x8x12xf32>
}

func.func @c96_softmax(%x: tensor<1x16x3x5xf32>, %w: tensor<16x96x3x3xf32>, %b: tensor<96xf32>) -> tensor<1x96x5x7xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x3x5xf32>, tensor<16x96x3x3xf32>, tensor<96xf32>) -> tensor<1x96x5x7xf32>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x96x5x7xf32>
  return %s : tensor<1x96x5x7xf32>
}

func.func @c64(%x: tensor<1x16x4x6xf32>, %w: tensor<16x64x3x3xf32>) -> tensor<1x64x6x8xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x6xf32>, tensor<16x64x3x3xf32>) -> tensor<1x64x6x8xf32>
  return %y : tensor<1x64x6x8xf32>
}
