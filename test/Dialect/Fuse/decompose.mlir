// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-decompose))' | FileCheck %s
// fuse-decompose: each composite op becomes the ops it is made of, moved
// up (in the order built) to just after their operands.

// Inference batch_norm after a convolution: the per-channel scale
// (rsqrt(running_var + eps) * weight) and the parameter views move before
// the convolution, whose epilogue then reads them.
// CHECK-LABEL: func.func @bn_inference
// CHECK-SAME: (%[[X:[^:]*]]: tensor<3x4x4xf32>, %[[W:[^:]*]]: tensor<4x5x3xf32>, %[[RM:[^:]*]]: tensor<5xf32>, %[[RV:[^:]*]]: tensor<5xf32>, %[[G:[^:]*]]: tensor<5xf32>, %[[B:[^:]*]]: tensor<5xf32>)
// CHECK-NEXT: %[[EPS:.*]] = arith.constant dense<1.000000e-03> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = fuse.add %[[RV]], %[[EPS]] : tensor<5xf32>, tensor<f32> -> tensor<5xf32>
// CHECK-NEXT: %[[I:.*]] = fuse.rsqrt %[[A]] : tensor<5xf32>
// CHECK-NEXT: %[[S:.*]] = fuse.mul %[[I]], %[[G]] : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[SV:.*]] = fuse.reshape %[[S]] : tensor<5xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[MV:.*]] = fuse.reshape %[[RM]] : tensor<5xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[BV:.*]] = fuse.reshape %[[B]] : tensor<5xf32> -> tensor<5x1xf32>
// CHECK-NEXT: %[[C:.*]] = fuse.conv_transpose %[[X]], %[[W]]
// CHECK-NEXT: %[[D:.*]] = fuse.sub %[[C]], %[[MV]] : tensor<3x5x7xf32>, tensor<5x1xf32> -> tensor<3x5x7xf32>
// CHECK-NEXT: %[[N:.*]] = fuse.mul %[[D]], %[[SV]] : tensor<3x5x7xf32>, tensor<5x1xf32> -> tensor<3x5x7xf32>
// CHECK-NEXT: %[[Y:.*]] = fuse.add %[[N]], %[[BV]] : tensor<3x5x7xf32>, tensor<5x1xf32> -> tensor<3x5x7xf32>
// CHECK-NEXT: return %[[Y]]
func.func @bn_inference(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>) -> tensor<3x5x7xf32>
  %y = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-03 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

// -----

// Inference without weight and bias.
// CHECK-LABEL: func.func @bn_inference_plain
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x3x5x5xf32>, %[[RM:[^:]*]]: tensor<3xf32>, %[[RV:[^:]*]]: tensor<3xf32>)
// CHECK-NEXT: %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %[[A:.*]] = fuse.add %[[RV]], %[[EPS]]
// CHECK-NEXT: %[[I:.*]] = fuse.rsqrt %[[A]] : tensor<3xf32>
// CHECK-NEXT: %[[SV:.*]] = fuse.reshape %[[I]] : tensor<3xf32> -> tensor<3x1x1xf32>
// CHECK-NEXT: %[[MV:.*]] = fuse.reshape %[[RM]] : tensor<3xf32> -> tensor<3x1x1xf32>
// CHECK-NEXT: %[[D:.*]] = fuse.sub %[[X]], %[[MV]]
// CHECK-NEXT: %[[Y:.*]] = fuse.mul %[[D]], %[[SV]] : tensor<1x3x5x5xf32>, tensor<3x1x1xf32> -> tensor<1x3x5x5xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-NOT: fuse.batch_norm
func.func @bn_inference_plain(%x: tensor<1x3x5x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32>) -> tensor<1x3x5x5xf32> {
  %y = fuse.batch_norm %x, %rm, %rv : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// Training: batch statistics over dims (0, 2, 3), a mean and a biased
// fuse.var (squared deviations from the mean; fuse-split-reductions makes
// both per-(sample, channel) statistics combined over the batch); then the
// updated running statistics, running + 0.25 * (batch - running), the
// variance's from an unbiased fuse.var (correction 1) of its own.
// CHECK-LABEL: func.func @bn_training
// CHECK-SAME: (%[[X:[^:]*]]: tensor<3x5x7x1xf32>, %[[RM:[^:]*]]: tensor<5xf32>, %[[RV:[^:]*]]: tensor<5xf32>, %[[G:[^:]*]]: tensor<5xf32>, %[[B:[^:]*]]: tensor<5xf32>)
// CHECK-NEXT: %[[EPS:.*]] = arith.constant dense<9.99999974E-6> : tensor<f32>
// CHECK-NEXT: %[[GV:.*]] = fuse.reshape %[[G]] : tensor<5xf32> -> tensor<5x1x1xf32>
// CHECK-NEXT: %[[BV:.*]] = fuse.reshape %[[B]] : tensor<5xf32> -> tensor<5x1x1xf32>
// CHECK-NEXT: %[[M:.*]] = fuse.mean %[[X]] {dims = array<i64: 0, 2, 3>, keepdim = true} : tensor<3x5x7x1xf32> -> tensor<1x5x1x1xf32>
// CHECK-NEXT: %[[V:.*]] = fuse.var %[[X]] {correction = 0 : i64, dims = array<i64: 0, 2, 3>, keepdim = true} : tensor<3x5x7x1xf32> -> tensor<1x5x1x1xf32>
// CHECK-NEXT: %[[A:.*]] = fuse.add %[[V]], %[[EPS]]
// CHECK-NEXT: %[[I:.*]] = fuse.rsqrt %[[A]] : tensor<1x5x1x1xf32>
// CHECK-NEXT: %[[D2:.*]] = fuse.sub %[[X]], %[[M]] : tensor<3x5x7x1xf32>, tensor<1x5x1x1xf32> -> tensor<3x5x7x1xf32>
// CHECK-NEXT: %[[N:.*]] = fuse.mul %[[D2]], %[[I]]
// CHECK-NEXT: %[[NW:.*]] = fuse.mul %[[N]], %[[GV]]
// CHECK-NEXT: %[[Y:.*]] = fuse.add %[[NW]], %[[BV]]
// CHECK-NEXT: %[[UV:.*]] = fuse.var %[[X]] {dims = array<i64: 0, 2, 3>, keepdim = true} : tensor<3x5x7x1xf32> -> tensor<1x5x1x1xf32>
// CHECK-NEXT: %[[MC:.*]] = fuse.reshape %[[M]] : tensor<1x5x1x1xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[DM:.*]] = fuse.sub %[[MC]], %[[RM]] : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[MOM:.*]] = arith.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT: %[[SM:.*]] = fuse.mul %[[DM]], %[[MOM]]
// CHECK-NEXT: %[[RM2:.*]] = fuse.add %[[RM]], %[[SM]] : tensor<5xf32>, tensor<5xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[VC:.*]] = fuse.reshape %[[UV]] : tensor<1x5x1x1xf32> -> tensor<5xf32>
// CHECK-NEXT: %[[DV:.*]] = fuse.sub %[[VC]], %[[RV]]
// CHECK-NEXT: %[[MOM2:.*]] = arith.constant dense<2.500000e-01> : tensor<f32>
// CHECK-NEXT: %[[SV:.*]] = fuse.mul %[[DV]], %[[MOM2]]
// CHECK-NEXT: %[[RV2:.*]] = fuse.add %[[RV]], %[[SV]]
// CHECK-NEXT: return %[[Y]], %[[RM2]], %[[RV2]]
func.func @bn_training(%x: tensor<3x5x7x1xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> (tensor<3x5x7x1xf32>, tensor<5xf32>, tensor<5xf32>) {
  %y:3 = fuse.batch_norm %x, %rm, %rv weight(%g) bias(%bb) {training = true, momentum = 0.25 : f64} : (tensor<3x5x7x1xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7x1xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x5x7x1xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

// Instance norm is group_norm with one group per channel.
// CHECK-LABEL: func.func @instance_norm
// CHECK-SAME: (%[[X:[^:]*]]: tensor<3x5x7xf32>, %[[G:[^:]*]]: tensor<5xf32>, %[[B:[^:]*]]: tensor<5xf32>)
// CHECK-NEXT: %[[Y:.*]] = fuse.group_norm %[[X]] weight(%[[G]] : tensor<5xf32>) bias(%[[B]] : tensor<5xf32>) {epsilon = 1.000000e-03 : f64, num_groups = 5 : i64} : tensor<3x5x7xf32>
// CHECK-NEXT: return %[[Y]]
func.func @instance_norm(%x: tensor<3x5x7xf32>, %g: tensor<5xf32>, %bb: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %y = fuse.instance_norm %x weight(%g : tensor<5xf32>) bias(%bb : tensor<5xf32>) {epsilon = 1.0e-03 : f64} : tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

// -----

// Ops other than composites are left alone: log_softmax is a
// normalisation (the statistics of softmax), not x - logsumexp(x).
// CHECK-LABEL: func.func @others
// CHECK-NEXT: fuse.softmax
// CHECK-NEXT: fuse.log_softmax
// CHECK-NEXT: return
func.func @others(%x: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
  %y = fuse.softmax %x {dim = 1 : i64} : tensor<3x5x7xf32>
  %z = fuse.log_softmax %y {dim = 1 : i64} : tensor<3x5x7xf32>
  return %z : tensor<3x5x7xf32>
}
