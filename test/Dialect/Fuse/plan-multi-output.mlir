// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels))' | FileCheck %s
// Plans of functions with several results: each kernel result the function
// returns is written to its output argument (no buffer), later kernels read
// it there; a value returned twice and a graph input returned as it is get
// copy kernels (a body that yields its input), so that every output
// argument has one kernel writing it.

// The group_norm takes its statistics from the convolution's epilogue (a
// partials workspace) and reads the convolution's result in result 0: no
// intermediate buffer.
// CHECK-LABEL: func.func @returned_and_read
// CHECK-SAME: fuse.plan.buffers = [{elements = 16 : i64, first = 0 : i64, last = 1 : i64, role = "partials", type = f32}]
// CHECK: %[[C:.*]] = fuse.kernel "returned_and_read_k0"
// CHECK-NOT: fuse.plan.result =
// CHECK: fuse.conv_transpose
// CHECK: %[[N:.*]] = fuse.kernel "returned_and_read_k1" ins(%[[C]] :
// CHECK: fuse.group_norm
// CHECK: return %[[C]], %[[N]]
func.func @returned_and_read(%x: tensor<2x4x5xf32>, %w: tensor<4x6x3xf32>) -> (tensor<2x6x7xf32>, tensor<2x6x7xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<4x6x3xf32>) -> tensor<2x6x7xf32>
  %n = fuse.group_norm %c {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x6x7xf32>
  return %c, %n : tensor<2x6x7xf32>, tensor<2x6x7xf32>
}

// -----

// CHECK-LABEL: func.func @copies
// CHECK: %[[C:.*]] = fuse.kernel "copies_k0"
// CHECK: %[[X:.*]] = fuse.kernel "copies_k1" ins(%arg0 : tensor<1x4x5xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x4x5xf32>):
// CHECK-NEXT: fuse.yield %[[A]]
// CHECK: %[[D:.*]] = fuse.kernel "copies_k2" ins(%[[C]] : tensor<1x8x7xf32>)
// CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<1x8x7xf32>):
// CHECK-NEXT: fuse.yield %[[B]]
// CHECK: return %[[C]], %[[X]], %[[D]]
func.func @copies(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> (tensor<1x8x7xf32>, tensor<1x4x5xf32>, tensor<1x8x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  return %0, %x, %0 : tensor<1x8x7xf32>, tensor<1x4x5xf32>, tensor<1x8x7xf32>
}

// -----

// A rank-0 constant returned: cloned into its copy kernel, which has no
// inputs.
// CHECK-LABEL: func.func @scalar_constant
// CHECK: %[[K:.*]] = fuse.kernel "scalar_constant_k1" ins() -> tensor<f32> {
// CHECK-NEXT: %[[S:.*]] = arith.constant dense<2.500000e+00> : tensor<f32>
// CHECK-NEXT: fuse.yield %[[S]]
// CHECK: return %{{.*}}, %[[K]]
func.func @scalar_constant(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<f32>) {
  %s = arith.constant dense<2.5> : tensor<f32>
  %0 = fuse.mul %x, %s : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
  return %0, %s : tensor<2x3xf32>, tensor<f32>
}
