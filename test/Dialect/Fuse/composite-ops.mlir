// RUN: fusecc-opt %s | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | fusecc-opt | FileCheck %s
// Composite ops (batch_norm, instance_norm) print and parse
// back, with and without their optional operands and results.

// CHECK-LABEL: func.func @batch_norm_inference
// CHECK: fuse.batch_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
func.func @batch_norm_inference(%x: tensor<3x5x7xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %0 = fuse.batch_norm %x, %rm, %rv : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  return %0 : tensor<3x5x7xf32>
}

// CHECK-LABEL: func.func @batch_norm_affine
// CHECK: fuse.batch_norm %{{.*}}, %{{.*}}, %{{.*}} weight(%{{.*}}) bias(%{{.*}}) {epsilon = 1.000000e-03 : f64} : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
func.func @batch_norm_affine(%x: tensor<1x3x5x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>, %w: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %0 = fuse.batch_norm %x, %rm, %rv weight(%w) bias(%b) {epsilon = 1.0e-03 : f64} : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}

// CHECK-LABEL: func.func @batch_norm_bias_only
// CHECK: fuse.batch_norm %{{.*}}, %{{.*}}, %{{.*}} bias(%{{.*}}) {training = true} : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>
func.func @batch_norm_bias_only(%x: tensor<2x3x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0 = fuse.batch_norm %x, %rm, %rv bias(%b) {training = true} : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @batch_norm_running_stats
// CHECK: = fuse.batch_norm %{{.*}}, %{{.*}}, %{{.*}} weight(%{{.*}}) {momentum = 2.500000e-01 : f64, training = true} : (tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>)
func.func @batch_norm_running_stats(%x: tensor<3x5x7x5x1xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %w: tensor<5xf32>) -> (tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>) {
  %y, %m, %v = fuse.batch_norm %x, %rm, %rv weight(%w) {training = true, momentum = 0.25 : f64} : (tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y, %m, %v : tensor<3x5x7x5x1xf32>, tensor<5xf32>, tensor<5xf32>
}

// CHECK-LABEL: func.func @instance_norm
// CHECK: fuse.instance_norm %{{.*}} : tensor<3x1x7xf32>
// CHECK: fuse.instance_norm %{{.*}} weight(%{{.*}} : tensor<1xf32>) bias(%{{.*}} : tensor<1xf32>) {epsilon = 1.000000e-03 : f64} : tensor<3x1x7xf32>
func.func @instance_norm(%x: tensor<3x1x7xf32>, %w: tensor<1xf32>, %b: tensor<1xf32>) -> tensor<3x1x7xf32> {
  %0 = fuse.instance_norm %x : tensor<3x1x7xf32>
  %1 = fuse.instance_norm %0 weight(%w : tensor<1xf32>) bias(%b : tensor<1xf32>) {epsilon = 1.0e-03 : f64} : tensor<3x1x7xf32>
  return %1 : tensor<3x1x7xf32>
}
