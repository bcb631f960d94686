// The graph records of composite ops: the ops as written, not their
// decomposition (fuse-decompose runs after the graph lines are written),
// in the forms of docs/bundle.md. A batch_norm with the updated running
// statistics defines its three values on one line, even where the graph
// reads only the output.

// RUN: fusecc %s -o - | FileCheck %s
// RUN: fusecc %s --emit=fuse | FileCheck %s --check-prefix=FUSE

// CHECK-LABEL: entry composite
// CHECK: graph %7 = conv_transpose %0 %1 %2 stride=2 padding=1 output_padding=0 dilation=1 groups=1
// CHECK-NEXT: graph %8 = batch_norm %7 %3 %4 %5 %6 training=0 eps=0.001 momentum=0.10000000000000001
// CHECK-NEXT: graph %9 %10 %11 = batch_norm %8 %3 %4 training=1 eps=1.0000000000000001e-05 momentum=0.25
// CHECK-NEXT: graph %12 = instance_norm %9 %5 eps=1.0000000000000001e-05
// CHECK-NEXT: graph %13 = instance_norm %12 eps=0.001
// CHECK-NEXT: graph %14 = log_softmax %13 dim=1
// CHECK-NEXT: graph return %14
// CHECK-NEXT: end

// --emit=fuse stops before the pipeline: the composite ops are still there.
// FUSE: fuse.batch_norm
// FUSE: fuse.log_softmax

func.func @composite(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %b: tensor<5xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %0 = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-03 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %1:3 = fuse.batch_norm %0, %rm, %rv {training = true, momentum = 0.25 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>)
  %2 = fuse.instance_norm %1#0 weight(%g : tensor<5xf32>) : tensor<3x5x7xf32>
  %3 = fuse.instance_norm %2 {epsilon = 1.0e-03 : f64} : tensor<3x5x7xf32>
  %4 = fuse.log_softmax %3 {dim = 1 : i64} : tensor<3x5x7xf32>
  return %4 : tensor<3x5x7xf32>
}
