// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --emit=gpu | FileCheck %s --check-prefix=GPU
// A bulk-stored wgmma tile wider than the tensor's rows (rows of 12 in a
// 16-wide tile) whose epilogue reads a kernel input (a residual add of the
// convolution's own input): the epilogue is evaluated for every position
// of the tile, and the tail past the rows' end (never copied out) reads
// the line's last position (BulkStore.cpp, tileRunElement), not past the
// input tensor. The simulator flagged an out-of-bounds load there before;
// checked against float64 on the same rounded values.

// CHECK: @f32_residual: PASS {{.*}} unwritten 0
// CHECK: @bf16_residual: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK-NOT: FAIL

// GPU-LABEL: gpu.func @f32_residual_k1
// GPU: arith.minui {{.*}}, %c11
func.func @f32_residual(%x: tensor<2x64x3x6xf32>, %w0: tensor<64x32x4x4xf32>, %w1: tensor<32x32x3x3xf32>) -> tensor<2x32x6x12xf32> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xf32>, tensor<64x32x4x4xf32>) -> tensor<2x32x6x12xf32>
  %1 = fuse.relu %0 : tensor<2x32x6x12xf32>
  %2 = fuse.conv_transpose %1, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x12xf32>, tensor<32x32x3x3xf32>) -> tensor<2x32x6x12xf32>
  %3 = fuse.add %2, %1 : tensor<2x32x6x12xf32>, tensor<2x32x6x12xf32> -> tensor<2x32x6x12xf32>
  return %3 : tensor<2x32x6x12xf32>
}

func.func @bf16_residual(%x: tensor<2x64x3x6xbf16>, %w0: tensor<64x32x4x4xbf16>, %w1: tensor<32x32x3x3xbf16>) -> tensor<2x32x6x12xbf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xbf16>, tensor<64x32x4x4xbf16>) -> tensor<2x32x6x12xbf16>
  %1 = fuse.relu %0 : tensor<2x32x6x12xbf16>
  %2 = fuse.conv_transpose %1, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x12xbf16>, tensor<32x32x3x3xbf16>) -> tensor<2x32x6x12xbf16>
  %3 = fuse.add %2, %1 : tensor<2x32x6x12xbf16>, tensor<2x32x6x12xbf16> -> tensor<2x32x6x12xbf16>
  return %3 : tensor<2x32x6x12xbf16>
}
