// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --precision=ieee --ieee-tensor-cores=always | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 --tile-c=16 --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --precision=bf16 | FileCheck %s
// RUN: fusecc-check %s --precision=fp16 --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --precision=tf32 --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=PLAN
//
// A global reduction of a pooled epilogue's result that fuse-compose-pools
// cannot rewrite (a mean or sum of maxima, an amax or amin of averages):
// the pooled epilogue writes the reduction's records (moments, max, min)
// of its pooled values through the ops after the pool, and the pooled
// tensor never reaches device memory (issue 37's pool_reduce family,
// rand37_39 / 64 / 91 / 92). In the simulator against the float64
// reference of the original graph, on FMA, mma.sync and wgmma, TF32, IEEE,
// BF16 and FP16 operands, kept tiles and combined partial windows (the
// --tile-rows runs), several pooled row blocks with a short last one,
// channel counts that fit no tile (20), 1-D and 3-D, keepdim, elementwise
// ops between the pool and the reduction and after it, a group_norm of a
// pooled result (records and the stored tensor), a pooled result that is
// also returned (stored and reduced), and bf16 / f16 graphs (their pooled
// values, f32 in the kernel, are reduced as the f32 intermediate was); the
// last run plans no records.

// CHECK: @mean_of_max: PASS
// CHECK: @sum_of_relu_max: PASS
// CHECK: @amax_of_avg_bias: PASS
// CHECK: @amin_of_avg_1d: PASS
// CHECK: @mean_of_max_3d_keepdim: PASS
// CHECK: @var_of_max_tall: PASS
// CHECK: @group_norm_of_max: PASS
// CHECK: @mean_of_returned_max#0: PASS
// CHECK: @mean_of_returned_max#1: PASS
// CHECK: @amax_all_of_avg: PASS
// CHECK: @mean_of_max_wide: PASS
// CHECK: @amin_of_avg_wide: PASS
// CHECK: @mean_of_max_bf16: PASS {{.*}} storage bf16
// CHECK: @amax_of_avg_f16: PASS {{.*}} storage f16
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @mean_of_max: 2 kernels
// PLAN: pooled epilogue: max_pool
// PLAN: keeps its result (2x7x6x8xf32) on chip, partial statistics of 7 groups per sample
// PLAN: (reduction: mean, 14 sets of 48, partial statistics from mean_of_max_k0's epilogue
// PLAN-NEXT: reads (on chip)
func.func @mean_of_max(%x: tensor<2x5x6x8xf32>, %w: tensor<5x7x4x4xf32>) -> tensor<2x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x6x8xf32>, tensor<5x7x4x4xf32>) -> tensor<2x7x12x16xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x7x12x16xf32> -> tensor<2x7x6x8xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x7x6x8xf32> -> tensor<2x7xf32>
  return %2 : tensor<2x7xf32>
}

// PLAN-LABEL: plan @sum_of_relu_max: 2 kernels
// PLAN: keeps its result (3x20x5x6xf32) on chip, partial statistics of 20 groups per sample
// PLAN: (reduction: sum, 60 sets of 30, partial statistics from sum_of_relu_max_k0's epilogue
func.func @sum_of_relu_max(%x: tensor<3x6x5x6xf32>, %w: tensor<6x20x3x3xf32>, %b: tensor<20xf32>, %s: tensor<20xf32>) -> tensor<3x20xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x6x5x6xf32>, tensor<6x20x3x3xf32>, tensor<20xf32>) -> tensor<3x20x11x13xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<3x20x11x13xf32> -> tensor<3x20x5x6xf32>
  %2 = fuse.relu %1 : tensor<3x20x5x6xf32>
  %3 = fuse.sum %2 {dims = array<i64: 2, 3>, keepdim = false} : tensor<3x20x5x6xf32> -> tensor<3x20xf32>
  %4 = fuse.mul %3, %s : tensor<3x20xf32>, tensor<20xf32> -> tensor<3x20xf32>
  return %4 : tensor<3x20xf32>
}

// PLAN-LABEL: plan @amax_of_avg_bias: 2 kernels
// PLAN: keeps its result (2x9x4x7xf32) on chip, partial statistics (max) of 9 groups per sample
func.func @amax_of_avg_bias(%x: tensor<2x4x4x7xf32>, %w: tensor<4x9x4x4xf32>, %b: tensor<9xf32>) -> tensor<2x9xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x4x7xf32>, tensor<4x9x4x4xf32>, tensor<9xf32>) -> tensor<2x9x8x14xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x9x8x14xf32> -> tensor<2x9x4x7xf32>
  %2 = fuse.amax %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x9x4x7xf32> -> tensor<2x9xf32>
  return %2 : tensor<2x9xf32>
}

// PLAN-LABEL: plan @amin_of_avg_1d: 2 kernels
// PLAN: keeps its result (2x6x9xf32) on chip, partial statistics (min) of 6 groups per sample
func.func @amin_of_avg_1d(%x: tensor<2x5x9xf32>, %w: tensor<5x6x3xf32>) -> tensor<2x6xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x5x9xf32>, tensor<5x6x3xf32>) -> tensor<2x6x19xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<2x6x19xf32> -> tensor<2x6x9xf32>
  %2 = fuse.amin %1 {dims = array<i64: 2>, keepdim = false} : tensor<2x6x9xf32> -> tensor<2x6xf32>
  return %2 : tensor<2x6xf32>
}

// PLAN-LABEL: plan @mean_of_max_3d_keepdim: 2 kernels
// PLAN: keeps its result (1x6x2x3x3xf32) on chip, partial statistics of 6 groups per sample
func.func @mean_of_max_3d_keepdim(%x: tensor<1x3x3x4x4xf32>, %w: tensor<3x6x2x2x2xf32>) -> tensor<1x6x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x3x4x4xf32>, tensor<3x6x2x2x2xf32>) -> tensor<1x6x4x6x6xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x6x4x6x6xf32> -> tensor<1x6x2x3x3xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<1x6x2x3x3xf32> -> tensor<1x6x1x1x1xf32>
  return %2 : tensor<1x6x1x1x1xf32>
}

// Eleven pooled rows: several H blocks, the last one short; a variance
// merges the moments records.
// PLAN-LABEL: plan @var_of_max_tall: 2 kernels
// PLAN: keeps its result (2x5x11x3xf32) on chip, partial statistics of 5 groups per sample
func.func @var_of_max_tall(%x: tensor<2x3x11x3xf32>, %w: tensor<3x5x4x4xf32>) -> tensor<2x5xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x11x3xf32>, tensor<3x5x4x4xf32>) -> tensor<2x5x22x6xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x5x22x6xf32> -> tensor<2x5x11x3xf32>
  %2 = fuse.var %1 {dims = array<i64: 2, 3>, correction = 1 : i64, keepdim = false} : tensor<2x5x11x3xf32> -> tensor<2x5xf32>
  return %2 : tensor<2x5xf32>
}

// A group_norm reads the stored pooled result once, to normalise it.
// PLAN-LABEL: plan @group_norm_of_max: 2 kernels
// PLAN: writes b1 (2x8x4x4xf32), partial statistics of 2 groups per sample to b0
// PLAN: (normalization: group_norm, 4 sets of 64, partial statistics from group_norm_of_max_k0's epilogue
func.func @group_norm_of_max(%x: tensor<2x4x4x4xf32>, %w: tensor<4x8x4x4xf32>, %g: tensor<8xf32>, %be: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x4x4xf32>, tensor<4x8x4x4xf32>) -> tensor<2x8x8x8xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x8x8x8xf32> -> tensor<2x8x4x4xf32>
  %n = fuse.group_norm %1 weight(%g : tensor<8xf32>) bias(%be : tensor<8xf32>) {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x4x4xf32>
  return %n : tensor<2x8x4x4xf32>
}

// The pooled result is also returned: stored, and reduced from the records.
// PLAN-LABEL: plan @mean_of_returned_max: 2 kernels
// PLAN: writes result0 (2x7x6x8xf32), partial statistics of 7 groups per sample to b0
func.func @mean_of_returned_max(%x: tensor<2x5x6x8xf32>, %w: tensor<5x7x4x4xf32>) -> (tensor<2x7x6x8xf32>, tensor<2x7xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x6x8xf32>, tensor<5x7x4x4xf32>) -> tensor<2x7x12x16xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x7x12x16xf32> -> tensor<2x7x6x8xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x7x6x8xf32> -> tensor<2x7xf32>
  return %1, %2 : tensor<2x7x6x8xf32>, tensor<2x7xf32>
}

// An amax over all non-batch dims: one set per sample, whose 20 channels
// span channel tiles (--tile-c=16) and teams of warps.
// PLAN-LABEL: plan @amax_all_of_avg: 2 kernels
// PLAN: keeps its result (3x20x3x4xf32) on chip, partial statistics (max) of 1 group per sample
func.func @amax_all_of_avg(%x: tensor<3x4x3x4xf32>, %w: tensor<4x20x4x4xf32>, %b: tensor<20xf32>) -> tensor<3xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x4xf32>, tensor<4x20x4x4xf32>, tensor<20xf32>) -> tensor<3x20x6x8xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<3x20x6x8xf32> -> tensor<3x20x3x4xf32>
  %2 = fuse.amax %1 {dims = array<i64: 1, 2, 3>, keepdim = false} : tensor<3x20x3x4xf32> -> tensor<3xf32>
  return %2 : tensor<3xf32>
}

// Wide rows of 70 and 64 channels: partial windows combined after each
// pass (the accumulators hold the pooled values), an op before the pool
// and one between it and the mean.
// PLAN-LABEL: plan @mean_of_max_wide: 2 kernels
// PLAN: pooled epilogue: max_pool, {{.*}} partial windows combined
// PLAN: keeps its result (2x70x2x3x60xf32) on chip, partial statistics of 70 groups per sample
// PLAN-LABEL: plan @amin_of_avg_wide: 2 kernels
// PLAN: pooled epilogue: avg_pool, {{.*}} partial windows combined
// PLAN: keeps its result (2x64x4x99xf32) on chip, partial statistics (min) of 64 groups per sample
func.func @mean_of_max_wide(%x: tensor<2x6x2x3x60xf32>, %w: tensor<6x70x2x2x2xf32>, %b: tensor<70xf32>) -> tensor<2x70xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<2x6x2x3x60xf32>, tensor<6x70x2x2x2xf32>, tensor<70xf32>) -> tensor<2x70x4x6x120xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<2x70x4x6x120xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<2x70x4x6x120xf32> -> tensor<2x70x2x3x60xf32>
  %3 = fuse.sigmoid %2 : tensor<2x70x2x3x60xf32>
  %4 = fuse.mean %3 {dims = array<i64: 2, 3, 4>, keepdim = false} : tensor<2x70x2x3x60xf32> -> tensor<2x70xf32>
  return %4 : tensor<2x70xf32>
}

func.func @amin_of_avg_wide(%x: tensor<2x4x7x198xf32>, %w: tensor<4x64x3x3xf32>) -> tensor<2x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x7x198xf32>, tensor<4x64x3x3xf32>) -> tensor<2x64x9x200xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x64x9x200xf32> -> tensor<2x64x4x99xf32>
  %2 = fuse.amin %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x64x4x99xf32> -> tensor<2x64xf32>
  return %2 : tensor<2x64xf32>
}

// PLAN-LABEL: plan @mean_of_max_bf16: 3 kernels
// PLAN: keeps its result (2x32x4x8xf32) on chip, partial statistics of 32 groups per sample to b0
// PLAN: writes result (2x32xbf16)
func.func @mean_of_max_bf16(%x: tensor<2x16x4x8xbf16>, %w: tensor<16x32x4x4xbf16>) -> tensor<2x32xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x8xbf16>, tensor<16x32x4x4xbf16>) -> tensor<2x32x8x16xbf16>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x32x8x16xbf16> -> tensor<2x32x4x8xbf16>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x32x4x8xbf16> -> tensor<2x32xbf16>
  return %2 : tensor<2x32xbf16>
}

// PLAN-LABEL: plan @amax_of_avg_f16: 3 kernels
// PLAN: keeps its result (2x24x3x5xf32) on chip, partial statistics (max) of 24 groups per sample to b0
func.func @amax_of_avg_f16(%x: tensor<2x16x3x5xf16>, %w: tensor<16x24x4x4xf16>, %b: tensor<24xf16>) -> tensor<2x24xf16> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x3x5xf16>, tensor<16x24x4x4xf16>, tensor<24xf16>) -> tensor<2x24x6x10xf16>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x24x6x10xf16> -> tensor<2x24x3x5xf16>
  %2 = fuse.amax %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x24x3x5xf16> -> tensor<2x24xf16>
  return %2 : tensor<2x24xf16>
}
