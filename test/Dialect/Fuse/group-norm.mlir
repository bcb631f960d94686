// RUN: fusecc-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics | fusecc-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @affine
// CHECK: fuse.group_norm %{{.*}} weight(%{{.*}} : tensor<4xf32>) bias(%{{.*}} : tensor<4xf32>) {epsilon = 1.000000e-03 : f64, num_groups = 2 : i64} : tensor<2x4x3x3xf32>
func.func @affine(%x: tensor<2x4x3x3xf32>, %w: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x3xf32> {
  %0 = fuse.group_norm %x weight(%w : tensor<4xf32>) bias(%b : tensor<4xf32>) {num_groups = 2 : i64, epsilon = 1.0e-03 : f64} : tensor<2x4x3x3xf32>
  return %0 : tensor<2x4x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @instance_norm_3d
// CHECK: fuse.group_norm %{{.*}} {num_groups = 4 : i64} : tensor<1x4x2x3x3xf32>
func.func @instance_norm_3d(%x: tensor<1x4x2x3x3xf32>) -> tensor<1x4x2x3x3xf32> {
  %0 = fuse.group_norm %x {num_groups = 4 : i64} : tensor<1x4x2x3x3xf32>
  return %0 : tensor<1x4x2x3x3xf32>
}

// -----

func.func @groups_do_not_divide(%x: tensor<2x6x3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{'fuse.group_norm' op num_groups 4 must be positive and divide the 6 channels (dim 1)}}
  %0 = fuse.group_norm %x {num_groups = 4 : i64} : tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

func.func @zero_groups(%x: tensor<2x6x3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{'fuse.group_norm' op num_groups 0 must be positive and divide the 6 channels (dim 1)}}
  %0 = fuse.group_norm %x {num_groups = 0 : i64} : tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

func.func @rank_one(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'fuse.group_norm' op expected an input of rank >= 2 ([N, C, *]), got rank 1}}
  %0 = fuse.group_norm %x {num_groups = 1 : i64} : tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @bad_weight(%x: tensor<2x6x3xf32>, %w: tensor<3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{'fuse.group_norm' op expected weight of shape [6] (one per channel), got 'tensor<3xf32>'}}
  %0 = fuse.group_norm %x weight(%w : tensor<3xf32>) {num_groups = 3 : i64} : tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

func.func @negative_eps(%x: tensor<2x6x3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{'fuse.group_norm' op epsilon must be a non-negative f32 value, got -1.000000e+00}}
  %0 = fuse.group_norm %x {num_groups = 3 : i64, epsilon = -1.0 : f64} : tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

func.func @eps_not_f32(%x: tensor<2x6x3xf32>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{'fuse.group_norm' op epsilon must be a non-negative f32 value, got 1.000000e+300}}
  %0 = fuse.group_norm %x {num_groups = 3 : i64, epsilon = 1.0e300 : f64} : tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}
