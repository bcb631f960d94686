// A folded prologue's inputs are the convolution kernel's: the manifest's
// one launch passes x, the per-channel scale s, the scalar graph input t
// and the weights, no intermediate buffer; with the prologue forced off
// (fusecc --plan-prologue, the registered pipeline's `prologue`) the
// prologue kernel writes a buffer the convolution reads. A bad value names
// the allowed ones.

// RUN: fusecc %s --precision=tf32 -o - | FileCheck %s
// RUN: fusecc %s --precision=tf32 --plan-prologue=never -o - | FileCheck %s --check-prefix=NEVER
// RUN: fusecc-opt %s --fusecc-pipeline='precision=tf32 prologue=never' | FileCheck %s --check-prefix=PIPE-NEVER
// RUN: fusecc-opt %s --fusecc-pipeline='precision=tf32' | FileCheck %s --check-prefix=PIPE
// RUN: not fusecc %s --plan-prologue=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: entry aff args 5 workspaces 0 launches 1
// CHECK-NEXT: arg 0 in x f32 5 1 4 3 4 5
// CHECK-NEXT: arg 1 in s f32 4 4 1 1 1
// CHECK-NEXT: arg 2 in t f32 0
// CHECK-NEXT: arg 3 in w f32 5 4 6 2 3 3
// CHECK-NEXT: arg 4 out result f32 5 1 6 4 7 7
// CHECK-NEXT: launch aff_k0 grid {{.*}} params 5 0 1 2 3 4
// CHECK-NEXT: graph

// NEVER: entry aff args 5 workspaces 1 steps 2
// NEVER: workspace 0 f32 240 intermediate
// NEVER: launch aff_k1 {{.*}} params 4 0 1 2 w0
// NEVER-NEXT: launch aff_k0 {{.*}} params 3 w0 3 4

// PIPE-NEVER: gpu.launch_func @fusecc_kernels::@aff_k1
// PIPE-NEVER: gpu.launch_func @fusecc_kernels::@aff_k0
// PIPE-LABEL: func.func @aff
// PIPE-NOT: @aff_k1
// PIPE: gpu.launch_func @fusecc_kernels::@aff_k0 {{.*}} args(%arg0 : memref<1x4x3x4x5xf32>, %arg1 : memref<4x1x1x1xf32>, %arg2 : memref<f32>, %arg3 : memref<4x6x2x3x3xf32>, %arg4 : memref<1x6x4x7x7xf32>)

// BAD: for the --plan-prologue option: 'maybe' is not a valid value (expected one of 'auto', 'always', 'never')

func.func @aff(%x: tensor<1x4x3x4x5xf32> {fuse.name = "x"}, %s: tensor<4x1x1x1xf32> {fuse.name = "s"}, %t: tensor<f32> {fuse.name = "t"}, %w: tensor<4x6x2x3x3xf32> {fuse.name = "w"}) -> tensor<1x6x4x7x7xf32> {
  %m = fuse.mul %x, %s : tensor<1x4x3x4x5xf32>, tensor<4x1x1x1xf32> -> tensor<1x4x3x4x5xf32>
  %a = fuse.add %m, %t : tensor<1x4x3x4x5xf32>, tensor<f32> -> tensor<1x4x3x4x5xf32>
  %g = fuse.sigmoid %a : tensor<1x4x3x4x5xf32>
  %c = fuse.conv_transpose %g, %w {stride = array<i64: 1, 2, 1>, padding = array<i64: 0, 1, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x4x3x4x5xf32>, tensor<4x6x2x3x3xf32>) -> tensor<1x6x4x7x7xf32>
  return %c : tensor<1x6x4x7x7xf32>
}
