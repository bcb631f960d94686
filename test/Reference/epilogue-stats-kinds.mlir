// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-max-w=8 --tile-threads=64 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-recompute-conv=false --tile-wgmma=0 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-recompute-conv=false --tile-wgmma=0 --tile-c=16 --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-recompute-conv=false --tile-wgmma=1 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-recompute-conv=false --tile-wgmma=1 --tile-c=16 --tile-rows=4 | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
//
// Softmax, logsumexp, amax, amin and global max pooling whose sets are
// whole channel groups of a convolution's result take (max, sum of exp),
// (max) or (min) records from the conv epilogue
// (fuse-plan-kernels{epilogue-stats}), in the simulator against the
// float64 reference: channel counts that fit no tile (13, 20), spatial
// sizes 1, 5 and 7, batch 1 and 3, a softmax over a reshape view (kb2_38),
// over all non-batch dims and over the spatial dims, values around 1e3
// (max-shifted sums), and sets holding -inf, +inf and NaN (PyTorch: a
// softmax of a set whose max is -inf, +inf or NaN is NaN; logsumexp is
// -inf, +inf, NaN; amax / amin propagate NaN). The runs vary the conv paths
// (FMA, mma.sync, wgmma) and tiles; the last three plan without epilogue
// statistics (a warp or a thread per set, then every set split over
// blocks), so every kind also runs through the standalone reduction
// kernels.

// CHECK: @softmax_view_3d: PASS
// CHECK: @softmax_all_nonbatch: PASS
// CHECK: @lse_spatial_b3: PASS
// CHECK: @lse_mean_1e3: PASS
// CHECK: @amax_all_b1: PASS
// CHECK: @amin_spatial_w1: PASS
// CHECK: @global_max_pool_3d: PASS
// CHECK: @amax_channels_column#0: PASS
// CHECK: @amax_channels_column#1: PASS
// CHECK: @ninf_softmax: PASS
// CHECK: @ninf_lse: PASS
// CHECK: @pinf_lse: PASS
// CHECK: @pinf_softmax: PASS
// CHECK: @nan_amax: PASS
// CHECK: @nan_amin: PASS
// CHECK: @nan_lse: PASS
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @softmax_view_3d: 2 kernels
// PLAN: writes b1 (1x13x4x6x6xf32), partial statistics (max, sum of exp) of 13 groups per sample to b0
// PLAN: (normalization: softmax, 13 sets of 144, partial statistics from softmax_view_3d_k0's epilogue
// PLAN-LABEL: plan @softmax_all_nonbatch: 2 kernels
// PLAN: partial statistics (max, sum of exp) of 1 group per sample
// PLAN-LABEL: plan @lse_spatial_b3: 2 kernels
// PLAN: keeps its result (3x6x5x7xf32) on chip, partial statistics (max, sum of exp) of 6 groups per sample
// PLAN: (reduction: logsumexp, 18 sets of 35, partial statistics from lse_spatial_b3_k0's epilogue
// PLAN-NEXT: reads (on chip)
// PLAN-LABEL: plan @amax_all_b1: 2 kernels
// PLAN: keeps its result (1x20x1x5xf32) on chip, partial statistics (max) of 1 group per sample
// PLAN-LABEL: plan @amin_spatial_w1: 2 kernels
// PLAN: keeps its result (3x5x7x1xf32) on chip, partial statistics (min) of 5 groups per sample
// PLAN-LABEL: plan @global_max_pool_3d: 2 kernels
// PLAN: keeps its result (2x6x4x6x6xf32) on chip, partial statistics (max) of 6 groups per sample
// PLAN: (reduction: adaptive_max_pool, 12 sets of 144, partial statistics from
// PLAN-LABEL: plan @amax_channels_column: 2 kernels
// PLAN-NOT: partial statistics
// PLAN: (reduction: amax, 70 sets of 5, one thread per set)
// The non-finite sets come from the conv epilogue too.
// PLAN-LABEL: plan @ninf_softmax:
// PLAN: (normalization: softmax, 39 sets of 35, partial statistics from ninf_softmax_k{{[0-9]+}}'s epilogue
// PLAN-LABEL: plan @ninf_lse:
// PLAN: (reduction: logsumexp, 39 sets of 35, partial statistics from
// PLAN-LABEL: plan @pinf_lse:
// PLAN: (reduction: logsumexp, 6 sets of 35, partial statistics from
// PLAN-LABEL: plan @pinf_softmax:
// PLAN: (normalization: softmax, 6 sets of 35, partial statistics from
// PLAN-LABEL: plan @nan_amax:
// PLAN: (reduction: amax, 39 sets of 35, partial statistics from
// PLAN-LABEL: plan @nan_amin:
// PLAN: (reduction: amin, 20 sets of 5, partial statistics from
// PLAN-LABEL: plan @nan_lse:
// PLAN: (reduction: logsumexp, 39 sets of 35, partial statistics from

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

// logsumexp over 5 x 7 positions, batch 3; nothing else reads the conv.
func.func @lse_spatial_b3(%x: tensor<3x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %b: tensor<6xf32>) -> tensor<3x6x1x1xf32> {
  %c = arith.constant dense<3.0> : tensor<f32>
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x6x3x3xf32>, tensor<6xf32>) -> tensor<3x6x5x7xf32>
  %1 = fuse.mul %0, %c : tensor<3x6x5x7xf32>, tensor<f32> -> tensor<3x6x5x7xf32>
  %2 = fuse.logsumexp %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x6x5x7xf32> -> tensor<3x6x1x1xf32>
  %3 = fuse.tanh %2 : tensor<3x6x1x1xf32>
  return %3 : tensor<3x6x1x1xf32>
}

// Values around 1e3: exp without the max shift overflows f32; the records
// are shifted by their own max and rescaled when merged.
func.func @lse_mean_1e3(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %b: tensor<13xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x13xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>, tensor<13xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.logsumexp %0 {dims = array<i64: 3, 2>, keepdim = false} : tensor<3x13x5x7xf32> -> tensor<3x13xf32>
  return %1 : tensor<3x13xf32>
}

// amax over all non-batch dims, 20 channels, H = 1, W = 5, batch 1.
func.func @amax_all_b1(%x: tensor<1x4x1x3xf32>, %w: tensor<4x20x1x3xf32>, %b: tensor<20xf32>) -> tensor<1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x1x3xf32>, tensor<4x20x1x3xf32>, tensor<20xf32>) -> tensor<1x20x1x5xf32>
  %1 = fuse.amax %0 {dims = array<i64: 1, 2, 3>, keepdim = false} : tensor<1x20x1x5xf32> -> tensor<1xf32>
  return %1 : tensor<1xf32>
}

// amin over 7 x 1 positions, batch 3.
func.func @amin_spatial_w1(%x: tensor<3x2x4x1xf32>, %w: tensor<2x5x4x1xf32>) -> tensor<3x5xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x2x4x1xf32>, tensor<2x5x4x1xf32>) -> tensor<3x5x7x1xf32>
  %1 = fuse.amin %0 {dims = array<i64: 2, 3>, keepdim = false} : tensor<3x5x7x1xf32> -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}

// Global max pooling is amax over the spatial dims.
func.func @global_max_pool_3d(%x: tensor<2x3x2x3x3xf32>, %w: tensor<3x6x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x3x2x3x3xf32>, tensor<3x6x3x3x3xf32>, tensor<6xf32>) -> tensor<2x6x4x6x6xf32>
  %1 = fuse.adaptive_max_pool %0 : tensor<2x6x4x6x6xf32> -> tensor<2x6x1x1x1xf32>
  return %1 : tensor<2x6x1x1x1xf32>
}

// A max over the channels is strided (one thread per set), not from the
// epilogue.
// The conv result is returned too, so the amax reads it from its buffer (a
// column per set) instead of joining the conv kernel's epilogue.
func.func @amax_channels_column(%x: tensor<2x4x3x4xf32>, %w: tensor<4x5x3x3xf32>) -> (tensor<2x5x7xf32>, tensor<2x5x5x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x3x4xf32>, tensor<4x5x3x3xf32>) -> tensor<2x5x5x7xf32>
  %1 = fuse.amax %0 {dims = array<i64: 1>, keepdim = false} : tensor<2x5x5x7xf32> -> tensor<2x5x7xf32>
  return %1, %0 : tensor<2x5x7xf32>, tensor<2x5x5x7xf32>
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

// The same sets: logsumexp is -inf where every element is -inf.
func.func @ninf_lse(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %u: tensor<3x13x5x7xf32>, %p: tensor<1x13x1x1xf32>) -> tensor<3x13x1x1xf32> {
  %r = fuse.relu %u : tensor<3x13x5x7xf32>
  %l = fuse.log %r : tensor<3x13x5x7xf32>
  %rp = fuse.relu %p : tensor<1x13x1x1xf32>
  %lp = fuse.log %rp : tensor<1x13x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %l : tensor<3x13x5x7xf32>, tensor<3x13x5x7xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.add %1, %lp : tensor<3x13x5x7xf32>, tensor<1x13x1x1xf32> -> tensor<3x13x5x7xf32>
  %3 = fuse.logsumexp %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x13x5x7xf32> -> tensor<3x13x1x1xf32>
  return %3 : tensor<3x13x1x1xf32>
}

// +inf where u < -2 (-log(relu(u + 2))): about half the sets of 35 hold
// one; their logsumexp is +inf, their softmax NaN.
func.func @pinf_lse(%x: tensor<1x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %u: tensor<1x6x5x7xf32>) -> tensor<1x6x1x1xf32> {
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %u2 = fuse.add %u, %c2 : tensor<1x6x5x7xf32>, tensor<f32> -> tensor<1x6x5x7xf32>
  %r = fuse.relu %u2 : tensor<1x6x5x7xf32>
  %l = fuse.log %r : tensor<1x6x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x3x4xf32>, tensor<4x6x3x3xf32>) -> tensor<1x6x5x7xf32>
  %1 = fuse.sub %0, %l : tensor<1x6x5x7xf32>, tensor<1x6x5x7xf32> -> tensor<1x6x5x7xf32>
  %2 = fuse.logsumexp %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x6x5x7xf32> -> tensor<1x6x1x1xf32>
  return %2 : tensor<1x6x1x1xf32>
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

// NaN in every position of the channels where p < 0 (log(p)), or where
// u < -1.5 (sqrt(u + 1.5): about a third of the sets of 5 hold one): amax,
// amin and logsumexp of a set holding a NaN are NaN.
func.func @nan_amax(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %p: tensor<1x13x1x1xf32>) -> tensor<3x13xf32> {
  %lp = fuse.log %p : tensor<1x13x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %lp : tensor<3x13x5x7xf32>, tensor<1x13x1x1xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.amax %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<3x13x5x7xf32> -> tensor<3x13xf32>
  return %2 : tensor<3x13xf32>
}

func.func @nan_amin(%x: tensor<1x4x1x3xf32>, %w: tensor<4x20x1x3xf32>, %u: tensor<1x20x1x5xf32>) -> tensor<1x20xf32> {
  %c15 = arith.constant dense<1.5> : tensor<f32>
  %us = fuse.add %u, %c15 : tensor<1x20x1x5xf32>, tensor<f32> -> tensor<1x20x1x5xf32>
  %l = fuse.sqrt %us : tensor<1x20x1x5xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x1x3xf32>, tensor<4x20x1x3xf32>) -> tensor<1x20x1x5xf32>
  %1 = fuse.mul %0, %l : tensor<1x20x1x5xf32>, tensor<1x20x1x5xf32> -> tensor<1x20x1x5xf32>
  %2 = fuse.amin %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<1x20x1x5xf32> -> tensor<1x20xf32>
  return %2 : tensor<1x20xf32>
}

func.func @nan_lse(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %p: tensor<1x13x1x1xf32>) -> tensor<3x13x1x1xf32> {
  %lp = fuse.log %p : tensor<1x13x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %lp : tensor<3x13x5x7xf32>, tensor<1x13x1x1xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.logsumexp %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x13x5x7xf32> -> tensor<3x13x1x1xf32>
  return %2 : tensor<3x13x1x1xf32>
}
