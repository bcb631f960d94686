// A module with external function declarations next to its graph
// functions: the declarations are not entries (fuse-convert-to-gpu leaves
// them alone, the bundle lists the graph functions only). Found by the
// compile fuzzer (fuzz/regressions/compile-fuzzer): the writer used to
// stop with "has no graph description" on the declaration.

// RUN: fusecc %s -o - | FileCheck %s

// CHECK: fusecc-bundle 3
// CHECK: entry first args 5
// CHECK: graph return %{{[0-9]+}} %{{[0-9]+}}
// CHECK: end
// CHECK-NEXT: entry second args 3
// CHECK-NOT: external
// CHECK: ptx
func.func private @external(tensor<4xf32>)
func.func @first(%x: tensor<1x4x5xf32>, %w1: tensor<4x8x3xf32>, %w2: tensor<4x2x1xf32>)
    -> (tensor<1x8x7xf32>, tensor<1x2x5xf32>) {
  %0 = fuse.conv_transpose %x, %w1 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.conv_transpose %x, %w2 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x2x1xf32>) -> tensor<1x2x5xf32>
  %2 = fuse.tanh %1 : tensor<1x2x5xf32>
  return %0, %2 : tensor<1x8x7xf32>, tensor<1x2x5xf32>
}
func.func private @only_external(memref<4xf32>)
func.func @second(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.mish %0 : tensor<1x8x7xf32>
  return %1 : tensor<1x8x7xf32>
}
