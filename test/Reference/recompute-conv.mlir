// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 --tile-c=16 --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 --tile-c=16 --tile-rows=4 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s
// RUN: fusecc %s --precision=tf32 --emit=plan | FileCheck %s --check-prefix=PLAN
//
// Softmax over the spatial dims (or all non-batch dims) of a tf32
// convolution's epilogue value, recomputed (fuse-recompute-conv): a
// statistics-only conv kernel writes (max, sum of exp) records, a
// reduction kernel turns them into lse, and the recomputed conv's epilogue
// stores exp(x - lse) and what follows; against the float64 reference of
// the softmax graph, over the conv paths (mma.sync, wgmma) and tiles, with
// channel counts that fit no tile (13), batch 1 and 3, and sets holding
// -inf (a set of -inf only gives NaN) and +inf (NaN, PyTorch's softmax;
// exp(x - inf) alone would give 0 for the finite elements).

// CHECK: @softmax_view_3d: PASS
// CHECK: @softmax_all_nonbatch: PASS
// CHECK: @ninf_softmax: PASS
// CHECK: @pinf_softmax: PASS
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @softmax_view_3d: 3 kernels
// PLAN: keeps its result (1x13x4x6x6xf32) on chip, partial statistics (max, sum of exp) of 13 groups per sample to b0
// PLAN: (reduction: logsumexp, 13 sets of 144, partial statistics from softmax_view_3d_k0's epilogue
// PLAN: (convolution)
// PLAN-NEXT: reads arg0 arg1 arg2 b1 arg3
// PLAN-NEXT: writes result (1x13x4x6x6xf32)
// PLAN-LABEL: plan @softmax_all_nonbatch: 3 kernels
// PLAN: partial statistics (max, sum of exp) of 1 group per sample
// PLAN-LABEL: plan @ninf_softmax:
// PLAN: (reduction: logsumexp, 39 sets of 35, partial statistics from
// PLAN-LABEL: plan @pinf_softmax:
// PLAN: (reduction: logsumexp, 6 sets of 35, partial statistics from

// kb2_38 in small: clamp, softmax over all spatial positions of a view,
// * scale; 13 channels (no tile fits), batch 1, 3-D.
func.func @softmax_view_3d(%x: tensor<1x3x2x3x3xf32>, %w: tensor<3x13x3x3x3xf32>, %b: tensor<13xf32>, %scale: tensor<1x13x1x1x1xf32>) -> tensor<1x13x4x6x6xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x2x3x3xf32>, tensor<3x13x3x3x3xf32>, tensor<13xf32>) -> tensor<1x13x4x6x6xf32>
  %1 = fuse.clamp %0 {min = 0.0 : f64, max = 1.0 : f64} : tensor<1x13x4x6x6xf32>
  %2 = fuse.reshape %1 : tensor<1x13x4x6x6xf32> -> tensor<1x13x144xf32>
  %3 = fuse.softmax %2 {dim = 2 : i64} : tensor<1x13x144xf32>
  %4 = fuse.reshape %3 : tensor<1x13x144xf32> -> tensor<1x13x4x6x6xf32>
  %5 = fuse.mul %4, %scale : tensor<1x13x4x6x6xf32>, tensor<1x13x1x1x1xf32> -> tensor<1x13x4x6x6xf32>
  return %5 : tensor<1x13x4x6x6xf32>
}

// One set per sample (C x H x W through a view), then sigmoid.
func.func @softmax_all_nonbatch(%x: tensor<3x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %b: tensor<6xf32>) -> tensor<3x6x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x6x3x3xf32>, tensor<6xf32>) -> tensor<3x6x5x7xf32>
  %1 = fuse.reshape %0 : tensor<3x6x5x7xf32> -> tensor<3x210xf32>
  %2 = fuse.softmax %1 {dim = 1 : i64} : tensor<3x210xf32>
  %3 = fuse.reshape %2 : tensor<3x210xf32> -> tensor<3x6x5x7xf32>
  %4 = fuse.sigmoid %3 : tensor<3x6x5x7xf32>
  return %4 : tensor<3x6x5x7xf32>
}

// -inf at about half the positions (log(relu(u)), u ~ N(0, 1)) and in every
// position of the channels where p < 0: a softmax of an all -inf set is
// NaN, of the others finite with zeros.
func.func @ninf_softmax(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %u: tensor<3x13x5x7xf32>, %p: tensor<1x13x1x1xf32>) -> tensor<3x13x5x7xf32> {
  %r = fuse.relu %u : tensor<3x13x5x7xf32>
  %l = fuse.log %r : tensor<3x13x5x7xf32>
  %rp = fuse.relu %p : tensor<1x13x1x1xf32>
  %lp = fuse.log %rp : tensor<1x13x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %l : tensor<3x13x5x7xf32>, tensor<3x13x5x7xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.add %1, %lp : tensor<3x13x5x7xf32>, tensor<1x13x1x1xf32> -> tensor<3x13x5x7xf32>
  %3 = fuse.reshape %2 : tensor<3x13x5x7xf32> -> tensor<3x13x35xf32>
  %4 = fuse.softmax %3 {dim = 2 : i64} : tensor<3x13x35xf32>
  %5 = fuse.reshape %4 : tensor<3x13x35xf32> -> tensor<3x13x5x7xf32>
  return %5 : tensor<3x13x5x7xf32>
}

func.func @pinf_softmax(%x: tensor<1x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %u: tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32> {
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %u2 = fuse.add %u, %c2 : tensor<1x6x5x7xf32>, tensor<f32> -> tensor<1x6x5x7xf32>
  %r = fuse.relu %u2 : tensor<1x6x5x7xf32>
  %l = fuse.log %r : tensor<1x6x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x3x4xf32>, tensor<4x6x3x3xf32>) -> tensor<1x6x5x7xf32>
  %1 = fuse.sub %0, %l : tensor<1x6x5x7xf32>, tensor<1x6x5x7xf32> -> tensor<1x6x5x7xf32>
  %2 = fuse.reshape %1 : tensor<1x6x5x7xf32> -> tensor<1x6x35xf32>
  %3 = fuse.softmax %2 {dim = 2 : i64} : tensor<1x6x35xf32>
  %4 = fuse.reshape %3 : tensor<1x6x35xf32> -> tensor<1x6x5x7xf32>
  return %4 : tensor<1x6x5x7xf32>
}
