// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 | FileCheck %s --check-prefixes=CHECK,EXACT
// RUN: fusecc-check %s --ieee-tensor-cores=always --tile-wgmma=1 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --plan-reduce-through-conv=false | FileCheck %s --check-prefix=OFF
//
// Sums and means over all spatial dims of a transposed convolution,
// rewritten by fuse-reduce-through-conv into box sums of the input per tap
// and a convolution of output size 1, against the float64 reference of
// the original graph: batch 1 and 3, odd channels, spatial sizes 1, 5, 7,
// strides 1, 2, 3, padding, output_padding, dilation, groups, 1-D and 3-D,
// boxes that are empty for some taps. The box sums are a kernel of a
// group of warps per plane (every element read once, region sums composed
// per tap; test/Reference/box-sums-planes.mlir for several planes per
// block): rows of 3 to 1040 elements, scalar or 16-byte loads, rows wider
// than the plane's threads, rows narrower than a warp, every load of a
// thread issued at once, 1 to 17 column regions (the
// last beyond what a thread keeps: the window op per element instead, a
// warp per box of 512 positions or more).
// The small convolution is pinned to FP32 FMA, so tf32 runs meet the ieee
// bar too (rel-L2 below 1e-5, the EXACT lines).

// CHECK: @kb2_44_small: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @sum_stride3_nokeep: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @groups_dilated_affine: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @conv3d_sum: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @empty_taps: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @conv1d_mean: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @warp_box: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @warp_narrow_rows: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @warp_box_3d: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @vector_rows: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @wide_vector_rows: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @wide_scalar_rows: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @vector_3d: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK: @many_column_regions: PASS
// EXACT-SAME: rel-L2 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @kb2_44_small: 2 kernels
// PLAN: (box sums: conv_transpose_tap_sums, 15 planes of 35, one block of 32 threads per plane, scalar loads (2 per thread at once), 2x2 regions, 9 taps)
// PLAN-NEXT: reads arg0
// PLAN-NEXT: writes b0 (3x5x3x3xf32)
// PLAN: (convolution, prologue: conv_transpose_tap_sums kept
// PLAN-NEXT: reads b0 arg1 arg2
// PLAN-NEXT: writes result (3x7x1x1xf32)
// OFF-LABEL: plan @kb2_44_small: 2 kernels
// OFF: keeps its result (3x7x14x10xf32) on chip
// OFF-NOT: conv_transpose_tap_sums
// PLAN-LABEL: plan @conv1d_mean:
// PLAN: (convolution, prologue: conv_transpose_tap_sums folded
// PLAN-LABEL: plan @vector_rows:
// PLAN: (box sums: conv_transpose_tap_sums, 9 planes of 48, one block of 32 threads per plane, 16-byte loads (2 per thread at once), 2x2 regions, 9 taps)
// PLAN-LABEL: plan @wide_vector_rows:
// PLAN: (box sums: conv_transpose_tap_sums, 1 plane of 3120, one block of 128 threads per plane, 16-byte loads (9 per thread at once), 3x4 regions, 25 taps)
// PLAN-LABEL: plan @many_column_regions:
// PLAN: (elementwise)

// kb2_44 in small: * 0.5, mean over (H, W) kept, mean again (an identity,
// folded).
func.func @kb2_44_small(%x: tensor<3x5x7x5xf32>, %w: tensor<5x7x3x3xf32>, %b: tensor<7xf32>) -> tensor<3x7x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x7x5xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x14x10xf32>
  %1 = arith.constant dense<0.5> : tensor<f32>
  %2 = fuse.mul %0, %1 : tensor<3x7x14x10xf32>, tensor<f32> -> tensor<3x7x14x10xf32>
  %3 = fuse.mean %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x7x14x10xf32> -> tensor<3x7x1x1xf32>
  %4 = fuse.mean %3 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x7x1x1xf32> -> tensor<3x7x1x1xf32>
  return %4 : tensor<3x7x1x1xf32>
}

// A sum, dims unsorted, no keepdim; stride 3, padding 2 and 0,
// output_padding 2 and 1, spatial 5 and 1, no bias.
func.func @sum_stride3_nokeep(%x: tensor<1x3x5x1xf32>, %w: tensor<3x4x4x2xf32>) -> tensor<1x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 3>, padding = array<i64: 2, 0>, output_padding = array<i64: 2, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x5x1xf32>, tensor<3x4x4x2xf32>) -> tensor<1x4x14x3xf32>
  %1 = fuse.sum %0 {dims = array<i64: 3, 2>} : tensor<1x4x14x3xf32> -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// Groups 2, dilation 2, stride 1: per-channel scale ([C, 1, 1]), a
// per-channel shift ([1, C, 1, 1]), a scalar subtracted from, negated,
// divided by a scalar; mean without keepdim.
func.func @groups_dilated_affine(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>, %s: tensor<6x1x1xf32>, %t: tensor<1x6x1x1xf32>) -> tensor<1x6xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x7xf32>
  %1 = fuse.mul %s, %0 : tensor<6x1x1xf32>, tensor<1x6x7x7xf32> -> tensor<1x6x7x7xf32>
  %2 = fuse.add %1, %t : tensor<1x6x7x7xf32>, tensor<1x6x1x1xf32> -> tensor<1x6x7x7xf32>
  %c3 = arith.constant dense<3.0> : tensor<f32>
  %3 = fuse.sub %c3, %2 : tensor<f32>, tensor<1x6x7x7xf32> -> tensor<1x6x7x7xf32>
  %4 = fuse.neg %3 : tensor<1x6x7x7xf32>
  %c7 = arith.constant dense<7.0> : tensor<f32>
  %5 = fuse.div %4, %c7 : tensor<1x6x7x7xf32>, tensor<f32> -> tensor<1x6x7x7xf32>
  %6 = fuse.mean %5 {dims = array<i64: 2, 3>} : tensor<1x6x7x7xf32> -> tensor<1x6xf32>
  return %6 : tensor<1x6xf32>
}

// 3-D: strides 2, 1, 3, dilation 2 on H, output_padding 1, 0, 2; a sum
// kept, plus a scalar after it (sum(x + 1) = sum(x) + positions).
func.func @conv3d_sum(%x: tensor<3x2x3x1x5xf32>, %w: tensor<2x3x2x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x3x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1, 3>, padding = array<i64: 0, 1, 1>, output_padding = array<i64: 1, 0, 2>, dilation = array<i64: 1, 2, 1>} : (tensor<3x2x3x1x5xf32>, tensor<2x3x2x3x3xf32>, tensor<3xf32>) -> tensor<3x3x7x3x15xf32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %1 = fuse.add %0, %c1 : tensor<3x3x7x3x15xf32>, tensor<f32> -> tensor<3x3x7x3x15xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<3x3x7x3x15xf32> -> tensor<3x3x1x1x1xf32>
  return %2 : tensor<3x3x1x1x1xf32>
}

// Spatial 1 and 5x5 taps with padding 1: taps 0 and 4 map the one input
// outside the 3 outputs (empty boxes).
func.func @empty_taps(%x: tensor<3x3x1x1xf32>, %w: tensor<3x5x5x5xf32>, %b: tensor<5xf32>) -> tensor<3x5x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x3x1x1xf32>, tensor<3x5x5x5xf32>, tensor<5xf32>) -> tensor<3x5x3x3xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x5x3x3xf32> -> tensor<3x5x1x1xf32>
  return %1 : tensor<3x5x1x1xf32>
}

// 1-D: each box sum is staged once, so the box sums fold into the small
// convolution's staging (a prologue).
func.func @conv1d_mean(%x: tensor<3x3x7xf32>, %w: tensor<3x5x4xf32>, %b: tensor<5xf32>) -> tensor<3x5x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>} : (tensor<3x3x7xf32>, tensor<3x5x4xf32>, tensor<5xf32>) -> tensor<3x5x13xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2>, keepdim = true} : tensor<3x5x13xf32> -> tensor<3x5x1xf32>
  return %1 : tensor<3x5x1xf32>
}

// Boxes of up to 40 x 30 positions (once a warp per box).
func.func @warp_box(%x: tensor<1x3x40x30xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x40x30xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x80x60xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x5x80x60xf32> -> tensor<1x5x1x1xf32>
  return %1 : tensor<1x5x1x1xf32>
}

// Rows of 3 positions, 200 rows: 32 rows per step of the plane's 96
// threads.
func.func @warp_narrow_rows(%x: tensor<1x2x200x3xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x200x3xf32>, tensor<2x3x3x3xf32>, tensor<3xf32>) -> tensor<1x3x200x6xf32>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>} : tensor<1x3x200x6xf32> -> tensor<1x3xf32>
  return %1 : tensor<1x3xf32>
}

// 3-D boxes of up to 9 x 8 x 10 positions: 3 x 1 x 2 regions.
func.func @warp_box_3d(%x: tensor<1x2x9x8x10xf32>, %w: tensor<2x3x2x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 2, 3>, padding = array<i64: 1, 0, 1>, output_padding = array<i64: 0, 1, 2>, dilation = array<i64: 1, 1, 2>} : (tensor<1x2x9x8x10xf32>, tensor<2x3x2x3x2xf32>, tensor<3xf32>) -> tensor<1x3x8x18x30xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<1x3x8x18x30xf32> -> tensor<1x3x1x1x1xf32>
  return %1 : tensor<1x3x1x1x1xf32>
}

// Rows of 8 (16-byte loads), batch 3, 3 channels, 3x3 taps, stride 2.
func.func @vector_rows(%x: tensor<3x3x6x8xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x5x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<3x3x6x8xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x12x16xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x5x12x16xf32> -> tensor<3x5x1x1xf32>
  return %1 : tensor<3x5x1x1xf32>
}

// Rows of 1040 (260 quads): wider than the plane's 128 threads, the third
// column unit of a thread lies in the row for 4 threads only; 5x5 taps, dilation 2,
// stride 3 on W.
func.func @wide_vector_rows(%x: tensor<1x1x3x1040xf32>, %w: tensor<1x2x5x5xf32>, %b: tensor<2xf32>) -> tensor<1x2xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 3>, padding = array<i64: 2, 4>, output_padding = array<i64: 0, 2>, dilation = array<i64: 1, 2>} : (tensor<1x1x3x1040xf32>, tensor<1x2x5x5xf32>, tensor<2xf32>) -> tensor<1x2x3x3120xf32>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>} : tensor<1x2x3x3120xf32> -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// Rows of 1037 (scalar, 5 column units per thread), two rows: 10 loads
// a thread at once.
func.func @wide_scalar_rows(%x: tensor<1x3x2x1037xf32>, %w: tensor<3x1x2x3xf32>) -> tensor<1x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x2x1037xf32>, tensor<3x1x2x3xf32>) -> tensor<1x1x3x2073xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x1x3x2073xf32> -> tensor<1x1x1x1xf32>
  return %1 : tensor<1x1x1x1xf32>
}

// 3-D with rows of 8 (16-byte loads), 2 x 3 x 2 regions.
func.func @vector_3d(%x: tensor<3x3x5x4x8xf32>, %w: tensor<3x2x3x2x3xf32>, %b: tensor<2xf32>) -> tensor<3x2x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1, 3>, padding = array<i64: 1, 1, 2>, output_padding = array<i64: 1, 0, 2>, dilation = array<i64: 1, 2, 1>} : (tensor<3x3x5x4x8xf32>, tensor<3x2x3x2x3xf32>, tensor<2xf32>) -> tensor<3x2x10x4x22xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<3x2x10x4x22xf32> -> tensor<3x2x1x1x1xf32>
  return %1 : tensor<3x2x1x1x1xf32>
}

// 9 taps along W with padding 8: 17 column regions, more than a thread
// keeps; the box sums stay a window op per element, boxes of up to 40 x
// 30 positions a warp each (the lanes' walk carries across rows narrower
// than the warp).
func.func @many_column_regions(%x: tensor<1x2x40x30xf32>, %w: tensor<2x3x3x9xf32>, %b: tensor<3xf32>) -> tensor<1x3x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 8>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x2x40x30xf32>, tensor<2x3x3x9xf32>, tensor<3xf32>) -> tensor<1x3x40x22xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x3x40x22xf32> -> tensor<1x3x1x1xf32>
  return %1 : tensor<1x3x1x1xf32>
}
