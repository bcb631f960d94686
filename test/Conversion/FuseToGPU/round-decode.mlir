// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=gpu %s | FileCheck %s
// The main loop's round q is (d tap, h tap, channel chunk). The number of
// valid H taps is a runtime value (rows at the border have fewer), but no
// round divides by it (emitDecodeRound): a 2-D layer has one d tap at most,
// so the rest after the chunk is the h tap; a 3-D layer whose H taps are
// at most 2 (k 4, stride 2) selects between the rest and rest / 2.

// The only divisions in either kernel are by constants (%c...).
// CHECK-LABEL: gpu.func @conv2d_k0(
// CHECK-NOT:     arith.{{divui|remui}} %{{[^,]+}}, %{{[0-9]+}} : index
// CHECK:         gpu.return
func.func @conv2d(%x: tensor<1x16x5x16xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<1x64x12x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x16xf32>, tensor<16x64x4x4xf32>) -> tensor<1x64x12x34xf32>
  return %0 : tensor<1x64x12x34xf32>
}

// CHECK-LABEL: gpu.func @conv3d_k0(
// CHECK-NOT:     arith.{{divui|remui}} %{{[^,]+}}, %{{[0-9]+}} : index
// CHECK:         %[[TWO:.*]] = arith.cmpi eq, %{{[0-9]+}}, %c2 : index
// CHECK-NEXT:    %[[HALF:.*]] = arith.divui %[[REST:[0-9]+]], %c2 : index
// CHECK-NEXT:    arith.select %[[TWO]], %[[HALF]], %[[REST]] : index
// CHECK-NOT:     arith.{{divui|remui}} %{{[^,]+}}, %{{[0-9]+}} : index
// CHECK:         gpu.return
func.func @conv3d(%x: tensor<1x16x3x5x16xf32>, %w: tensor<16x64x4x4x4xf32>) -> tensor<1x64x8x12x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x3x5x16xf32>, tensor<16x64x4x4x4xf32>) -> tensor<1x64x8x12x34xf32>
  return %0 : tensor<1x64x8x12x34xf32>
}
