// RUN: fusecc-opt %s | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | fusecc-opt | FileCheck %s
// RUN: fusecc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of fuse.conv_transpose_tap_sums (1-3 spatial dims). The custom
// form leaves out scale = 1 (its default); the generic form writes it.

// CHECK-LABEL: func.func @tap_sums_2d
// CHECK: fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 1, 1>, kernel_size = array<i64: 3, 3>, output_size = array<i64: 256, 256>, padding = array<i64: 1, 1>, scale = 1.52587890625E-5 : f64, stride = array<i64: 2, 2>} : tensor<16x64x128x128xf32> -> tensor<16x64x3x3xf32>
// GENERIC-LABEL: sym_name = "tap_sums_2d"
// GENERIC: "fuse.conv_transpose_tap_sums"(%{{.*}}) <{dilation = array<i64: 1, 1>, kernel_size = array<i64: 3, 3>, output_size = array<i64: 256, 256>, padding = array<i64: 1, 1>, scale = 1.52587890625E-5 : f64, stride = array<i64: 2, 2>}>
func.func @tap_sums_2d(%x: tensor<16x64x128x128xf32>) -> tensor<16x64x3x3xf32> {
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, output_size = array<i64: 256, 256>, scale = 1.52587890625e-05} : tensor<16x64x128x128xf32> -> tensor<16x64x3x3xf32>
  return %0 : tensor<16x64x3x3xf32>
}

// CHECK-LABEL: func.func @tap_sums_1d
// CHECK: fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 2>, kernel_size = array<i64: 4>, output_size = array<i64: 13>, padding = array<i64: 0>, stride = array<i64: 3>} : tensor<1x3x5xf32> -> tensor<1x3x4xf32>
// GENERIC-LABEL: sym_name = "tap_sums_1d"
// GENERIC: scale = 1.000000e+00 : f64
func.func @tap_sums_1d(%x: tensor<1x3x5xf32>) -> tensor<1x3x4xf32> {
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 4>, stride = array<i64: 3>, padding = array<i64: 0>, dilation = array<i64: 2>, output_size = array<i64: 13>} : tensor<1x3x5xf32> -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// CHECK-LABEL: func.func @tap_sums_3d
// CHECK: fuse.conv_transpose_tap_sums %arg0 {{.*}}kernel_size = array<i64: 2, 3, 1>{{.*}} : tensor<2x5x3x1x4xf32> -> tensor<2x5x2x3x1xf32>
func.func @tap_sums_3d(%x: tensor<2x5x3x1x4xf32>) -> tensor<2x5x2x3x1xf32> {
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 2, 3, 1>, stride = array<i64: 2, 1, 3>, padding = array<i64: 0, 1, 0>, dilation = array<i64: 1, 2, 1>, output_size = array<i64: 7, 3, 12>, scale = 0.25} : tensor<2x5x3x1x4xf32> -> tensor<2x5x2x3x1xf32>
  return %0 : tensor<2x5x2x3x1xf32>
}
