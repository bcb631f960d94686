// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 %s | FileCheck %s
// Composite ops (fuse-decompose rewrites them into elementwise ops,
// reductions, group_norm and reshapes; the reference evaluates the original
// ops directly) at small awkward shapes: batch 1 and 3, channels 1/3/5,
// spatial sizes 1, 5, 7; after a transposed convolution and on a graph
// input; with and without weight and bias. Running variances are graph
// inputs shifted by 4 (fuse.check.mean), from fusecc-check's U[0.5, 1.5)
// (docs/design/checking.md, "Vacuous references") to U[4.5, 5.5).

// CHECK: @ct_bn_inference_affine: PASS
// CHECK: @bn_inference_input: PASS
// CHECK: @bn_inference_spatial1_weight: PASS
// CHECK: @ct_bn_training_affine: PASS
// CHECK: @bn_training_input_3d_c1: PASS
// CHECK: @bn_training_spatial1: PASS
// CHECK: @ct_bn_training_batch1_bias: PASS
// CHECK: @bn_training_then_relu: PASS
// CHECK: @ct_instance_norm_affine: PASS
// CHECK: @instance_norm_input_3d: PASS
// CHECK: @instance_norm_c1_weight: PASS

func.func @ct_bn_inference_affine(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %b: tensor<5xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %y = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-03 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

func.func @bn_inference_input(%x: tensor<1x3x5x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32> {fuse.check.mean = 4.0 : f64}) -> tensor<1x3x5x5xf32> {
  %y = fuse.batch_norm %x, %rm, %rv : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

func.func @bn_inference_spatial1_weight(%x: tensor<3x5x1x1x1xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<5xf32>) -> tensor<3x5x1x1x1xf32> {
  %y = fuse.batch_norm %x, %rm, %rv weight(%g) : (tensor<3x5x1x1x1xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x1x1x1xf32>
  return %y : tensor<3x5x1x1x1xf32>
}

func.func @ct_bn_training_affine(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %b: tensor<5xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %y = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%bb) {training = true} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

func.func @bn_training_input_3d_c1(%x: tensor<3x1x5x7x1xf32>, %rm: tensor<1xf32>, %rv: tensor<1xf32>) -> tensor<3x1x5x7x1xf32> {
  %y = fuse.batch_norm %x, %rm, %rv {training = true, epsilon = 1.0e-03 : f64} : (tensor<3x1x5x7x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x1x5x7x1xf32>
  return %y : tensor<3x1x5x7x1xf32>
}

func.func @bn_training_spatial1(%x: tensor<3x5x1xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x1xf32> {
  %y = fuse.batch_norm %x, %rm, %rv weight(%g) bias(%bb) {training = true} : (tensor<3x5x1xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x1xf32>
  return %y : tensor<3x5x1xf32>
}

func.func @ct_bn_training_batch1_bias(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>, %bb: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32>
  %y = fuse.batch_norm %c, %rm, %rv bias(%bb) {training = true} : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

func.func @bn_training_then_relu(%x: tensor<3x3x5x7xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>, %g: tensor<3xf32>) -> tensor<3x3x5x7xf32> {
  %y = fuse.batch_norm %x, %rm, %rv weight(%g) {training = true} : (tensor<3x3x5x7xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %r = fuse.relu %y : tensor<3x3x5x7xf32>
  return %r : tensor<3x3x5x7xf32>
}

func.func @ct_instance_norm_affine(%x: tensor<3x2x3x3xf32>, %w: tensor<2x5x3x3xf32>, %b: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x5x5xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x2x3x3xf32>, tensor<2x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x5xf32>
  %y = fuse.instance_norm %c weight(%g : tensor<5xf32>) bias(%bb : tensor<5xf32>) : tensor<3x5x5x5xf32>
  return %y : tensor<3x5x5x5xf32>
}

func.func @instance_norm_input_3d(%x: tensor<1x3x5x7x1xf32>) -> tensor<1x3x5x7x1xf32> {
  %y = fuse.instance_norm %x {epsilon = 1.0e-03 : f64} : tensor<1x3x5x7x1xf32>
  return %y : tensor<1x3x5x7x1xf32>
}

func.func @instance_norm_c1_weight(%x: tensor<3x1x7xf32>, %g: tensor<1xf32>) -> tensor<3x1x7xf32> {
  %y = fuse.instance_norm %x weight(%g : tensor<1xf32>) : tensor<3x1x7xf32>
  return %y : tensor<3x1x7xf32>
}
