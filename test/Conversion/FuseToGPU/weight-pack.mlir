// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=gpu %s | FileCheck %s
// The weight re-layout kernel of a wgmma kernel: one thread packs all H x W
// taps of one (input channel, output channel) pair (weightPackTaps, at most
// 32 taps), whose source is contiguous: 16-byte loads of each row where kw
// is a multiple of 4, one store per tap (the warp's stores of one tap are
// contiguous). 131072 packed weights / 16 taps = 8192 threads, 32 blocks.

// CHECK-LABEL: func.func @convt(
// CHECK:         gpu.launch_func @fusecc_kernels::@convt_k0_wpack blocks in (%c32, %c1, %c1) threads in (%c256, %c1, %c1)
// A forward 3x3 convolution (taps reversed, rows of 3: one load per tap):
// 73728 packed weights / 9 taps = 8192 threads.
// CHECK-LABEL: func.func @conv3x3(
// CHECK:         gpu.launch_func @fusecc_kernels::@conv3x3_k0_wpack blocks in (%c32, %c1, %c1) threads in (%c256, %c1, %c1)

// CHECK-LABEL: gpu.func @convt_k0_wpack(
// CHECK-COUNT-4: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x128x4x4xf32>, vector<4xf32>
// CHECK-NOT:     memref.load %arg0
// CHECK:         gpu.return
func.func @convt(%x: tensor<2x64x16x16xf32>, %w: tensor<64x128x4x4xf32>, %b: tensor<128xf32>) -> tensor<2x128x32x32xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x16x16xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>) -> tensor<2x128x32x32xf32>
  return %0 : tensor<2x128x32x32xf32>
}

// CHECK-LABEL: gpu.func @conv3x3_k0_wpack(
// CHECK-COUNT-9: memref.load %arg0
// CHECK-NOT:     vector.load
// CHECK:         gpu.return
func.func @conv3x3(%x: tensor<2x64x32x32xf32>, %w: tensor<128x64x3x3xf32>, %b: tensor<128xf32>) -> tensor<2x128x32x32xf32> {
  %0 = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x32x32xf32>, tensor<128x64x3x3xf32>, tensor<128xf32>) -> tensor<2x128x32x32xf32>
  return %0 : tensor<2x128x32x32xf32>
}
