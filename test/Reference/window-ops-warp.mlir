// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc %s --emit=plan --plan-reduce-through-conv=false | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=RTC
// RUN: fusecc-check --plan-epilogue-stats=false %s | FileCheck %s
// RUN: fusecc-check --plan-reduce-through-conv=false %s | FileCheck %s
//
// Reductions over 512 or more elements: a warp builds each result element,
// its lanes sharing the reduced positions (a strided share each, then a warp
// all-reduce). Reduced sizes that are no multiple of 32, several reduced dims
// (delinearised), a pool inside the reduced operand (each lane evaluates it
// on its own), a result broadcast back into the conv output, and the
// KernelBench 2/44 chain (mean over H, W twice).

// CHECK: @mean_hw_twice: PASS
// CHECK: @mean_many_records: PASS
// CHECK: @sum_chw_nokeep: PASS
// CHECK: @amax_amin_lse: PASS
// CHECK: @pool_inside_sum: PASS
// CHECK: @mean_broadcast_back: PASS
// CHECK: @sum_split_input: PASS
// CHECK: @mean_channels_column#0: PASS
// CHECK: @mean_channels_column#1: PASS
// CHECK: @global_avg_pool_scale: PASS

// With fuse-reduce-through-conv (the default), a mean over all spatial
// dims of a convolution's result needs no convolution: box sums of the
// input (a box-sums kernel), then a convolution of output size 1; the
// second mean of kb2_44's chain folds away.
// RTC-LABEL: plan @mean_hw_twice: 2 kernels
// RTC: step 0 mean_hw_twice_k1 (box sums: conv_transpose_tap_sums, 6 planes of 156, one block of 32 threads per plane
// RTC-NEXT: reads arg0
// RTC-NEXT: writes b0 (2x3x3x3xf32)
// RTC: step 1 mean_hw_twice_k0 (convolution, prologue: conv_transpose_tap_sums kept
// RTC-NEXT: reads b0 arg1 arg2
// RTC-NEXT: writes result (2x5x1x1xf32)
// RTC-LABEL: plan @global_avg_pool_scale: 2 kernels
// RTC: (box sums: conv_transpose_tap_sums
// RTC: (convolution, prologue: conv_transpose_tap_sums kept
// Without it (PLAN):
// a mean over the spatial dims of a convolution's result takes its partial
// statistics from the conv epilogue (one set per channel); a sum over all
// non-batch dims likewise (one set per sample). A reduction read back at
// every element of a larger shape gets a kernel of its own (computed once),
// not one evaluation per element.
// PLAN-LABEL: plan @mean_hw_twice: 2 kernels
// PLAN: keeps its result (2x5x24x26xf32) on chip, partial statistics of 5 groups per sample to b0
// PLAN: step 1 mean_hw_twice_k1 (reduction: mean, 10 sets of 624, partial statistics from mean_hw_twice_k0's epilogue (24 per set), one warp per set: combine + reduce)
// PLAN-NEXT: reads (on chip)
// Sets with more records than a warp merges alone (140 row blocks) take a
// block per set.
// PLAN-LABEL: plan @mean_many_records: 2 kernels
// PLAN: (reduction: mean, 10 sets of 1120, partial statistics from mean_many_records_k0's epilogue (140 per set), 1 block per set: combine + reduce)
// PLAN-LABEL: plan @sum_chw_nokeep: 2 kernels
// PLAN: step 1 sum_chw_nokeep_k1 (reduction: sum, 3 sets of 1155, partial statistics from sum_chw_nokeep_k0's epilogue
// amax, amin and logsumexp over whole dims are reductions too; the first
// takes (max) records from the conv epilogue (one producer serves one
// consumer), the others a warp per set.
// PLAN-LABEL: plan @amax_amin_lse: 5 kernels
// PLAN: writes b1 (1x4x27x32xf32), partial statistics (max) of 4 groups per sample to b0
// PLAN: (reduction: amax, 4 sets of 864, partial statistics from amax_amin_lse_k0's epilogue (27 per set), one warp per set: combine + reduce)
// PLAN: (reduction: logsumexp, 4 sets of 864, one warp per set)
// PLAN: (reduction: amin, 4 sets of 864, one warp per set)
// PLAN-LABEL: plan @mean_broadcast_back: 3 kernels
// PLAN: step 0 mean_broadcast_back_k0 (convolution)
// PLAN: step 1 mean_broadcast_back_k1 (reduction: mean, 8 sets of 576
// PLAN-NEXT: reads b1
// PLAN-NEXT: writes b2 (2x4x1x1xf32)
// PLAN: step 2 mean_broadcast_back_k2 (elementwise)
// PLAN-NEXT: reads b1 b2
// PLAN-LABEL: plan @sum_split_input: 1 kernel
// PLAN: (reduction: sum, 2 sets of 15552, {{[0-9]+}} blocks per set: partial statistics, then combine + reduce)
// PLAN-LABEL: plan @mean_channels_column: 2 kernels
// PLAN: (reduction: mean, 96 sets of 5, one thread per set)
// PLAN-LABEL: plan @global_avg_pool_scale: 2 kernels
// PLAN: (reduction: adaptive_avg_pool, 6 sets of 324, partial statistics from

func.func @mean_hw_twice(%x: tensor<2x3x12x13xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x5x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x12x13xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<2x5x24x26xf32>
  %c = arith.constant dense<5.0e-01> : tensor<f32>
  %1 = fuse.mul %0, %c : tensor<2x5x24x26xf32>, tensor<f32> -> tensor<2x5x24x26xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x5x24x26xf32> -> tensor<2x5x1x1xf32>
  %3 = fuse.mean %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x5x1x1xf32> -> tensor<2x5x1x1xf32>
  return %3 : tensor<2x5x1x1xf32>
}

func.func @mean_many_records(%x: tensor<2x3x70x4xf32>, %w: tensor<3x5x3x3xf32>) -> tensor<2x5x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x70x4xf32>, tensor<3x5x3x3xf32>) -> tensor<2x5x140x8xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x5x140x8xf32> -> tensor<2x5x1x1xf32>
  return %1 : tensor<2x5x1x1xf32>
}

func.func @sum_chw_nokeep(%x: tensor<3x2x5x7xf32>, %w: tensor<2x7x3x3xf32>) -> tensor<3xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x2x5x7xf32>, tensor<2x7x3x3xf32>) -> tensor<3x7x11x15xf32>
  %1 = fuse.sum %0 {dims = array<i64: 3, 1, 2>} : tensor<3x7x11x15xf32> -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

func.func @amax_amin_lse(%x: tensor<1x3x9x11xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 2, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x9x11xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x27x32xf32>
  %1 = fuse.amax %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x4x27x32xf32> -> tensor<1x4x1x1xf32>
  %2 = fuse.amin %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x4x27x32xf32> -> tensor<1x4x1x1xf32>
  %3 = fuse.logsumexp %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x4x27x32xf32> -> tensor<1x4x1x1xf32>
  %4 = fuse.sub %1, %2 : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32> -> tensor<1x4x1x1xf32>
  %5 = fuse.add %4, %3 : tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32> -> tensor<1x4x1x1xf32>
  return %5 : tensor<1x4x1x1xf32>
}

func.func @pool_inside_sum(%x: tensor<2x3x3x10x12xf32>, %w: tensor<3x5x2x3x3xf32>, %b: tensor<5xf32>) -> tensor<2x1x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 1, 1>, output_padding = array<i64: 0, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x3x3x10x12xf32>, tensor<3x5x2x3x3xf32>, tensor<5xf32>) -> tensor<2x5x6x20x24xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 1, 1, 1>, padding = array<i64: 1, 1, 1>} : tensor<2x5x6x20x24xf32> -> tensor<2x5x7x21x25xf32>
  %2 = fuse.sum %1 {dims = array<i64: 1, 2, 3, 4>, keepdim = true} : tensor<2x5x7x21x25xf32> -> tensor<2x1x1x1x1xf32>
  return %2 : tensor<2x1x1x1x1xf32>
}

func.func @mean_broadcast_back(%x: tensor<2x3x12x12xf32>, %w: tensor<3x4x2x2xf32>) -> tensor<2x4x24x24xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x12x12xf32>, tensor<3x4x2x2xf32>) -> tensor<2x4x24x24xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x24x24xf32> -> tensor<2x4x1x1xf32>
  %2 = fuse.sub %0, %1 : tensor<2x4x24x24xf32>, tensor<2x4x1x1xf32> -> tensor<2x4x24x24xf32>
  return %2 : tensor<2x4x24x24xf32>
}

func.func @sum_split_input(%x: tensor<2x3x72x72xf32>) -> tensor<2x1x1x1xf32> {
  %0 = fuse.sum %x {dims = array<i64: 1, 2, 3>, keepdim = true} : tensor<2x3x72x72xf32> -> tensor<2x1x1x1xf32>
  %c = arith.constant dense<2.5e-01> : tensor<f32>
  %1 = fuse.mul %0, %c : tensor<2x1x1x1xf32>, tensor<f32> -> tensor<2x1x1x1xf32>
  return %1 : tensor<2x1x1x1xf32>
}

// The conv result is returned too, so the mean reads it from its buffer (a
// column per set) instead of joining the conv kernel's epilogue.
func.func @mean_channels_column(%x: tensor<2x3x3x4xf32>, %w: tensor<3x5x2x2xf32>) -> (tensor<2x6x8xf32>, tensor<2x5x6x8xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x3x4xf32>, tensor<3x5x2x2xf32>) -> tensor<2x5x6x8xf32>
  %1 = fuse.mean %0 {dims = array<i64: 1>} : tensor<2x5x6x8xf32> -> tensor<2x6x8xf32>
  %2 = fuse.tanh %1 : tensor<2x6x8xf32>
  return %2, %0 : tensor<2x6x8xf32>, tensor<2x5x6x8xf32>
}

func.func @global_avg_pool_scale(%x: tensor<3x2x9x9xf32>, %w: tensor<2x2x3x3xf32>, %b: tensor<2xf32>, %s: tensor<2x1x1xf32>) -> tensor<3x2x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x2x9x9xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<3x2x18x18xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<3x2x18x18xf32> -> tensor<3x2x1x1xf32>
  %2 = fuse.mul %1, %s : tensor<3x2x1x1xf32>, tensor<2x1x1xf32> -> tensor<3x2x1x1xf32>
  %3 = fuse.sigmoid %2 : tensor<3x2x1x1xf32>
  return %3 : tensor<3x2x1x1xf32>
}
