// RUN: not fusecc-check %s | FileCheck %s
// RUN: not fusecc-check --precision=tf32 %s | FileCheck %s
// A reference with no finite element compares NaN with NaN and checks
// nothing: the check fails and says so (docs/design/checking.md, "Vacuous
// references"). A batch_norm's running variance is drawn from U[0.5, 1.5)
// (the N(0, 1) draw made half of heatmap_head's channels NaN, and the 1x1
// convolution after them the whole output: docs/perf.md 204), so the
// heatmap head below has a finite reference and passes; shifting the
// variance by -4 (fuse.check.mean) makes every channel NaN, and that fails.

// A finite reference: a nonzero rel-L2 (all NaN gave PASS rel-L2 0.000e+00).
// CHECK: @heatmap_head: PASS rel-L2 {{[1-9]\.[0-9]+e-[0-9]+}} max-abs
// CHECK: @negative_variance: FAIL rel-L2 0.000e+00
// CHECK-SAME: non-finite 0 unwritten 0 not-close 0
// CHECK-NEXT: @negative_variance: the reference has no finite element: nothing was compared

func.func @heatmap_head(%x: tensor<2x8x5x5xf32>, %w: tensor<8x16x4x4xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>, %g: tensor<16xf32>, %bb: tensor<16xf32>, %hw: tensor<5x16x1x1xf32>, %hb: tensor<5xf32>) -> tensor<2x5x10x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x8x5x5xf32>, tensor<8x16x4x4xf32>) -> tensor<2x16x10x10xf32>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x16x10x10xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<2x16x10x10xf32>
  %2 = fuse.relu %1 : tensor<2x16x10x10xf32>
  %3 = fuse.conv %2, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x16x10x10xf32>, tensor<5x16x1x1xf32>, tensor<5xf32>) -> tensor<2x5x10x10xf32>
  return %3 : tensor<2x5x10x10xf32>
}

func.func @negative_variance(%x: tensor<1x3x5x5xf32>, %rm: tensor<3xf32>, %rv: tensor<3xf32> {fuse.check.mean = -4.0 : f64}) -> tensor<1x3x5x5xf32> {
  %y = fuse.batch_norm %x, %rm, %rv : (tensor<1x3x5x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}
