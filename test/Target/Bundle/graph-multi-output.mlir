// Entries with several outputs: one `out` arg per result (result0,
// result1, ...), `return` listing the returned values in order, and an op
// with several results (batch_norm's updated running statistics) defining
// consecutive values on one graph line. Several outputs are a version-3
// form.

// RUN: fusecc %s -o - | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN

// CHECK: fusecc-bundle 3

// CHECK-LABEL: entry two_convs args 4
// CHECK-NEXT: arg 0 in x f32 3 1 4 5
// CHECK-NEXT: arg 1 in w f32 3 4 8 3
// CHECK-NEXT: arg 2 out result0 f32 3 1 8 7
// CHECK-NEXT: arg 3 out result1 f32 3 1 8 7
// CHECK: launch two_convs_k0 {{.*}} params 3 0 1 2
// CHECK: launch two_convs_k1 {{.*}} params 3 0 1 3
// CHECK: graph %2 = conv_transpose %0 %1
// CHECK-NEXT: graph %3 = conv_transpose %0 %1
// CHECK-NEXT: graph %4 = neg %3
// CHECK-NEXT: graph return %2 %4
// CHECK-NEXT: end
func.func @two_convs(%x: tensor<1x4x5xf32> {fuse.name = "x"}, %w: tensor<4x8x3xf32> {fuse.name = "w"}) -> (tensor<1x8x7xf32>, tensor<1x8x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %2 = fuse.neg %1 : tensor<1x8x7xf32>
  return %0, %2 : tensor<1x8x7xf32>, tensor<1x8x7xf32>
}

// The running statistics as graph values: returned, and read by a later op
// (from the output argument, result1).
// PLAN-LABEL: plan @bn_stats:
// PLAN: writes result1 (3xf32)
// PLAN: writes result2 (3xf32)
// PLAN: reads result1 b{{[0-9]+}}
// PLAN-NEXT: writes result0 (2x3x5xf32)
// CHECK-LABEL: entry bn_stats args 6
// CHECK-NEXT: arg 0 in x f32 3 2 3 5
// CHECK-NEXT: arg 1 in rm f32 1 3
// CHECK-NEXT: arg 2 in rv f32 1 3
// CHECK-NEXT: arg 3 out result0 f32 3 2 3 5
// CHECK-NEXT: arg 4 out result1 f32 1 3
// CHECK-NEXT: arg 5 out result2 f32 1 3
// CHECK: graph %3 %4 %5 = batch_norm %0 %1 %2 training=1 eps=1.0000000000000001e-05 momentum=0.25
// CHECK-NEXT: graph %6 = reshape %4 shape=3,1
// CHECK-NEXT: graph %7 = add %3 %6
// CHECK-NEXT: graph return %7 %4 %5
// CHECK-NEXT: end
func.func @bn_stats(%x: tensor<2x3x5xf32> {fuse.name = "x"}, %rm: tensor<3xf32> {fuse.name = "rm"}, %rv: tensor<3xf32> {fuse.name = "rv"}) -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = fuse.batch_norm %x, %rm, %rv {training = true, momentum = 0.25 : f64} : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>)
  %1 = fuse.reshape %0#1 : tensor<3xf32> -> tensor<3x1xf32>
  %2 = fuse.add %0#0, %1 : tensor<2x3x5xf32>, tensor<3x1xf32> -> tensor<2x3x5xf32>
  return %2, %0#1, %0#2 : tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// A graph input returned as it is and a value returned twice: each output
// argument gets a kernel that writes it (a copy kernel for the input and
// for the second return, which reads the first output).
// CHECK-LABEL: entry copies args 5
// CHECK-NEXT: arg 0 in x f32 3 1 4 5
// CHECK-NEXT: arg 1 in w f32 3 4 8 3
// CHECK-NEXT: arg 2 out result0 f32 3 1 8 7
// CHECK-NEXT: arg 3 out result1 f32 3 1 4 5
// CHECK-NEXT: arg 4 out result2 f32 3 1 8 7
// CHECK: launch copies_k0 {{.*}} params 3 0 1 2
// CHECK-NEXT: launch copies_k1 {{.*}} params 2 0 3
// CHECK-NEXT: launch copies_k2 {{.*}} params 2 2 4
// CHECK: graph return %2 %0 %2
// CHECK-NEXT: end
// PLAN-LABEL: plan @copies: 3 kernels, 0 buffers (0 bytes)
// PLAN-NEXT: step 0 copies_k0 (convolution)
// PLAN-NEXT: reads x w
// PLAN-NEXT: writes result0 (1x8x7xf32)
// PLAN-NEXT: step 1 copies_k1 (elementwise)
// PLAN-NEXT: reads x
// PLAN-NEXT: writes result1 (1x4x5xf32)
// PLAN-NEXT: step 2 copies_k2 (elementwise)
// PLAN-NEXT: reads result0
// PLAN-NEXT: writes result2 (1x8x7xf32)
func.func @copies(%x: tensor<1x4x5xf32> {fuse.name = "x"}, %w: tensor<4x8x3xf32> {fuse.name = "w"}) -> (tensor<1x8x7xf32>, tensor<1x4x5xf32>, tensor<1x8x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  return %0, %x, %0 : tensor<1x8x7xf32>, tensor<1x4x5xf32>, tensor<1x8x7xf32>
}
