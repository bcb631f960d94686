// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-decompose))' | FileCheck %s
// fuse-decompose: a forward convolution becomes the stride-1 transposed
// convolution that is the same gather (the weight read in its forward
// layout, taps reversed), then for a stride above 1 a kernel-1 max_pool
// that keeps every stride-th position.

// CHECK-LABEL: func.func @same_3x3
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x4x6x6xf32>, %[[W:[^:]*]]: tensor<8x4x3x3xf32>, %[[B:[^:]*]]: tensor<8xf32>)
// CHECK-NEXT: %[[C:.*]] = fuse.conv_transpose %[[X]], %[[W]], %[[B]] {dilation = array<i64: 1, 1>, forward_weight, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x6x6xf32>
// CHECK-NEXT: return %[[C]]
func.func @same_3x3(%x: tensor<2x4x6x6xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x6x6xf32> {
  %y = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<2x8x6x6xf32>
  return %y : tensor<2x8x6x6xf32>
}

// -----

// Valid padding, dilation 2, depthwise: transposed padding dilation * (k -
// 1) = 4.
// CHECK-LABEL: func.func @depthwise_dilated
// CHECK-NEXT: fuse.conv_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 2>, forward_weight, groups = 4 : i64, output_padding = array<i64: 0>, padding = array<i64: 4>, stride = array<i64: 1>} : (tensor<1x4x9xf32>, tensor<4x1x3xf32>) -> tensor<1x4x5xf32>
func.func @depthwise_dilated(%x: tensor<1x4x9xf32>, %w: tensor<4x1x3xf32>) -> tensor<1x4x5xf32> {
  %y = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 2>, groups = 4 : i64} : (tensor<1x4x9xf32>, tensor<4x1x3xf32>) -> tensor<1x4x5xf32>
  return %y : tensor<1x4x5xf32>
}

// -----

// More padding at the end: output_padding end - begin.
// CHECK-LABEL: func.func @asymmetric
// CHECK-NEXT: fuse.conv_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 1>, forward_weight, output_padding = array<i64: 1>, padding = array<i64: 1>, stride = array<i64: 1>} : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x5xf32>
func.func @asymmetric(%x: tensor<1x2x5xf32>, %w: tensor<3x2x2xf32>) -> tensor<1x3x5xf32> {
  %y = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, padding_end = array<i64: 1>, dilation = array<i64: 1>} : (tensor<1x2x5xf32>, tensor<3x2x2xf32>) -> tensor<1x3x5xf32>
  return %y : tensor<1x3x5xf32>
}

// -----

// More padding at the begin (SAME_LOWER with an even kernel: 2 / 1): an end
// crop, output_padding end - begin = -1; transposed padding 3 - 2 = 1.
// CHECK-LABEL: func.func @begin_heavy
// CHECK-NEXT: fuse.conv_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 1>, forward_weight, output_padding = array<i64: -1>, padding = array<i64: 1>, stride = array<i64: 1>} : (tensor<1x2x5xf32>, tensor<3x2x4xf32>) -> tensor<1x3x5xf32>
func.func @begin_heavy(%x: tensor<1x2x5xf32>, %w: tensor<3x2x4xf32>) -> tensor<1x3x5xf32> {
  %y = fuse.conv %x, %w {stride = array<i64: 1>, padding = array<i64: 2>, padding_end = array<i64: 1>, dilation = array<i64: 1>} : (tensor<1x2x5xf32>, tensor<3x2x4xf32>) -> tensor<1x3x5xf32>
  return %y : tensor<1x3x5xf32>
}

// -----

// Stride 2: every stride-1 position, then a max_pool of kernel 1 keeps every
// second one.
// CHECK-LABEL: func.func @strided
// CHECK-NEXT: %[[C:.*]] = fuse.conv_transpose {{.*}} forward_weight{{.*}} -> tensor<1x8x7x7xf32>
// CHECK-NEXT: %[[P:.*]] = fuse.max_pool %[[C]] {kernel_size = array<i64: 1, 1>, padding = array<i64: 0, 0>, stride = array<i64: 2, 2>} : tensor<1x8x7x7xf32> -> tensor<1x8x4x4xf32>
// CHECK-NEXT: return %[[P]]
func.func @strided(%x: tensor<1x4x7x7xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %y = fuse.conv %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x7x7xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}
