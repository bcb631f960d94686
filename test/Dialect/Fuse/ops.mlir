// RUN: fusecc-opt %s | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of every fuse op and of #fuse.tile.

//===----------------------------------------------------------------------===//
// conv_transpose
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @conv1d
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x5xf32>, %[[W:.*]]: tensor<4x3x3xf32>)
// CHECK: %[[R:.*]] = fuse.conv_transpose %[[X]], %[[W]]
// CHECK-SAME: dilation = array<i64: 1>, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>
// CHECK-SAME: : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "conv1d"
// GENERIC: "fuse.conv_transpose"(%{{.*}}, %{{.*}}) <{dilation = array<i64: 1>, groups = 1 : i64, output_padding = array<i64: 0>, padding = array<i64: 0>, stride = array<i64: 1>}> : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
func.func @conv1d(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x3x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x3x7xf32>
  return %0 : tensor<1x3x7xf32>
}

// CHECK-LABEL: func.func @conv1d_bias_groups
// CHECK-SAME: (%[[X:.*]]: tensor<3x4x5xf32>, %[[W:.*]]: tensor<4x3x2xf32>, %[[B:.*]]: tensor<6xf32>)
// CHECK: fuse.conv_transpose %[[X]], %[[W]], %[[B]]
// CHECK-SAME: dilation = array<i64: 2>, groups = 2 : i64, output_padding = array<i64: 1>, padding = array<i64: 1>, stride = array<i64: 3>
// CHECK-SAME: : (tensor<3x4x5xf32>, tensor<4x3x2xf32>, tensor<6xf32>) -> tensor<3x6x14xf32>
func.func @conv1d_bias_groups(%x: tensor<3x4x5xf32>, %w: tensor<4x3x2xf32>, %b: tensor<6xf32>) -> tensor<3x6x14xf32> {
  // (5 - 1) * 3 - 2 * 1 + 2 * (2 - 1) + 1 + 1 = 14
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 1>,
         output_padding = array<i64: 1>, dilation = array<i64: 2>, groups = 2 : i64}
       : (tensor<3x4x5xf32>, tensor<4x3x2xf32>, tensor<6xf32>) -> tensor<3x6x14xf32>
  return %0 : tensor<3x6x14xf32>
}

// CHECK-LABEL: func.func @conv2d
// CHECK: fuse.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
// CHECK-SAME: : (tensor<2x8x4x4xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>) -> tensor<2x16x9x9xf32>
func.func @conv2d(%x: tensor<2x8x4x4xf32>, %w: tensor<8x16x4x4xf32>, %b: tensor<16xf32>) -> tensor<2x16x9x9xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<2x8x4x4xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>) -> tensor<2x16x9x9xf32>
  return %0 : tensor<2x16x9x9xf32>
}

// An end crop (output_padding -1: ONNX pads 0 / 1) and an output_padding
// at the stride (2 with stride 2: ONNX pads 2 / 0), which PyTorch's rule
// would refuse.
// CHECK-LABEL: func.func @conv2d_crops
// CHECK: fuse.conv_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, output_padding = array<i64: -1, 2>, padding = array<i64: 0, 2>, stride = array<i64: 2, 2>}
// CHECK-SAME: -> tensor<1x2x6x7xf32>
func.func @conv2d_crops(%x: tensor<1x1x3x4xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x6x7xf32> {
  // (3 - 1) * 2 - 0 + 2 - 1 + 1 = 6; (4 - 1) * 2 - 4 + 2 + 2 + 1 = 7
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 2>,
         output_padding = array<i64: -1, 2>, dilation = array<i64: 1, 1>}
       : (tensor<1x1x3x4xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x6x7xf32>
  return %0 : tensor<1x2x6x7xf32>
}

// A negative padding: bias-only positions before the scatter's first one.
// CHECK-LABEL: func.func @conv2d_negative_padding
// CHECK: fuse.conv_transpose %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1>, output_padding = array<i64: 1, -1>, padding = array<i64: -1, -2>, stride = array<i64: 2, 4>}
// CHECK-SAME: -> tensor<1x2x10x16xf32>
func.func @conv2d_negative_padding(%x: tensor<1x1x3x4xf32>, %w: tensor<1x2x3x1xf32>) -> tensor<1x2x10x16xf32> {
  // (3 - 1) * 2 + 2 + 2 + 1 + 1 = 10; (4 - 1) * 4 + 4 + 0 - 1 + 1 = 16
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 4>, padding = array<i64: -1, -2>,
         output_padding = array<i64: 1, -1>, dilation = array<i64: 1, 1>}
       : (tensor<1x1x3x4xf32>, tensor<1x2x3x1xf32>) -> tensor<1x2x10x16xf32>
  return %0 : tensor<1x2x10x16xf32>
}

// CHECK-LABEL: func.func @conv2d_groups_no_bias
// CHECK: fuse.conv_transpose %{{[^,]*}}, %{{[^,]*}} {dilation = array<i64: 1, 2>, groups = 4 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 0, 1>, stride = array<i64: 1, 2>}
// CHECK-SAME: -> tensor<1x8x5x9xf32>
func.func @conv2d_groups_no_bias(%x: tensor<1x8x3x4xf32>, %w: tensor<8x2x3x3xf32>) -> tensor<1x8x5x9xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 2>, groups = 4 : i64}
       : (tensor<1x8x3x4xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x9xf32>
  return %0 : tensor<1x8x5x9xf32>
}

// CHECK-LABEL: func.func @conv3d
// CHECK: fuse.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {dilation = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, padding = array<i64: 1, 1, 1>, stride = array<i64: 2, 2, 2>}
// CHECK-SAME: : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>) -> tensor<16x64x32x64x64xf32>
func.func @conv3d(%x: tensor<16x32x16x32x32xf32>, %w: tensor<32x64x3x3x3xf32>,
                  %b: tensor<64xf32>) -> tensor<16x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>, groups = 1 : i64}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  return %0 : tensor<16x64x32x64x64xf32>
}

// CHECK-LABEL: func.func @conv3d_dilation_groups
// CHECK: fuse.conv_transpose %{{[^,]*}}, %{{[^,]*}} {dilation = array<i64: 2, 2, 2>, groups = 2 : i64, output_padding = array<i64: 0, 1, 0>, padding = array<i64: 1, 1, 1>, stride = array<i64: 2, 2, 2>}
// CHECK-SAME: : (tensor<1x4x2x3x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x6x5x8x9xf32>
func.func @conv3d_dilation_groups(%x: tensor<1x4x2x3x4xf32>, %w: tensor<4x3x3x3x3xf32>) -> tensor<1x6x5x8x9xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 1, 0>,
         dilation = array<i64: 2, 2, 2>, groups = 2 : i64}
       : (tensor<1x4x2x3x4xf32>, tensor<4x3x3x3x3xf32>) -> tensor<1x6x5x8x9xf32>
  return %0 : tensor<1x6x5x8x9xf32>
}

//===----------------------------------------------------------------------===//
// Unary elementwise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[A0:.*]] = fuse.neg %[[X]] : tensor<2x3xf32>
// CHECK: %[[A1:.*]] = fuse.abs %[[A0]] : tensor<2x3xf32>
// CHECK: %[[A2:.*]] = fuse.exp %[[A1]] : tensor<2x3xf32>
// CHECK: %[[A3:.*]] = fuse.log %[[A2]] : tensor<2x3xf32>
// CHECK: %[[A4:.*]] = fuse.sqrt %[[A3]] : tensor<2x3xf32>
// CHECK: %[[A5:.*]] = fuse.rsqrt %[[A4]] : tensor<2x3xf32>
// CHECK: %[[A6:.*]] = fuse.erf %[[A5]] : tensor<2x3xf32>
// CHECK: %[[A7:.*]] = fuse.tanh %[[A6]] : tensor<2x3xf32>
// CHECK: %[[A8:.*]] = fuse.sigmoid %[[A7]] : tensor<2x3xf32>
// CHECK: %[[A9:.*]] = fuse.relu %[[A8]] : tensor<2x3xf32>
// CHECK: %[[A10:.*]] = fuse.silu %[[A9]] : tensor<2x3xf32>
// CHECK: %[[A11:.*]] = fuse.softplus %[[A10]] : tensor<2x3xf32>
// CHECK: %[[A12:.*]] = fuse.mish %[[A11]] : tensor<2x3xf32>
// CHECK: %[[A13:.*]] = fuse.hardsigmoid %[[A12]] : tensor<2x3xf32>
// CHECK: %[[A14:.*]] = fuse.hardswish %[[A13]] : tensor<2x3xf32>
// CHECK: return %[[A14]]
// GENERIC-LABEL: sym_name = "unary"
// GENERIC: "fuse.neg"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC: "fuse.hardswish"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = fuse.neg %x : tensor<2x3xf32>
  %1 = fuse.abs %0 : tensor<2x3xf32>
  %2 = fuse.exp %1 : tensor<2x3xf32>
  %3 = fuse.log %2 : tensor<2x3xf32>
  %4 = fuse.sqrt %3 : tensor<2x3xf32>
  %5 = fuse.rsqrt %4 : tensor<2x3xf32>
  %6 = fuse.erf %5 : tensor<2x3xf32>
  %7 = fuse.tanh %6 : tensor<2x3xf32>
  %8 = fuse.sigmoid %7 : tensor<2x3xf32>
  %9 = fuse.relu %8 : tensor<2x3xf32>
  %10 = fuse.silu %9 : tensor<2x3xf32>
  %11 = fuse.softplus %10 : tensor<2x3xf32>
  %12 = fuse.mish %11 : tensor<2x3xf32>
  %13 = fuse.hardsigmoid %12 : tensor<2x3xf32>
  %14 = fuse.hardswish %13 : tensor<2x3xf32>
  return %14 : tensor<2x3xf32>
}

// Rank-0 tensors are valid graph values too.
// CHECK-LABEL: func.func @unary_rank0
// CHECK: fuse.relu %{{.*}} : tensor<f32>
func.func @unary_rank0(%x: tensor<f32>) -> tensor<f32> {
  %0 = fuse.relu %x : tensor<f32>
  return %0 : tensor<f32>
}

// Default-valued attributes are elided by the printer, others kept.
// CHECK-LABEL: func.func @unary_attrs
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[G0:.*]] = fuse.gelu %[[X]] : tensor<4xf32>
// CHECK: %[[G1:.*]] = fuse.gelu %[[G0]] {approximate = "tanh"} : tensor<4xf32>
// CHECK: %[[G2:.*]] = fuse.gelu %[[G1]] : tensor<4xf32>
// CHECK: %[[L0:.*]] = fuse.leaky_relu %[[G2]] : tensor<4xf32>
// CHECK: %[[L1:.*]] = fuse.leaky_relu %[[L0]] {slope = 2.000000e-01 : f64} : tensor<4xf32>
// CHECK: %[[L2:.*]] = fuse.leaky_relu %[[L1]] : tensor<4xf32>
// CHECK: %[[C0:.*]] = fuse.clamp %[[L2]] {min = -1.000000e+00 : f64} : tensor<4xf32>
// CHECK: %[[C1:.*]] = fuse.clamp %[[C0]] {max = 6.000000e+00 : f64} : tensor<4xf32>
// CHECK: %[[C2:.*]] = fuse.clamp %[[C1]] {max = 1.000000e+00 : f64, min = -1.000000e+00 : f64} : tensor<4xf32>
// CHECK: %[[C3:.*]] = fuse.clamp %[[C2]] {max = 5.000000e-01 : f64, min = 5.000000e-01 : f64} : tensor<4xf32>
// CHECK: return %[[C3]]
// GENERIC-LABEL: sym_name = "unary_attrs"
// GENERIC: "fuse.gelu"(%{{.*}}) <{approximate = "none"}>
// GENERIC: "fuse.gelu"(%{{.*}}) <{approximate = "tanh"}>
// GENERIC: "fuse.leaky_relu"(%{{.*}}) <{slope = 1.000000e-02 : f64}>
// GENERIC: "fuse.clamp"(%{{.*}}) <{min = -1.000000e+00 : f64}>
func.func @unary_attrs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.gelu %x : tensor<4xf32>
  %1 = fuse.gelu %0 {approximate = "tanh"} : tensor<4xf32>
  %2 = fuse.gelu %1 {approximate = "none"} : tensor<4xf32>
  %3 = fuse.leaky_relu %2 : tensor<4xf32>
  %4 = fuse.leaky_relu %3 {slope = 0.2 : f64} : tensor<4xf32>
  %5 = fuse.leaky_relu %4 {slope = 0.01 : f64} : tensor<4xf32>
  %6 = fuse.clamp %5 {min = -1.0 : f64} : tensor<4xf32>
  %7 = fuse.clamp %6 {max = 6.0 : f64} : tensor<4xf32>
  %8 = fuse.clamp %7 {min = -1.0 : f64, max = 1.0 : f64} : tensor<4xf32>
  %9 = fuse.clamp %8 {min = 0.5 : f64, max = 0.5 : f64} : tensor<4xf32>
  return %9 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops (broadcasting)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x3xf32>, %[[B:.*]]: tensor<4x1xf32>, %[[S:.*]]: tensor<f32>, %[[R:.*]]: tensor<1x1x3xf32>)
// CHECK: %[[V0:.*]] = fuse.add %[[X]], %[[B]] : tensor<2x4x3xf32>, tensor<4x1xf32> -> tensor<2x4x3xf32>
// CHECK: %[[V1:.*]] = fuse.sub %[[S]], %[[V0]] : tensor<f32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
// CHECK: %[[V2:.*]] = fuse.mul %[[V1]], %[[R]] : tensor<2x4x3xf32>, tensor<1x1x3xf32> -> tensor<2x4x3xf32>
// CHECK: %[[V3:.*]] = fuse.div %[[V2]], %[[X]] : tensor<2x4x3xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
// CHECK: %[[V4:.*]] = fuse.maximum %[[V3]], %[[S]] : tensor<2x4x3xf32>, tensor<f32> -> tensor<2x4x3xf32>
// CHECK: %[[V5:.*]] = fuse.minimum %[[V4]], %[[B]] : tensor<2x4x3xf32>, tensor<4x1xf32> -> tensor<2x4x3xf32>
// CHECK: %[[V6:.*]] = fuse.pow %[[V5]], %[[S]] : tensor<2x4x3xf32>, tensor<f32> -> tensor<2x4x3xf32>
// Both operands stretched: [4, 1] x [1, 1, 3] -> [1, 4, 3].
// CHECK: %[[V7:.*]] = fuse.add %[[B]], %[[R]] : tensor<4x1xf32>, tensor<1x1x3xf32> -> tensor<1x4x3xf32>
// CHECK: %[[V8:.*]] = fuse.mul %[[V6]], %[[V7]] : tensor<2x4x3xf32>, tensor<1x4x3xf32> -> tensor<2x4x3xf32>
// CHECK: return %[[V8]]
// GENERIC-LABEL: sym_name = "binary"
// GENERIC: "fuse.add"(%{{.*}}, %{{.*}}) : (tensor<2x4x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
// GENERIC: "fuse.pow"(%{{.*}}, %{{.*}}) : (tensor<2x4x3xf32>, tensor<f32>) -> tensor<2x4x3xf32>
func.func @binary(%x: tensor<2x4x3xf32>, %b: tensor<4x1xf32>, %s: tensor<f32>,
                  %r: tensor<1x1x3xf32>) -> tensor<2x4x3xf32> {
  %0 = fuse.add %x, %b : tensor<2x4x3xf32>, tensor<4x1xf32> -> tensor<2x4x3xf32>
  %1 = fuse.sub %s, %0 : tensor<f32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  %2 = fuse.mul %1, %r : tensor<2x4x3xf32>, tensor<1x1x3xf32> -> tensor<2x4x3xf32>
  %3 = fuse.div %2, %x : tensor<2x4x3xf32>, tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  %4 = fuse.maximum %3, %s : tensor<2x4x3xf32>, tensor<f32> -> tensor<2x4x3xf32>
  %5 = fuse.minimum %4, %b : tensor<2x4x3xf32>, tensor<4x1xf32> -> tensor<2x4x3xf32>
  %6 = fuse.pow %5, %s : tensor<2x4x3xf32>, tensor<f32> -> tensor<2x4x3xf32>
  %7 = fuse.add %b, %r : tensor<4x1xf32>, tensor<1x1x3xf32> -> tensor<1x4x3xf32>
  %8 = fuse.mul %6, %7 : tensor<2x4x3xf32>, tensor<1x4x3xf32> -> tensor<2x4x3xf32>
  return %8 : tensor<2x4x3xf32>
}

//===----------------------------------------------------------------------===//
// Normalisations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @softmax
// CHECK: %[[S0:.*]] = fuse.softmax %{{.*}} {dim = 1 : i64} : tensor<2x4x8xf32>
// CHECK: %[[S1:.*]] = fuse.softmax %[[S0]] {dim = 2 : i64} : tensor<2x4x8xf32>
// CHECK: %[[S2:.*]] = fuse.softmax %[[S1]] {dim = 0 : i64} : tensor<2x4x8xf32>
// CHECK: return %[[S2]]
func.func @softmax(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = fuse.softmax %x {dim = 1 : i64} : tensor<2x4x8xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<2x4x8xf32>
  %2 = fuse.softmax %1 {dim = 0 : i64} : tensor<2x4x8xf32>
  return %2 : tensor<2x4x8xf32>
}

// log_softmax is a normalisation like softmax, with its own name.
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[L0:.*]] = fuse.log_softmax %{{.*}} {dim = 1 : i64} : tensor<2x4x8xf32>
// CHECK: %[[L1:.*]] = fuse.log_softmax %[[L0]] {dim = 2 : i64} : tensor<2x4x8xf32>
// CHECK: return %[[L1]]
// GENERIC-LABEL: sym_name = "log_softmax"
// GENERIC: "fuse.log_softmax"(%{{.*}}) <{dim = 1 : i64}> : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
func.func @log_softmax(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = fuse.log_softmax %x {dim = 1 : i64} : tensor<2x4x8xf32>
  %1 = fuse.log_softmax %0 {dim = 2 : i64} : tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>, %[[G:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[G2:.*]]: tensor<4x8xf32>)
// CHECK: %[[N0:.*]] = fuse.layer_norm %[[X]] : tensor<2x4x8xf32>
// CHECK: %[[N1:.*]] = fuse.layer_norm %[[N0]] weight(%[[G]] : tensor<8xf32>) : tensor<2x4x8xf32>
// CHECK: %[[N2:.*]] = fuse.layer_norm %[[N1]] bias(%[[B]] : tensor<8xf32>) : tensor<2x4x8xf32>
// CHECK: %[[N3:.*]] = fuse.layer_norm %[[N2]] weight(%[[G]] : tensor<8xf32>) bias(%[[B]] : tensor<8xf32>) {epsilon = 1.000000e-03 : f64} : tensor<2x4x8xf32>
// CHECK: %[[N4:.*]] = fuse.layer_norm %[[N3]] weight(%[[G2]] : tensor<4x8xf32>) {epsilon = 0.000000e+00 : f64, normalized_rank = 2 : i64} : tensor<2x4x8xf32>
// CHECK: %[[N5:.*]] = fuse.layer_norm %[[N4]] {normalized_rank = 3 : i64} : tensor<2x4x8xf32>
// CHECK: return %[[N5]]
// GENERIC-LABEL: sym_name = "layer_norm"
// GENERIC: "fuse.layer_norm"(%{{.*}}) <{epsilon = 1.000000e-05 : f64, normalized_rank = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC: "fuse.layer_norm"(%{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC: "fuse.layer_norm"(%{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 0, 1>}>
// GENERIC: "fuse.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) <{{{.*}}operandSegmentSizes = array<i32: 1, 1, 1>}>
func.func @layer_norm(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>,
                      %g2: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = fuse.layer_norm %x : tensor<2x4x8xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<8xf32>) : tensor<2x4x8xf32>
  %2 = fuse.layer_norm %1 bias(%b : tensor<8xf32>) {normalized_rank = 1 : i64} : tensor<2x4x8xf32>
  %3 = fuse.layer_norm %2 weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>)
         {epsilon = 1.0e-3 : f64} : tensor<2x4x8xf32>
  %4 = fuse.layer_norm %3 weight(%g2 : tensor<4x8xf32>)
         {normalized_rank = 2 : i64, epsilon = 0.0 : f64} : tensor<2x4x8xf32>
  %5 = fuse.layer_norm %4 {normalized_rank = 3 : i64} : tensor<2x4x8xf32>
  return %5 : tensor<2x4x8xf32>
}

//===----------------------------------------------------------------------===//
// fuse.kernel, fuse.yield and #fuse.tile
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x5xf32>, %[[W:.*]]: tensor<4x8x3xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[K:.*]] = fuse.kernel "kernel_k0" ins(%[[X]], %[[W]], %[[B]] : tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>)
// CHECK-SAME: {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// CHECK-SAME: -> tensor<2x8x7xf32> {
// CHECK: ^bb0(%[[A0:.*]]: tensor<2x4x5xf32>, %[[A1:.*]]: tensor<4x8x3xf32>, %[[A2:.*]]: tensor<8xf32>):
// CHECK: %[[C:.*]] = fuse.conv_transpose %[[A0]], %[[A1]], %[[A2]]
// CHECK: %[[CST:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[M:.*]] = fuse.mul %[[C]], %[[CST]]
// CHECK: %[[S:.*]] = fuse.softmax %[[M]] {dim = 1 : i64}
// CHECK: fuse.yield %[[S]] : tensor<2x8x7xf32>
// CHECK: }
// CHECK: return %[[K]]
// GENERIC-LABEL: sym_name = "kernel"
// GENERIC: "fuse.kernel"(%{{.*}}, %{{.*}}, %{{.*}}) <{config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, kernel_name = "kernel_k0"}> ({
// GENERIC: "fuse.yield"(%{{.*}}) : (tensor<2x8x7xf32>) -> ()
func.func @kernel(%x: tensor<2x4x5xf32>, %w: tensor<4x8x3xf32>, %b: tensor<8xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.kernel "kernel_k0" ins(%x, %w, %b : tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8,
                              chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<2x8x7xf32> {
  ^bb0(%a: tensor<2x4x5xf32>, %bw: tensor<4x8x3xf32>, %bb: tensor<8xf32>):
    %c = fuse.conv_transpose %a, %bw, %bb {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>) -> tensor<2x8x7xf32>
    %two = arith.constant dense<2.0> : tensor<f32>
    %m = fuse.mul %c, %two : tensor<2x8x7xf32>, tensor<f32> -> tensor<2x8x7xf32>
    %s = fuse.softmax %m {dim = 1 : i64} : tensor<2x8x7xf32>
    fuse.yield %s : tensor<2x8x7xf32>
  }
  return %0 : tensor<2x8x7xf32>
}

// A kernel without a config (before fuse-tile-kernels) and without inputs.
// CHECK-LABEL: func.func @kernel_untiled
// CHECK: fuse.kernel "empty" ins() -> tensor<2xf32> {
// CHECK-NEXT: arith.constant
// CHECK-NEXT: fuse.yield %{{.*}} : tensor<2xf32>
func.func @kernel_untiled() -> tensor<2xf32> {
  %0 = fuse.kernel "empty" ins() -> tensor<2xf32> {
    %c = arith.constant dense<1.0> : tensor<2xf32>
    fuse.yield %c : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// The attribute on its own, as a discardable attribute; tensor-core
// parameters (mma*, rows) default to 0, 0, 0, 0, 1 and are elided then.
// CHECK-LABEL: func.func @tile_attr_mma
// CHECK-SAME: fuse.cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>
// CHECK-LABEL: func.func @tile_attr_defaults
// CHECK-SAME: fuse.cfg = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @tile_attr_mma() attributes {
    fuse.cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16,
                          chanPerThread = 1, ciChunk = 16,
                          types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>,
                          mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2,
                          mmaTilesW = 2, rows = 4>} {
  return
}
func.func @tile_attr_defaults() attributes {
    fuse.cfg = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8,
                          chanPerThread = 1, ciChunk = 4,
                          types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>,
                          mmaWarpsC = 0, mmaWarpsW = 0, mmaTilesC = 0,
                          mmaTilesW = 0, rows = 1>} {
  return
}

// wgmma parameters and clusterC (default 1, elided then).
// CHECK-LABEL: func.func @tile_attr_cluster
// CHECK-SAME: fuse.cfg = #fuse.tile<tileW = 144, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 72, wgmmaGroups = 2, clusterC = 2>
// CHECK-LABEL: func.func @tile_attr_cluster_one
// CHECK-SAME: fuse.cfg = #fuse.tile<tileW = 144, tileC = 128, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 72, wgmmaGroups = 2>}
func.func @tile_attr_cluster() attributes {
    fuse.cfg = #fuse.tile<tileW = 144, tileC = 64, threadsW = 8, threadsC = 32,
                          chanPerThread = 1, ciChunk = 16,
                          types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>,
                          rows = 2, mergeHTaps = 1, wgmmaN = 72,
                          wgmmaGroups = 2, clusterC = 2>} {
  return
}
func.func @tile_attr_cluster_one() attributes {
    fuse.cfg = #fuse.tile<tileW = 144, tileC = 128, threadsW = 8, threadsC = 32,
                          chanPerThread = 1, ciChunk = 16,
                          types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>,
                          wgmmaN = 72, wgmmaGroups = 2, clusterC = 1>} {
  return
}

// The attribute on its own, as a discardable attribute.
// CHECK-LABEL: func.func @tile_attr_generic
// CHECK-SAME: fuse.cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @tile_attr_generic() attributes {
    fuse.cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16,
                          chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>} {
  return
}
