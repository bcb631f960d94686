// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s
// RUN: fusecc-check %s --plan-reduce-through-conv=false | FileCheck %s
// RUN: fusecc %s --emit=plan --plan-reduce-through-conv=false | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=RTC
//
// fuse.var, and reductions over non-adjacent dims split into chains over
// contiguous runs (fuse-split-reductions), in the simulator against the
// float64 reference: var with corrections 0, 1 and 2, with and without
// keepdim, over a convolution's spatial dims (epilogue moments), its
// channels (in the conv tile), (N, spatial) and a graph input's last dim
// (a warp per set), middle dim (a thread per set) and non-adjacent dims;
// mean, sum, amax, amin and logsumexp over non-adjacent dims of a conv
// result and of a graph input; an ill-conditioned var (mean 1e3, std 1).
// The third run plans without epilogue statistics and splits every set
// longer than 8 over blocks.

// CHECK: @var_conv_batch_spatial: PASS
// CHECK: @var_conv_spatial_keepdim: PASS
// CHECK: @var_conv_channels: PASS
// CHECK: @var_input_last_dim: PASS
// CHECK: @var_input_middle_dim_c2: PASS
// CHECK: @var_input_mean_1e3: PASS
// CHECK: @mean_conv_batch_spatial: PASS
// CHECK: @sum_input_0_2: PASS
// CHECK: @amax_conv_0_2: PASS
// CHECK: @amin_input_0_3: PASS
// CHECK: @logsumexp_conv_0_2_3: PASS
// CHECK-NOT: FAIL

// The per-(sample, channel) statistics come from the conv's epilogue.
// Two readers share the records; nothing else reads the conv result, so
// it stays on chip.
// PLAN-LABEL: plan @var_conv_batch_spatial:
// PLAN: keeps its result (3x5x7x7xf32) on chip, partial statistics of 5 groups per sample to b[[P:[0-9]+]]
// PLAN: (reduction: mean, 15 sets of 49, partial statistics from
// PLAN: reads partial statistics b[[P]]
// PLAN: (reduction: var, 15 sets of 49, partial statistics from
// PLAN: reads partial statistics b[[P]]
// PLAN-LABEL: plan @var_conv_spatial_keepdim: 2 kernels
// PLAN: keeps its result (2x6x5x7xf32) on chip, partial statistics of 6 groups per sample
// PLAN: (reduction: var, 12 sets of 35, partial statistics from
// PLAN-LABEL: plan @var_conv_channels: 1 kernel
// PLAN-LABEL: plan @var_input_last_dim: 1 kernel
// PLAN: (reduction: var, 15 sets of 7, one warp per set)
// PLAN-LABEL: plan @var_input_middle_dim_c2: 1 kernel
// PLAN: (reduction: var, 14 sets of 5, one thread per set)
// PLAN-LABEL: plan @var_input_mean_1e3: 4 kernels
// PLAN: (reduction: mean, 60 sets of 6, one warp per set)
// PLAN: (reduction: var, 60 sets of 6, one warp per set)
// PLAN: (reduction: mean, 15 sets of 4, one thread per set)
// PLAN: (elementwise)
// The links of a chain are reduction kernels of their own (a window over a
// set reduction's result ends the reduction's kernel).
// PLAN-LABEL: plan @mean_conv_batch_spatial: 3 kernels
// PLAN: keeps its result (3x5x7x7xf32) on chip
// PLAN: (reduction: mean, 15 sets of 49, partial statistics from
// PLAN: (reduction: mean, 5 sets of 3, one thread per set)
// With fuse-reduce-through-conv (the default), the mean over (2, 3) of
// the chain needs no convolution: box sums of the input and a convolution
// of output size 1, then the mean over the batch.
// RTC-LABEL: plan @mean_conv_batch_spatial: 3 kernels
// RTC: (box sums: conv_transpose_tap_sums
// RTC-NEXT: reads arg0
// RTC-NEXT: writes b0 (3x4x3x3xf32)
// RTC: (convolution, prologue: conv_transpose_tap_sums kept
// RTC: (reduction: mean, 5 sets of 3, one thread per set)
// PLAN-LABEL: plan @sum_input_0_2: 2 kernels
// PLAN: (reduction: sum, 24 sets of 5, one thread per set)
// PLAN: (reduction: sum, 8 sets of 3, one thread per set)
// PLAN-LABEL: plan @amax_conv_0_2: 3 kernels
// PLAN: (reduction: amax, 15 sets of 7, partial statistics from
// PLAN: (reduction: amax, 5 sets of 3, one thread per set)
// PLAN-LABEL: plan @amin_input_0_3: 2 kernels
// PLAN: (reduction: amin, 24 sets of 5, one warp per set)
// PLAN: (reduction: amin, 12 sets of 2, one thread per set)
// PLAN-LABEL: plan @logsumexp_conv_0_2_3: 3 kernels
// PLAN: (reduction: logsumexp, 12 sets of 49, partial statistics from
// PLAN: (reduction: logsumexp, 6 sets of 2, one thread per set)

func.func @var_conv_batch_spatial(%x: tensor<3x4x3x3xf32>, %w: tensor<4x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x3xf32>, tensor<4x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x7x7xf32>
  %v = fuse.var %c {dims = array<i64: 0, 2, 3>} : tensor<3x5x7x7xf32> -> tensor<5xf32>
  return %v : tensor<5xf32>
}

func.func @var_conv_spatial_keepdim(%x: tensor<2x3x3x4xf32>, %w: tensor<3x6x3x1xf32>) -> tensor<2x6x1x1xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x3x4xf32>, tensor<3x6x3x1xf32>) -> tensor<2x6x5x7xf32>
  %e = fuse.exp %c : tensor<2x6x5x7xf32>
  %v = fuse.var %e {dims = array<i64: 2, 3>, keepdim = true, correction = 0 : i64} : tensor<2x6x5x7xf32> -> tensor<2x6x1x1xf32>
  return %v : tensor<2x6x1x1xf32>
}

func.func @var_conv_channels(%x: tensor<2x3x4xf32>, %w: tensor<3x7x3xf32>, %b: tensor<7xf32>) -> tensor<2x9xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x7x3xf32>, tensor<7xf32>) -> tensor<2x7x9xf32>
  %v = fuse.var %c {dims = array<i64: 1>} : tensor<2x7x9xf32> -> tensor<2x9xf32>
  return %v : tensor<2x9xf32>
}

func.func @var_input_last_dim(%x: tensor<3x5x7xf32>) -> tensor<3x5x1xf32> {
  %v = fuse.var %x {dims = array<i64: 2>, keepdim = true} : tensor<3x5x7xf32> -> tensor<3x5x1xf32>
  return %v : tensor<3x5x1xf32>
}

func.func @var_input_middle_dim_c2(%x: tensor<2x5x7xf32>) -> tensor<2x7xf32> {
  %v = fuse.var %x {dims = array<i64: 1>, correction = 2 : i64} : tensor<2x5x7xf32> -> tensor<2x7xf32>
  return %v : tensor<2x7xf32>
}

// Mean 1e3, spread ~1: shifted sums and deviations about each run's mean
// keep the variance (E[x^2] - E[x]^2 in f32 would lose it entirely). The
// per-run means go through an f32 buffer (rounded by up to 3e-5 near 1e3),
// which the between-run term (m - M)^2 sees: rel-L2 7.5e-6 (ieee), hence
// a stated 5e-5.
func.func @var_input_mean_1e3(%x: tensor<4x3x5x6xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x5xf32> attributes {fuse.check.rel_tol = 5.0e-5 : f64} {
  %v = fuse.var %x {dims = array<i64: 0, 3>} : tensor<4x3x5x6xf32> -> tensor<3x5xf32>
  return %v : tensor<3x5xf32>
}

func.func @mean_conv_batch_spatial(%x: tensor<3x4x3x3xf32>, %w: tensor<4x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x3xf32>, tensor<4x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x7x7xf32>
  %m = fuse.mean %c {dims = array<i64: 0, 2, 3>, keepdim = true} : tensor<3x5x7x7xf32> -> tensor<1x5x1x1xf32>
  return %m : tensor<1x5x1x1xf32>
}

func.func @sum_input_0_2(%x: tensor<3x4x5x2xf32>) -> tensor<4x2xf32> {
  %s = fuse.sum %x {dims = array<i64: 2, 0>} : tensor<3x4x5x2xf32> -> tensor<4x2xf32>
  return %s : tensor<4x2xf32>
}

func.func @amax_conv_0_2(%x: tensor<3x3x4xf32>, %w: tensor<3x5x3xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x3x4xf32>, tensor<3x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %m = fuse.amax %c {dims = array<i64: 0, 2>} : tensor<3x5x7xf32> -> tensor<5xf32>
  return %m : tensor<5xf32>
}

func.func @amin_input_0_3(%x: tensor<2x3x4x5xf32>) -> tensor<1x3x4x1xf32> {
  %m = fuse.amin %x {dims = array<i64: 0, 3>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<1x3x4x1xf32>
  return %m : tensor<1x3x4x1xf32>
}

func.func @logsumexp_conv_0_2_3(%x: tensor<2x3x3x3xf32>, %w: tensor<3x6x3x3xf32>) -> tensor<6xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x3x3xf32>, tensor<3x6x3x3xf32>) -> tensor<2x6x7x7xf32>
  %l = fuse.logsumexp %c {dims = array<i64: 0, 2, 3>} : tensor<2x6x7x7xf32> -> tensor<6xf32>
  return %l : tensor<6xf32>
}
