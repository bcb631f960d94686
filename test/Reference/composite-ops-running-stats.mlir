// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// Training batch_norm returning the updated running statistics
// (PyTorch's in-place update: momentum-weighted, the variance unbiased)
// next to its output: each result is checked on its own.

// CHECK: @ct_bn_running_stats#0: PASS
// CHECK: @ct_bn_running_stats#1: PASS
// CHECK: @ct_bn_running_stats#2: PASS
// CHECK: @bn_running_stats_input#0: PASS
// CHECK: @bn_running_stats_input#1: PASS
// CHECK: @bn_running_stats_input#2: PASS

func.func @ct_bn_running_stats(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %b: tensor<5xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>) {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%bb) {training = true, momentum = 0.25 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>
}

func.func @bn_running_stats_input(%x: tensor<1x3x5x1xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32> {fuse.check.mean = 4.0 : f64}) -> (tensor<1x3x5x1xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y:3 = fuse.batch_norm %x, %rm, %rv {training = true} : (tensor<1x3x5x1xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<1x3x5x1xf32>, tensor<3xf32>, tensor<3xf32>)
  return %y#0, %y#1, %y#2 : tensor<1x3x5x1xf32>, tensor<3xf32>, tensor<3xf32>
}
