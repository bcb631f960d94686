// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 --tile-c=16 | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
//
// batch_norm in training mode as planned phases: fuse-decompose builds a
// mean and a biased fuse.var over (N, spatial), fuse-split-reductions makes
// them per-(sample, channel) statistics combined over N, and after a
// convolution both per-(sample, channel) reductions take the conv
// epilogue's moments records (one shared workspace). In the simulator
// against the float64 reference: 1-, 2- and 3-D spatial dims, batch 1 and
// 3, channel counts that fit no tile (5, 13), with and without weight and
// bias, the updated running statistics (momentum, unbiased variance), a
// batch_norm on a graph input, and an ill-conditioned case (channel means
// near 1e3 from the bias, spread ~1). The last simulator run plans without
// epilogue statistics and splits every longer set over blocks.

// CHECK: @bn2d_b3_c13#0: PASS
// CHECK: @bn2d_b3_c13#1: PASS
// CHECK: @bn2d_b3_c13#2: PASS
// CHECK: @bn1d_b1_no_affine#0: PASS
// CHECK: @bn1d_b1_no_affine#1: PASS
// CHECK: @bn1d_b1_no_affine#2: PASS
// CHECK: @bn3d_weight_only: PASS
// CHECK: @bn_input#0: PASS
// CHECK: @bn_input#1: PASS
// CHECK: @bn_input#2: PASS
// CHECK: @bn_conv_mean_1e3#0: PASS
// CHECK: @bn_conv_mean_1e3#1: PASS
// CHECK: @bn_conv_mean_1e3#2: PASS
// CHECK-NOT: FAIL

// The conv writes its result and moments of one group per channel; the
// per-(sample, channel) mean and var both merge them (one workspace, live
// until the second reader; neither reads the conv result itself); the
// output is one elementwise pass, the only reader of the conv result.
// PLAN-LABEL: plan @bn2d_b3_c13: 10 kernels
// PLAN: (convolution)
// PLAN-NEXT: reads
// PLAN-NEXT: writes b[[R:[0-9]+]] (3x13x9x9xf32), partial statistics of 13 groups per sample to b[[P:[0-9]+]]
// PLAN-NEXT: (reduction: mean, 39 sets of 81, partial statistics from
// PLAN-NEXT: reads b[[R]]
// PLAN-NEXT: writes b{{[0-9]+}} (3x13x1x1xf32), reads partial statistics b[[P]]
// PLAN-NEXT: (reduction: mean, 13 sets of 3, one thread per set)
// PLAN-NEXT: reads
// PLAN-NEXT: writes
// PLAN-NEXT: (reduction: var, 39 sets of 81, partial statistics from
// PLAN-NEXT: reads b[[R]]
// PLAN-NEXT: writes b{{[0-9]+}} (3x13x1x1xf32), reads partial statistics b[[P]]
// PLAN-NOT: partial statistics
// PLAN: reads b[[R]] b
// PLAN-NEXT: writes result0 (3x13x9x9xf32)
// PLAN-LABEL: plan @bn1d_b1_no_affine:
// PLAN: partial statistics of 6 groups per sample
// PLAN-LABEL: plan @bn3d_weight_only:
// PLAN: partial statistics of 5 groups per sample

func.func @bn2d_b3_c13(%x: tensor<3x4x4x4xf32>, %w: tensor<4x13x3x3xf32>, %b: tensor<13xf32>, %rm: tensor<13xf32>, %rv: tensor<13xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<13xf32>, %be: tensor<13xf32>) -> (tensor<3x13x9x9xf32>, tensor<13xf32>, tensor<13xf32>) {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x4x4xf32>, tensor<4x13x3x3xf32>, tensor<13xf32>) -> tensor<3x13x9x9xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%be) {training = true, momentum = 0.25 : f64} : (tensor<3x13x9x9xf32>, tensor<13xf32>, tensor<13xf32>, tensor<13xf32>, tensor<13xf32>) -> (tensor<3x13x9x9xf32>, tensor<13xf32>, tensor<13xf32>)
  %r = fuse.relu %y#0 : tensor<3x13x9x9xf32>
  return %r, %y#1, %y#2 : tensor<3x13x9x9xf32>, tensor<13xf32>, tensor<13xf32>
}

func.func @bn1d_b1_no_affine(%x: tensor<1x3x5xf32>, %w: tensor<3x6x3xf32>, %rm: tensor<6xf32>, %rv: tensor<6xf32> {fuse.check.mean = 4.0 : f64}) -> (tensor<1x6x11xf32>, tensor<6xf32>, tensor<6xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x3x5xf32>, tensor<3x6x3xf32>) -> tensor<1x6x11xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv {training = true} : (tensor<1x6x11xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<1x6x11xf32>, tensor<6xf32>, tensor<6xf32>)
  return %y#0, %y#1, %y#2 : tensor<1x6x11xf32>, tensor<6xf32>, tensor<6xf32>
}

func.func @bn3d_weight_only(%x: tensor<3x2x2x3x3xf32>, %w: tensor<2x5x2x2x2xf32>, %b: tensor<5xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32>, %g: tensor<5xf32>) -> tensor<3x5x4x6x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x2x2x3x3xf32>, tensor<2x5x2x2x2xf32>, tensor<5xf32>) -> tensor<3x5x4x6x6xf32>
  %y = fuse.batch_norm %c, %rm, %rv weight(%g) {training = true, epsilon = 1.0e-3 : f64} : (tensor<3x5x4x6x6xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<3x5x4x6x6xf32>
  return %y : tensor<3x5x4x6x6xf32>
}

func.func @bn_input(%x: tensor<3x5x6x4xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<5xf32>, %be: tensor<5xf32>) -> (tensor<3x5x6x4xf32>, tensor<5xf32>, tensor<5xf32>) {
  %y:3 = fuse.batch_norm %x, %rm, %rv weight(%g) bias(%be) {training = true, momentum = 0.5 : f64} : (tensor<3x5x6x4xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x6x4xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x5x6x4xf32>, tensor<5xf32>, tensor<5xf32>
}

// Channel means near 1e3 (the bias), spread below 1: the records' shifted
// sums and Chan's merge keep the variance. What rel_tol states is the f32
// rounding of the conv result itself near 1e3 (x - mean is exact in f32,
// x is not): rel-L2 2.9e-4 (ieee), 3.9e-4 (tf32); before the phases the
// batch mean's f32 sums added to it (9.5e-4 ieee).
func.func @bn_conv_mean_1e3(%x: tensor<3x4x3x3xf32>, %w: tensor<4x5x3x3xf32>, %b: tensor<5xf32> {fuse.check.mean = 1000.0 : f64}, %rm: tensor<5xf32>, %rv: tensor<5xf32>) -> (tensor<3x5x7x7xf32>, tensor<5xf32>, tensor<5xf32>) attributes {fuse.check.rel_tol = 5.0e-4 : f64} {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x3x3xf32>, tensor<4x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x7x7xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv {training = true} : (tensor<3x5x7x7xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7x7xf32>, tensor<5xf32>, tensor<5xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x5x7x7xf32>, tensor<5xf32>, tensor<5xf32>
}
