// Ops the graph description cannot express are rejected with a located
// error before anything is compiled.

// RUN: not fusecc %s -o %t.fcb 2>&1 | FileCheck %s
// RUN: not test -e %t.fcb
// CHECK: graph-errors.mlir:[[@LINE+11]]:8: error: 'arith.addf' op is not a graph op fusecc compiles

// The output of --emit=fused (kernels already formed) is not a graph either.
// RUN: fusecc %fusecc_src_root/examples/kb2_49.mlir --emit=fused -o %t.fused.mlir
// RUN: not fusecc %t.fused.mlir -o %t.fcb 2>&1 | FileCheck %s --check-prefix=FUSED
// FUSED: fused.mlir:3:10: error: 'fuse.kernel' op is not a graph op fusecc compiles

func.func @f(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = arith.addf %0, %0 : tensor<1x8x7xf32>
  return %1 : tensor<1x8x7xf32>
}
