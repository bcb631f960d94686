// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels{epilogue-stats=false}))' | FileCheck %s --check-prefix=NOEPI
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN

// The records a convolution's epilogue writes follow the statistics kind of
// the reader's root (NormalizationOpInterface::getStatisticsKind,
// statsKindOf(WindowOpInterface::getSetReduction)) whenever the root's sets,
// read flat, are whole channel groups of one sample: `fuse.plan.stats_kind`
// on the conv kernel. A reduction that is the conv result's only reader
// keeps it on chip (`fuse.plan.stats_only`).

// A softmax over all spatial positions through a view (kb2_38): one set
// per channel, (max, sum of exp) records; the softmax still reads the conv
// result once, to normalise it.
// CHECK-LABEL: func.func @softmax_spatial_view
// CHECK: fuse.kernel "softmax_spatial_view_k0"
// CHECK-SAME: fuse.plan.stats_groups = 8 : i64, fuse.plan.stats_kind = "max_sum_exp"
// CHECK-NOT: fuse.plan.stats_only
// CHECK: fuse.kernel "softmax_spatial_view_k1"
// CHECK-SAME: fuse.plan.epilogue_stats
// CHECK: fuse.softmax
// NOEPI-LABEL: func.func @softmax_spatial_view
// NOEPI-NOT: fuse.plan.stats
// NOEPI: return
// PLAN-LABEL: plan @softmax_spatial_view: 2 kernels
// PLAN: step 0 softmax_spatial_view_k0 (convolution)
// PLAN: writes b1 (2x8x5x7xf32), partial statistics (max, sum of exp) of 8 groups per sample to b0
// PLAN: step 1 softmax_spatial_view_k1 (normalization: softmax, 16 sets of 35, partial statistics from softmax_spatial_view_k0's epilogue ({{[0-9]+}} per set), 1 block per set: combine + normalise)
// PLAN-NEXT: reads b1 arg2
func.func @softmax_spatial_view(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>, %s: tensor<1x8x1x1xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.clamp %c {min = 0.0 : f64, max = 1.0 : f64} : tensor<2x8x5x7xf32>
  %1 = fuse.reshape %0 : tensor<2x8x5x7xf32> -> tensor<2x8x35xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<2x8x35xf32>
  %3 = fuse.reshape %2 : tensor<2x8x35xf32> -> tensor<2x8x5x7xf32>
  %4 = fuse.mul %3, %s : tensor<2x8x5x7xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x5x7xf32>
  return %4 : tensor<2x8x5x7xf32>
}

// -----

// A softmax over all non-batch dims (a view of C x H x W): one set per
// sample.
// CHECK-LABEL: func.func @softmax_all_nonbatch
// CHECK: fuse.kernel "softmax_all_nonbatch_k0"
// CHECK-SAME: fuse.plan.stats_groups = 1 : i64, fuse.plan.stats_kind = "max_sum_exp"
// CHECK: fuse.kernel "softmax_all_nonbatch_k1"
// CHECK-SAME: fuse.plan.epilogue_stats
// PLAN-LABEL: plan @softmax_all_nonbatch: 2 kernels
// PLAN: partial statistics (max, sum of exp) of 1 group per sample to b0
// PLAN: (normalization: softmax, 2 sets of 280, partial statistics from softmax_all_nonbatch_k0's epilogue
func.func @softmax_all_nonbatch(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x280xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.reshape %c : tensor<2x8x5x7xf32> -> tensor<2x280xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x280xf32>
  return %1 : tensor<2x280xf32>
}

// -----

// logsumexp over the spatial dims, the conv result's only reader: the
// records are all that leaves the conv kernel.
// CHECK-LABEL: func.func @lse_spatial
// CHECK: fuse.kernel "lse_spatial_k0"
// CHECK-SAME: fuse.plan.stats_groups = 8 : i64, fuse.plan.stats_kind = "max_sum_exp", fuse.plan.stats_only
// CHECK: fuse.kernel "lse_spatial_k1"
// CHECK-SAME: fuse.plan.epilogue_stats
// CHECK: fuse.logsumexp
// NOEPI-LABEL: func.func @lse_spatial
// NOEPI-NOT: fuse.plan.stats
// NOEPI: return
// PLAN-LABEL: plan @lse_spatial: 2 kernels
// PLAN: keeps its result (2x8x5x7xf32) on chip, partial statistics (max, sum of exp) of 8 groups per sample to b0
// PLAN: (reduction: logsumexp, 16 sets of 35, partial statistics from lse_spatial_k0's epilogue ({{[0-9]+}} per set), one warp per set: combine + reduce)
// PLAN-NEXT: reads (on chip)
func.func @lse_spatial(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x1x1xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.logsumexp %c {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x8x5x7xf32> -> tensor<2x8x1x1xf32>
  return %0 : tensor<2x8x1x1xf32>
}

// -----

// amax over all non-batch dims: (max) records, one set per sample.
// CHECK-LABEL: func.func @amax_all
// CHECK: fuse.kernel "amax_all_k0"
// CHECK-SAME: fuse.plan.stats_groups = 1 : i64, fuse.plan.stats_kind = "max", fuse.plan.stats_only
// PLAN-LABEL: plan @amax_all: 2 kernels
// PLAN: keeps its result (2x8x5x7xf32) on chip, partial statistics (max) of 1 group per sample to b0
// PLAN: (reduction: amax, 2 sets of 280, partial statistics from amax_all_k0's epilogue
func.func @amax_all(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.amax %c {dims = array<i64: 1, 2, 3>, keepdim = false} : tensor<2x8x5x7xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// amin over the spatial dims of a 3-D conv: (min) records.
// CHECK-LABEL: func.func @amin_spatial_3d
// CHECK: fuse.kernel "amin_spatial_3d_k0"
// CHECK-SAME: fuse.plan.stats_groups = 5 : i64, fuse.plan.stats_kind = "min", fuse.plan.stats_only
// PLAN-LABEL: plan @amin_spatial_3d: 2 kernels
// PLAN: partial statistics (min) of 5 groups per sample to b0
// PLAN: (reduction: amin, 5 sets of 144, partial statistics from amin_spatial_3d_k0's epilogue
func.func @amin_spatial_3d(%x: tensor<1x3x2x3x3xf32>, %w: tensor<3x5x3x3x3xf32>) -> tensor<1x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x3x2x3x3xf32>, tensor<3x5x3x3x3xf32>) -> tensor<1x5x4x6x6xf32>
  %0 = fuse.amin %c {dims = array<i64: 4, 2, 3>, keepdim = false} : tensor<1x5x4x6x6xf32> -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// A logsumexp broadcast back (log_softmax by hand): the conv result has
// another reader, so it is stored; the reduction takes the records.
// CHECK-LABEL: func.func @lse_read_back
// CHECK: fuse.kernel "lse_read_back_k0"
// CHECK-SAME: fuse.plan.stats_kind = "max_sum_exp"
// CHECK-NOT: fuse.plan.stats_only
// CHECK-SAME: ->
// PLAN-LABEL: plan @lse_read_back: 3 kernels
// PLAN: writes b1 (2x8x5x7xf32), partial statistics (max, sum of exp) of 8 groups per sample to b0
// PLAN: (reduction: logsumexp, 16 sets of 35, partial statistics from lse_read_back_k0's epilogue
// PLAN: (elementwise)
// PLAN-NEXT: reads b1 b2
func.func @lse_read_back(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.logsumexp %c {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x8x5x7xf32> -> tensor<2x8x1x1xf32>
  %1 = fuse.sub %c, %0 : tensor<2x8x5x7xf32>, tensor<2x8x1x1xf32> -> tensor<2x8x5x7xf32>
  return %1 : tensor<2x8x5x7xf32>
}

// -----

// Sets that are not whole channels take no records: a logsumexp over W
// alone (a warp per row), an amax over the channels (strided: a thread per
// set).
// CHECK-LABEL: func.func @not_whole_channels
// CHECK-NOT: fuse.plan.stats_groups
// CHECK: return
// PLAN-LABEL: plan @not_whole_channels
// PLAN-NOT: partial statistics
// PLAN: (reduction: logsumexp, 80 sets of 7, one warp per set)
// PLAN-NOT: partial statistics
// PLAN: (reduction: amax, 70 sets of 8, one thread per set)
func.func @not_whole_channels(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> (tensor<2x8x5xf32>, tensor<2x5x7xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.logsumexp %c {dims = array<i64: 3>, keepdim = false} : tensor<2x8x5x7xf32> -> tensor<2x8x5xf32>
  %1 = fuse.amax %c {dims = array<i64: 1>, keepdim = false} : tensor<2x8x5x7xf32> -> tensor<2x5x7xf32>
  return %0, %1 : tensor<2x8x5xf32>, tensor<2x5x7xf32>
}

// -----

// A mean of a max pooling (not composable: fuse-compose-pools keeps the
// pool): the pooled epilogue writes moments records of its pooled values
// and, read only by the reduction, keeps its result on chip.
// CHECK-LABEL: func.func @mean_of_max_pool
// CHECK: fuse.kernel "mean_of_max_pool_k0"
// CHECK-SAME: fuse.plan.stats_groups = 8 : i64, fuse.plan.stats_kind = "moments", fuse.plan.stats_only
// CHECK: fuse.max_pool
// CHECK: fuse.kernel "mean_of_max_pool_k1"
// CHECK-SAME: fuse.plan.epilogue_stats
// NOEPI-LABEL: func.func @mean_of_max_pool
// NOEPI-NOT: fuse.plan.stats
// NOEPI: return
// PLAN-LABEL: plan @mean_of_max_pool: 2 kernels, 1 buffer
// PLAN: pooled epilogue: max_pool
// PLAN: keeps its result (2x8x3x4xf32) on chip, partial statistics of 8 groups per sample to b0
// PLAN: (reduction: mean, 16 sets of 12, partial statistics from mean_of_max_pool_k0's epilogue
func.func @mean_of_max_pool(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x4x4xf32>) -> tensor<2x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x4x4xf32>) -> tensor<2x8x6x8xf32>
  %p = fuse.max_pool %c {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x8x6x8xf32> -> tensor<2x8x3x4xf32>
  %0 = fuse.mean %p {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x8x3x4xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// An amax of an average pooling with an op between: (max) records of the
// values after the clamp.
// CHECK-LABEL: func.func @amax_of_avg_pool
// CHECK: fuse.kernel "amax_of_avg_pool_k0"
// CHECK-SAME: fuse.plan.stats_groups = 8 : i64, fuse.plan.stats_kind = "max", fuse.plan.stats_only
// CHECK: fuse.avg_pool
// CHECK: fuse.clamp
// CHECK: fuse.kernel "amax_of_avg_pool_k1"
// CHECK-SAME: fuse.plan.epilogue_stats
// PLAN-LABEL: plan @amax_of_avg_pool: 2 kernels
// PLAN: keeps its result (2x8x2x3xf32) on chip, partial statistics (max) of 8 groups per sample to b0
func.func @amax_of_avg_pool(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x4x4xf32>) -> tensor<2x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x4x4xf32>) -> tensor<2x8x6x8xf32>
  %p = fuse.avg_pool %c {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x8x6x8xf32> -> tensor<2x8x2x3xf32>
  %q = fuse.clamp %p {min = 0.0 : f64, max = 1.0 : f64} : tensor<2x8x2x3xf32>
  %0 = fuse.amax %q {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x8x2x3xf32> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// A softmax over the spatial dims of a pooled result would need (max, sum
// of exp) records, which a pooled epilogue does not write: the softmax
// computes its own statistics from the stored pooled result.
// CHECK-LABEL: func.func @softmax_of_max_pool
// CHECK-NOT: fuse.plan.stats_groups
// CHECK: return
// PLAN-LABEL: plan @softmax_of_max_pool: 2 kernels
// PLAN-NOT: partial statistics from
// PLAN: writes result
func.func @softmax_of_max_pool(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x4x4xf32>) -> tensor<2x8x12xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x4x4xf32>) -> tensor<2x8x6x8xf32>
  %p = fuse.max_pool %c {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x8x6x8xf32> -> tensor<2x8x3x4xf32>
  %v = fuse.reshape %p : tensor<2x8x3x4xf32> -> tensor<2x8x12xf32>
  %0 = fuse.softmax %v {dim = 2 : i64} : tensor<2x8x12xf32>
  return %0 : tensor<2x8x12xf32>
}
