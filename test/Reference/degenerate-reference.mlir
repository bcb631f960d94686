// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a | FileCheck %s --check-prefix=TF32
// A function whose reference is mostly one value on the default inputs is
// checked again on wide inputs, with its own line: on U[0,1) inputs and
// PyTorch's weight bound, conv + 0.5 > 0 everywhere, so min(., 0) makes the
// whole output zero and the first check compares zeros with zeros.

// CHECK-LABEL: @min_gelu: 100.0% of an output is one value: checked on wide inputs too
// CHECK-NEXT: @min_gelu: PASS rel-L2 0.000e+00 max-abs 0.000e+00 {{.*}} (ieee)
// CHECK-NEXT: @min_gelu: PASS rel-L2 {{[1-9]\.[0-9]+e-0[6-9]}} max-abs {{[1-9]\.[0-9]+e-[0-9]+}} {{.*}} (ieee, wide inputs)
// TF32-LABEL: @min_gelu: 100.0% of an output is one value: checked on wide inputs too
// TF32-NEXT: @min_gelu: PASS rel-L2 0.000e+00 {{.*}} (tf32)
// TF32-NEXT: @min_gelu: PASS rel-L2 {{[1-9]\.[0-9]+e-0[3-6]}} {{.*}} (tf32, wide inputs)
func.func @min_gelu(%x: tensor<1x5x5x6xf32>, %w: tensor<5x7x4x4xf32>, %b: tensor<7xf32>) -> tensor<1x7x12x14xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x6xf32>, tensor<5x7x4x4xf32>, tensor<7xf32>) -> tensor<1x7x12x14xf32>
  %c = arith.constant dense<0.5> : tensor<f32>
  %1 = fuse.add %0, %c : tensor<1x7x12x14xf32>, tensor<f32> -> tensor<1x7x12x14xf32>
  %z = arith.constant dense<0.0> : tensor<f32>
  %2 = fuse.minimum %1, %z : tensor<1x7x12x14xf32>, tensor<f32> -> tensor<1x7x12x14xf32>
  %3 = fuse.gelu %2 : tensor<1x7x12x14xf32>
  return %3 : tensor<1x7x12x14xf32>
}

// A reference of many values is checked once, and so is a one-element
// one (its value occurs once).
// CHECK-LABEL: @plain: PASS
// CHECK-NEXT: @one_element: PASS
// CHECK-NOT: wide
// TF32-LABEL: @plain: PASS
// TF32-NEXT: @one_element: PASS
// TF32-NOT: wide
func.func @plain(%x: tensor<1x5x5x6xf32>, %w: tensor<5x7x4x4xf32>, %b: tensor<7xf32>) -> tensor<1x7x12x14xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x6xf32>, tensor<5x7x4x4xf32>, tensor<7xf32>) -> tensor<1x7x12x14xf32>
  return %0 : tensor<1x7x12x14xf32>
}

func.func @one_element(%x: tensor<1x5x5x6xf32>, %w: tensor<5x7x4x4xf32>) -> tensor<1x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x6xf32>, tensor<5x7x4x4xf32>) -> tensor<1x7x12x14xf32>
  %1 = fuse.sum %0 {dims = array<i64: 1, 2, 3>, keepdim = true} : tensor<1x7x12x14xf32> -> tensor<1x1x1x1xf32>
  return %1 : tensor<1x1x1x1xf32>
}
