// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a | FileCheck %s --check-prefix=TF32
// A layer_norm over rows the convolution leaves constant (a 1x1 kernel at
// stride 3: two rows in three hold the bias only). PyTorch's Welford mean
// of a constant row is the value itself and the row normalises to exactly
// 0; a mean taken as sum * (1 / n) is an ulp off, which rsqrt(eps)
// amplifies 316 times (found on the H100 by bench/vocab_graphs.py: ieee
// rel-L2 2.3e-5 against PyTorch's 2.9e-7). The in-tile layer_norm takes
// the mean about the row's first element, exact for a constant row.

// CHECK: @constant_rows: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}} (ieee)
// TF32: @constant_rows: PASS {{.*}} tf32-operands rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}} (tf32, wide inputs)
func.func @constant_rows(%x: tensor<2x24x4x5xf32>, %w: tensor<24x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<2x1x10x13xf32> {
  %0 = fuse.softplus %x : tensor<2x24x4x5xf32>
  %1 = fuse.conv_transpose %0, %w, %b {stride = array<i64: 3, 3>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x4x5xf32>, tensor<24x1x1x1xf32>, tensor<1xf32>) -> tensor<2x1x10x13xf32>
  %2 = fuse.layer_norm %1 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x1x10x13xf32>
  return %2 : tensor<2x1x10x13xf32>
}
