// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a | FileCheck %s
// Grouped convolutions whose channels per group fit no whole-warp grid
// with 16 lanes along W, with a fused reduction (channel softmax, last-dim
// layer_norm, channel logsumexp): whole warps along W alone (96 lanes at
// stride 3), checked on the simulator.

// CHECK: @grouped_softmax: PASS
// CHECK: @grouped_s3_layer_norm: PASS
// CHECK: @grouped_s2_logsumexp: PASS
// CHECK-NOT: FAIL

func.func @grouped_softmax(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x6x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x6x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x6x7xf32>
  return %1 : tensor<1x6x7xf32>
}

func.func @grouped_s3_layer_norm(%x: tensor<2x9x8xf32>, %w: tensor<9x7x2xf32>, %b: tensor<21xf32>) -> tensor<2x21x26xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 0>,
         output_padding = array<i64: 2>, dilation = array<i64: 2>, groups = 3 : i64}
       : (tensor<2x9x8xf32>, tensor<9x7x2xf32>, tensor<21xf32>) -> tensor<2x21x26xf32>
  %1 = fuse.layer_norm %0 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x21x26xf32>
  return %1 : tensor<2x21x26xf32>
}

func.func @grouped_s2_logsumexp(%x: tensor<3x10x3x5xf32>, %w: tensor<10x5x3x3xf32>) -> tensor<3x1x6x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64}
       : (tensor<3x10x3x5xf32>, tensor<10x5x3x3xf32>) -> tensor<3x10x6x10xf32>
  %1 = fuse.logsumexp %0 {dims = array<i64: 1>, keepdim = true} : tensor<3x10x6x10xf32> -> tensor<3x1x6x10xf32>
  return %1 : tensor<3x1x6x10xf32>
}
