// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
//
// Means and sums over some of the spatial dims of a transposed
// convolution (issue 37's rand37_7: an adaptive average pool to size 1
// along H of a stride-8 16x16 layer), rewritten by fuse-reduce-through-conv
// into box sums along the reduced dims (the kept dims' tap sums are the
// input itself) and a convolution of output size 1 along them that keeps
// the original geometry along the others, against the float64 reference of
// the original graph: 2-D over H or W, 3-D over H and W, keepdim or not,
// through an affine chain, bias or none. The small convolution is pinned
// to FP32 FMA, so tf32 runs meet the ieee bar too (the EXACT lines).

// CHECK: @upscore_pool_h: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @mean_w_affine_nokeep: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @sum_h_w_3d: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @kept_wide_elementwise: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @upscore_pool_h: 2 kernels
// PLAN: conv_transpose_tap_sums
// PLAN: writes result (2x4x1x24xf32)
// PLAN-LABEL: plan @mean_w_affine_nokeep:
// PLAN: conv_transpose_tap_sums
// PLAN-LABEL: plan @sum_h_w_3d:
// PLAN: conv_transpose_tap_sums
// PLAN-LABEL: plan @kept_wide_elementwise: 2 kernels
// PLAN: (elementwise)
// PLAN: writes result (1x3x1x160xf32)

// rand37_7 in small: 16x16 taps at stride 8, padding 4; the pool averages
// the 64 rows of every column.
func.func @upscore_pool_h(%x: tensor<2x3x8x3xf32>, %w: tensor<3x4x16x16xf32>) -> tensor<2x4x1x24xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x8x3xf32>, tensor<3x4x16x16xf32>) -> tensor<2x4x64x24xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<2x4x64x24xf32> -> tensor<2x4x1x24xf32>
  return %1 : tensor<2x4x1x24xf32>
}

// A mean over W only, not kept, through a per-channel scale and a shift;
// strides 2 (H) and 8 (W), output padding along the kept H.
func.func @mean_w_affine_nokeep(%x: tensor<1x3x5x8xf32>, %w: tensor<3x4x4x16xf32>, %b: tensor<4xf32>, %s: tensor<4x1x1xf32>) -> tensor<1x4x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 8>, padding = array<i64: 1, 4>, output_padding = array<i64: 1, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x8xf32>, tensor<3x4x4x16xf32>, tensor<4xf32>) -> tensor<1x4x11x64xf32>
  %1 = fuse.mul %0, %s : tensor<1x4x11x64xf32>, tensor<4x1x1xf32> -> tensor<1x4x11x64xf32>
  %c = arith.constant dense<0.25> : tensor<f32>
  %2 = fuse.add %1, %c : tensor<1x4x11x64xf32>, tensor<f32> -> tensor<1x4x11x64xf32>
  %3 = fuse.mean %2 {dims = array<i64: 3>} : tensor<1x4x11x64xf32> -> tensor<1x4x11xf32>
  return %3 : tensor<1x4x11xf32>
}

// 3-D: a sum over H and W, D kept (padding 1 along it), with a bias.
// (Non-adjacent dims are split into two reductions before this pass.)
func.func @sum_h_w_3d(%x: tensor<1x2x3x8x4xf32>, %w: tensor<2x8x3x2x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x3x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 2, 1>, padding = array<i64: 1, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x2x3x8x4xf32>, tensor<2x8x3x2x4xf32>, tensor<8xf32>) -> tensor<1x8x3x16x7xf32>
  %1 = fuse.sum %0 {dims = array<i64: 3, 4>, keepdim = true} : tensor<1x8x3x16x7xf32> -> tensor<1x8x3x1x1xf32>
  return %1 : tensor<1x8x3x1x1xf32>
}

// A kept W of 20 columns: 20 column regions, past what the box-sums kernel
// keeps per thread, so the tap sums are an elementwise kernel (a thread
// per result element walking its column's rows), as in rand37_7 (128).
func.func @kept_wide_elementwise(%x: tensor<1x2x8x20xf32>, %w: tensor<2x3x16x16xf32>, %b: tensor<3xf32>) -> tensor<1x3x1x160xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x8x20xf32>, tensor<2x3x16x16xf32>, tensor<3xf32>) -> tensor<1x3x64x160xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<1x3x64x160xf32> -> tensor<1x3x1x160xf32>
  return %1 : tensor<1x3x1x160xf32>
}
