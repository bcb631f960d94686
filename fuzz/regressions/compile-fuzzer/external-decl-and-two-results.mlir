// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels))' | FileCheck %s --check-prefix=FORM

// Modules with external function declarations (split out of
// convert-to-gpu.mlir so that its other cases keep running).
// fuse-form-kernels skips declarations (it used to crash on their empty
// body).

// FORM-LABEL: func.func private @external(tensor<4xf32>)
// FORM-LABEL: func.func private @only_external(memref<4xf32>)

// Two graph functions, one of them with two independent kernels (two
// results): all kernels land in the one gpu.module; each output memref
// follows the inputs in result order. External functions are left alone.

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func private @external(tensor<4xf32>)
// CHECK: func.func @first(%[[X:[^:]*]]: memref<1x4x5xf32>, %[[W1:[^:]*]]: memref<4x8x3xf32>, %[[W2:[^:]*]]: memref<4x2x1xf32>, %[[R0:[^:]*]]: memref<1x8x7xf32>, %[[R1:[^:]*]]: memref<1x2x5xf32>)
// CHECK: gpu.launch_func @fusecc_kernels::@first_k0 {{.*}} args(%[[X]] : memref<1x4x5xf32>, %[[W1]] : memref<4x8x3xf32>, %[[R0]] : memref<1x8x7xf32>)
// CHECK: gpu.launch_func @fusecc_kernels::@first_k1 {{.*}} args(%[[X]] : memref<1x4x5xf32>, %[[W2]] : memref<4x2x1xf32>, %[[R1]] : memref<1x2x5xf32>)
// CHECK-NEXT: return
// CHECK: func.func @second(
// CHECK: gpu.launch_func @fusecc_kernels::@second_k0
// CHECK: gpu.module @fusecc_kernels
// CHECK: gpu.func @first_k0(
// CHECK: gpu.func @first_k1(
// CHECK: gpu.func @second_k0(
// CHECK-NOT: gpu.module
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

func.func @second(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.mish %0 : tensor<1x8x7xf32>
  return %1 : tensor<1x8x7xf32>
}

