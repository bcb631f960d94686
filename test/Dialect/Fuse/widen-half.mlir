// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-widen-half))' | FileCheck %s

// Graph input and weights read through one widening cast each, the splat
// scalar widened in place, every op on f32, the result rounded once.
// CHECK-LABEL: func.func @conv_gelu
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x3x3xbf16>, %[[W:.*]]: tensor<4x2x3x3xbf16>) -> tensor<1x2x5x5xbf16>
// CHECK-DAG: %[[XW:.*]] = fuse.cast %[[X]] : tensor<1x4x3x3xbf16> -> tensor<1x4x3x3xf32>
// CHECK-DAG: %[[WW:.*]] = fuse.cast %[[W]] : tensor<4x2x3x3xbf16> -> tensor<4x2x3x3xf32>
// CHECK: %[[Y:.*]] = fuse.conv_transpose %[[XW]], %[[WW]] {{.*}} -> tensor<1x2x5x5xf32>
// CHECK: %[[G:.*]] = fuse.gelu %[[Y]] : tensor<1x2x5x5xf32>
// CHECK: %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[M:.*]] = fuse.mul %[[G]], %[[C]] : tensor<1x2x5x5xf32>, tensor<f32> -> tensor<1x2x5x5xf32>
// CHECK: %[[R:.*]] = fuse.cast %[[M]] : tensor<1x2x5x5xf32> -> tensor<1x2x5x5xbf16>
// CHECK: return %[[R]] : tensor<1x2x5x5xbf16>
func.func @conv_gelu(%x: tensor<1x4x3x3xbf16>, %w: tensor<4x2x3x3xbf16>) -> tensor<1x2x5x5xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>,
         padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>, groups = 1 : i64}
       : (tensor<1x4x3x3xbf16>, tensor<4x2x3x3xbf16>) -> tensor<1x2x5x5xbf16>
  %g = fuse.gelu %y : tensor<1x2x5x5xbf16>
  %c = arith.constant dense<0.5> : tensor<bf16>
  %m = fuse.mul %g, %c : tensor<1x2x5x5xbf16>, tensor<bf16> -> tensor<1x2x5x5xbf16>
  return %m : tensor<1x2x5x5xbf16>
}

// -----

// A half weight constant stays half (2-byte bundle constant), widened by a
// cast; f32 parameters of a normalisation are left alone.
// CHECK-LABEL: func.func @const_weight_norm
// CHECK: %[[K:.*]] = arith.constant dense<{{.*}}> : tensor<4xf16>
// CHECK: %[[KW:.*]] = fuse.cast %[[K]] : tensor<4xf16> -> tensor<4xf32>
// CHECK: %[[A:.*]] = fuse.add %{{.*}}, %[[KW]] : tensor<2x4xf32>, tensor<4xf32> -> tensor<2x4xf32>
// CHECK: %[[L:.*]] = fuse.layer_norm %[[A]] weight(%{{.*}} : tensor<4xf32>){{.*}} : tensor<2x4xf32>
// CHECK: fuse.cast %[[L]] : tensor<2x4xf32> -> tensor<2x4xf16>
func.func @const_weight_norm(%x: tensor<2x4xf16>, %g: tensor<4xf32>) -> tensor<2x4xf16> {
  %k = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf16>
  %a = fuse.add %x, %k : tensor<2x4xf16>, tensor<4xf16> -> tensor<2x4xf16>
  %l = fuse.layer_norm %a weight(%g : tensor<4xf32>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x4xf16>
  return %l : tensor<2x4xf16>
}

// -----

// An explicit cast to half in the middle of a graph rounds (kept), and its
// half value is read back through a widening cast; a cast to f32 of a value
// now computed in f32 is dropped.
// CHECK-LABEL: func.func @mixed
// CHECK: %[[E:.*]] = fuse.exp %{{.*}} : tensor<8xf32>
// CHECK: %[[H:.*]] = fuse.cast %[[E]] : tensor<8xf32> -> tensor<8xf16>
// CHECK: %[[HW:.*]] = fuse.cast %[[H]] : tensor<8xf16> -> tensor<8xf32>
// CHECK: %[[T:.*]] = fuse.tanh %[[HW]] : tensor<8xf32>
// CHECK-NOT: fuse.cast
// CHECK: return %[[T]] : tensor<8xf32>
func.func @mixed(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = fuse.exp %x : tensor<8xf32>
  %h = fuse.cast %e : tensor<8xf32> -> tensor<8xf16>
  %t = fuse.tanh %h : tensor<8xf16>
  %f = fuse.cast %t : tensor<8xf16> -> tensor<8xf32>
  return %f : tensor<8xf32>
}

// -----

// f32 graphs are unchanged.
// CHECK-LABEL: func.func @f32_graph
// CHECK-NEXT: fuse.relu
// CHECK-NEXT: return
func.func @f32_graph(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = fuse.relu %x : tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The decoder ops are retyped like the rest: every concatenated input and
// the forward convolution's weight read through one widening cast.
// CHECK-LABEL: func.func @decoder_ops
// CHECK-DAG: %[[XW:.*]] = fuse.cast %{{.*}} : tensor<1x2x4xf16> -> tensor<1x2x4xf32>
// CHECK-DAG: %[[SW:.*]] = fuse.cast %{{.*}} : tensor<1x1x8xf16> -> tensor<1x1x8xf32>
// CHECK-DAG: %[[WW:.*]] = fuse.cast %{{.*}} : tensor<2x3x3xf16> -> tensor<2x3x3xf32>
// CHECK: %[[U:.*]] = fuse.upsample %[[XW]] : tensor<1x2x4xf32> -> tensor<1x2x8xf32>
// CHECK: %[[C:.*]] = fuse.concat %[[U]], %[[SW]] {dim = 1 : i64} : (tensor<1x2x8xf32>, tensor<1x1x8xf32>) -> tensor<1x3x8xf32>
// CHECK: %[[Y:.*]] = fuse.conv %[[C]], %[[WW]] {{.*}} -> tensor<1x2x8xf32>
// CHECK: %[[R:.*]] = fuse.cast %[[Y]] : tensor<1x2x8xf32> -> tensor<1x2x8xf16>
// CHECK: return %[[R]]
func.func @decoder_ops(%x: tensor<1x2x4xf16>, %s: tensor<1x1x8xf16>, %w: tensor<2x3x3xf16>) -> tensor<1x2x8xf16> {
  %u = fuse.upsample %x : tensor<1x2x4xf16> -> tensor<1x2x8xf16>
  %c = fuse.concat %u, %s {dim = 1 : i64} : (tensor<1x2x8xf16>, tensor<1x1x8xf16>) -> tensor<1x3x8xf16>
  %y = fuse.conv %c, %w {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>} : (tensor<1x3x8xf16>, tensor<2x3x3xf16>) -> tensor<1x2x8xf16>
  return %y : tensor<1x2x8xf16>
}
