// RUN: fusecc-opt %s -split-input-file | fusecc-opt -split-input-file | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --mlir-print-op-generic | fusecc-opt -split-input-file | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of fuse.var (torch.var): dims in any order, keepdim and
// correction at their defaults (false, 1: left out of the custom form,
// written by the generic form) and set.

// CHECK-LABEL: func.func @var_default
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf32>)
// CHECK: %[[V:.*]] = fuse.var %[[X]] {dims = array<i64: 3, 1>} : tensor<2x3x4x5xf32> -> tensor<2x4xf32>
// CHECK: return %[[V]]
// GENERIC-LABEL: sym_name = "var_default"
// GENERIC: "fuse.var"(%{{.*}}) <{correction = 1 : i64, dims = array<i64: 3, 1>, keepdim = false}> : (tensor<2x3x4x5xf32>) -> tensor<2x4xf32>
func.func @var_default(%x: tensor<2x3x4x5xf32>) -> tensor<2x4xf32> {
  %0 = fuse.var %x {dims = array<i64: 3, 1>} : tensor<2x3x4x5xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @var_biased_keepdim
// CHECK: fuse.var %{{.*}} {correction = 0 : i64, dims = array<i64: 0, 2, 3>, keepdim = true} : tensor<8x6x4x4xf32> -> tensor<1x6x1x1xf32>
// GENERIC-LABEL: sym_name = "var_biased_keepdim"
// GENERIC: "fuse.var"(%{{.*}}) <{correction = 0 : i64, dims = array<i64: 0, 2, 3>, keepdim = true}> : (tensor<8x6x4x4xf32>) -> tensor<1x6x1x1xf32>
func.func @var_biased_keepdim(%x: tensor<8x6x4x4xf32>) -> tensor<1x6x1x1xf32> {
  %0 = fuse.var %x {dims = array<i64: 0, 2, 3>, keepdim = true, correction = 0 : i64} : tensor<8x6x4x4xf32> -> tensor<1x6x1x1xf32>
  return %0 : tensor<1x6x1x1xf32>
}

// -----

// A correction of 2 over sets of 3 elements (the divisor is 1).
// CHECK-LABEL: func.func @var_correction_2
// CHECK: fuse.var %{{.*}} {correction = 2 : i64, dims = array<i64: 0>} : tensor<3x7xf32> -> tensor<7xf32>
// GENERIC-LABEL: sym_name = "var_correction_2"
// GENERIC: "fuse.var"(%{{.*}}) <{correction = 2 : i64, dims = array<i64: 0>, keepdim = false}>
func.func @var_correction_2(%x: tensor<3x7xf32>) -> tensor<7xf32> {
  %0 = fuse.var %x {dims = array<i64: 0>, correction = 2 : i64} : tensor<3x7xf32> -> tensor<7xf32>
  return %0 : tensor<7xf32>
}
