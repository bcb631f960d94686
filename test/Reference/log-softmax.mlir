// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=0 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --epilogue-math=fast %s | FileCheck %s
// RUN: fusecc-check --tile-max-w=8 --tile-threads=64 %s | FileCheck %s
// RUN: fusecc-check --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 %s | FileCheck %s
// RUN: fusecc-check --precision=fp16 %s | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --plan-epilogue-stats=false --plan-warp-set-limit=8 --plan-split-chunk=12 | FileCheck %s --check-prefix=SPLIT
//
// log_softmax, (x - max) - log(sum(exp(x - max))) as in PyTorch, on every
// path of softmax, in the simulator against the float64 reference: over
// the channels in the convolution tile (the block holds all channels:
// 5, 21, 100, 130; batch 1 and 3; 1-, 2- and 3-D), over the last dim in
// the tile, over the spatial dims through a view and over all non-batch
// dims (partial statistics from the conv epilogue, or without them split
// over blocks), over H (a normalisation kernel of its own), on graph
// inputs, with values around 1e3, and on sets holding -inf, +inf and NaN
// (PyTorch: a set whose max is -inf, +inf or NaN gives NaN throughout,
// log_softmax([-inf, -inf]) = [nan, nan]; a -inf element of a set with a
// finite max stays -inf, log_softmax([0, -inf]) = [0, -inf]).

// CHECK: @seg_c21_b3: PASS
// CHECK: @c5_3d_b1_add: PASS
// CHECK: @c100_b1: PASS
// CHECK: @c130_b3: PASS
// CHECK: @c5_1d_b3: PASS
// CHECK: @last_dim_then_softmax_channels: PASS
// CHECK: @last_dim_1d: PASS
// CHECK: @spatial_view_3d: PASS
// CHECK: @all_nonbatch_b3: PASS
// CHECK: @dim_h: PASS
// CHECK: @channels_mean_1e3: PASS
// CHECK: @spatial_mean_1e3: PASS
// CHECK: @ninf_channels: PASS
// CHECK: @pinf_channels: PASS
// CHECK: @nan_channels: PASS
// CHECK: @ninf_spatial: PASS
// CHECK: @pinf_spatial: PASS
// CHECK: @input_last_dim: PASS
// CHECK: @input_batch_dim: PASS
// CHECK: @input_spatial1: PASS
// CHECK: @input_mean_1e3: PASS
// CHECK-NOT: FAIL

// Over the channels or the last dim, the conv kernel applies it in the
// tile: one kernel, no buffer.
// PLAN-LABEL: plan @seg_c21_b3: 1 kernel, 0 buffers
// PLAN-NEXT: step 0 seg_c21_b3_k0 (convolution)
// PLAN-LABEL: plan @c130_b3: 1 kernel, 0 buffers
// PLAN-LABEL: plan @last_dim_then_softmax_channels: 1 kernel, 0 buffers
// PLAN-LABEL: plan @last_dim_1d: 1 kernel, 0 buffers
// Over the spatial dims, the statistics of softmax from the conv epilogue.
// PLAN-LABEL: plan @spatial_view_3d: 2 kernels
// PLAN: writes b1 (1x13x4x6x6xf32), partial statistics (max, sum of exp) of 13 groups per sample to b0
// PLAN: (normalization: log_softmax, 13 sets of 144, partial statistics from spatial_view_3d_k0's epilogue
// PLAN-LABEL: plan @all_nonbatch_b3: 2 kernels
// PLAN: (normalization: log_softmax, 3 sets of 210, partial statistics from all_nonbatch_b3_k0's epilogue
// PLAN-LABEL: plan @dim_h: 2 kernels
// PLAN: (normalization: log_softmax, 84 sets of 5, one thread per set)
// PLAN-LABEL: plan @channels_mean_1e3: 1 kernel, 0 buffers
// (@ninf_spatial: its -inf inputs log(relu(u)) and log(relu(p)) are
// parameter values, computed in the convolution's epilogue.)
// PLAN-LABEL: plan @ninf_spatial: 2 kernels
// PLAN: (normalization: log_softmax, 39 sets of 35, partial statistics from ninf_spatial_k0's epilogue
// PLAN-LABEL: plan @input_last_dim: 1 kernel
// PLAN: (normalization: log_softmax, 15 sets of 7, one warp per set)
// Without epilogue statistics the sets split over blocks.
// SPLIT-LABEL: plan @spatial_view_3d: 2 kernels
// SPLIT: (normalization: log_softmax, 13 sets of 144, 12 blocks per set: partial statistics, then combine + normalise)
// SPLIT-LABEL: plan @all_nonbatch_b3: 2 kernels
// SPLIT: (normalization: log_softmax, 3 sets of 210, 18 blocks per set: partial statistics, then combine + normalise)

// The seg2d head in small: 21 classes, batch 3.
func.func @seg_c21_b3(%x: tensor<3x8x5x6xf32>, %w: tensor<8x21x4x4xf32>, %b: tensor<21xf32>) -> tensor<3x21x10x12xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x8x5x6xf32>, tensor<8x21x4x4xf32>, tensor<21xf32>) -> tensor<3x21x10x12xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<3x21x10x12xf32>
  return %y : tensor<3x21x10x12xf32>
}

// 3-D, 5 channels, batch 1, an elementwise op after it in the epilogue.
func.func @c5_3d_b1_add(%x: tensor<1x3x2x3x3xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>, %p: tensor<5x1x1x1xf32>) -> tensor<1x5x4x6x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x3x2x3x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x4x6x6xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<1x5x4x6x6xf32>
  %z = fuse.add %y, %p : tensor<1x5x4x6x6xf32>, tensor<5x1x1x1xf32> -> tensor<1x5x4x6x6xf32>
  return %z : tensor<1x5x4x6x6xf32>
}

func.func @c100_b1(%x: tensor<1x4x3x5xf32>, %w: tensor<4x100x3x3xf32>) -> tensor<1x100x3x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x3x5xf32>, tensor<4x100x3x3xf32>) -> tensor<1x100x3x5xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<1x100x3x5xf32>
  return %y : tensor<1x100x3x5xf32>
}

func.func @c130_b3(%x: tensor<3x4x2x3xf32>, %w: tensor<4x130x3x3xf32>, %b: tensor<130xf32>) -> tensor<3x130x4x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<3x4x2x3xf32>, tensor<4x130x3x3xf32>, tensor<130xf32>) -> tensor<3x130x4x6xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<3x130x4x6xf32>
  return %y : tensor<3x130x4x6xf32>
}

// 1-D, 5 channels, batch 3.
func.func @c5_1d_b3(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %b: tensor<5xf32>) -> tensor<3x5x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>, tensor<5xf32>) -> tensor<3x5x7xf32>
  %y = fuse.log_softmax %c {dim = 1 : i64} : tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

// Over W in the tile, then a softmax over the channels, in one kernel.
func.func @last_dim_then_softmax_channels(%x: tensor<2x3x3x3xf32>, %w: tensor<3x7x3x3xf32>, %b: tensor<7xf32>) -> tensor<2x7x3x3xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x3x3x3xf32>, tensor<3x7x3x3xf32>, tensor<7xf32>) -> tensor<2x7x3x3xf32>
  %y = fuse.log_softmax %c {dim = 3 : i64} : tensor<2x7x3x3xf32>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<2x7x3x3xf32>
  %t = fuse.tanh %s : tensor<2x7x3x3xf32>
  return %t : tensor<2x7x3x3xf32>
}

func.func @last_dim_1d(%x: tensor<1x3x7xf32>, %w: tensor<3x5x5xf32>, %b: tensor<5xf32>) -> tensor<1x5x20xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3>, padding = array<i64: 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>} : (tensor<1x3x7xf32>, tensor<3x5x5xf32>, tensor<5xf32>) -> tensor<1x5x20xf32>
  %y = fuse.log_softmax %c {dim = 2 : i64} : tensor<1x5x20xf32>
  return %y : tensor<1x5x20xf32>
}

// Over all spatial positions of a view (kb2_38's form): 13 channels,
// batch 1, 3-D.
func.func @spatial_view_3d(%x: tensor<1x3x2x3x3xf32>, %w: tensor<3x13x3x3x3xf32>, %b: tensor<13xf32>, %scale: tensor<1x13x1x1x1xf32>) -> tensor<1x13x4x6x6xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x3x2x3x3xf32>, tensor<3x13x3x3x3xf32>, tensor<13xf32>) -> tensor<1x13x4x6x6xf32>
  %1 = fuse.reshape %0 : tensor<1x13x4x6x6xf32> -> tensor<1x13x144xf32>
  %2 = fuse.log_softmax %1 {dim = 2 : i64} : tensor<1x13x144xf32>
  %3 = fuse.reshape %2 : tensor<1x13x144xf32> -> tensor<1x13x4x6x6xf32>
  %4 = fuse.mul %3, %scale : tensor<1x13x4x6x6xf32>, tensor<1x13x1x1x1xf32> -> tensor<1x13x4x6x6xf32>
  return %4 : tensor<1x13x4x6x6xf32>
}

// One set per sample (C x H x W through a view), batch 3.
func.func @all_nonbatch_b3(%x: tensor<3x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %b: tensor<6xf32>) -> tensor<3x6x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x6x3x3xf32>, tensor<6xf32>) -> tensor<3x6x5x7xf32>
  %1 = fuse.reshape %0 : tensor<3x6x5x7xf32> -> tensor<3x210xf32>
  %2 = fuse.log_softmax %1 {dim = 1 : i64} : tensor<3x210xf32>
  %3 = fuse.reshape %2 : tensor<3x210xf32> -> tensor<3x6x5x7xf32>
  return %3 : tensor<3x6x5x7xf32>
}

// Over H: the sets span blocks, a normalisation kernel of its own.
func.func @dim_h(%x: tensor<2x4x3x4xf32>, %w: tensor<4x6x3x3xf32>) -> tensor<2x6x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x6x3x3xf32>) -> tensor<2x6x5x7xf32>
  %1 = fuse.log_softmax %0 {dim = 2 : i64} : tensor<2x6x5x7xf32>
  %2 = fuse.sigmoid %1 : tensor<2x6x5x7xf32>
  return %2 : tensor<2x6x5x7xf32>
}

// Values around 1e3 (the bias): x - max is exact near the max, so the
// results (around -log(C)) keep their f32 precision.
func.func @channels_mean_1e3(%x: tensor<3x4x3x4xf32>, %w: tensor<4x21x3x3xf32>, %b: tensor<21xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x21x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x21x3x3xf32>, tensor<21xf32>) -> tensor<3x21x5x7xf32>
  %1 = fuse.log_softmax %0 {dim = 1 : i64} : tensor<3x21x5x7xf32>
  return %1 : tensor<3x21x5x7xf32>
}

func.func @spatial_mean_1e3(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %b: tensor<13xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x13x5x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>, tensor<13xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.reshape %0 : tensor<3x13x5x7xf32> -> tensor<3x13x35xf32>
  %2 = fuse.log_softmax %1 {dim = 2 : i64} : tensor<3x13x35xf32>
  %3 = fuse.reshape %2 : tensor<3x13x35xf32> -> tensor<3x13x5x7xf32>
  return %3 : tensor<3x13x5x7xf32>
}

// -inf at about half the elements (log(relu(u)), u ~ N(0, 1)) and at every
// channel of the positions where q < 0: those sets are NaN, the others
// finite with -inf elements.
func.func @ninf_channels(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %u: tensor<3x13x5x7xf32>, %q: tensor<3x1x5x7xf32>) -> tensor<3x13x5x7xf32> {
  %r = fuse.relu %u : tensor<3x13x5x7xf32>
  %l = fuse.log %r : tensor<3x13x5x7xf32>
  %rq = fuse.relu %q : tensor<3x1x5x7xf32>
  %lq = fuse.log %rq : tensor<3x1x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %l : tensor<3x13x5x7xf32>, tensor<3x13x5x7xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.add %1, %lq : tensor<3x13x5x7xf32>, tensor<3x1x5x7xf32> -> tensor<3x13x5x7xf32>
  %3 = fuse.log_softmax %2 {dim = 1 : i64} : tensor<3x13x5x7xf32>
  return %3 : tensor<3x13x5x7xf32>
}

// +inf where u < -2 (-log(relu(u + 2))): the sets holding one are NaN.
func.func @pinf_channels(%x: tensor<1x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %u: tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32> {
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %u2 = fuse.add %u, %c2 : tensor<1x6x5x7xf32>, tensor<f32> -> tensor<1x6x5x7xf32>
  %r = fuse.relu %u2 : tensor<1x6x5x7xf32>
  %l = fuse.log %r : tensor<1x6x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x3x4xf32>, tensor<4x6x3x3xf32>) -> tensor<1x6x5x7xf32>
  %1 = fuse.sub %0, %l : tensor<1x6x5x7xf32>, tensor<1x6x5x7xf32> -> tensor<1x6x5x7xf32>
  %2 = fuse.log_softmax %1 {dim = 1 : i64} : tensor<1x6x5x7xf32>
  return %2 : tensor<1x6x5x7xf32>
}

// NaN at every channel of the positions where q < 0 (log(q)).
func.func @nan_channels(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %q: tensor<1x1x5x7xf32>) -> tensor<3x13x5x7xf32> {
  %lq = fuse.log %q : tensor<1x1x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %lq : tensor<3x13x5x7xf32>, tensor<1x1x5x7xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.log_softmax %1 {dim = 1 : i64} : tensor<3x13x5x7xf32>
  return %2 : tensor<3x13x5x7xf32>
}

// The spatial sets of ninf_channels' values, -inf in every position of the
// channels where p < 0.
func.func @ninf_spatial(%x: tensor<3x4x3x4xf32>, %w: tensor<4x13x3x3xf32>, %u: tensor<3x13x5x7xf32>, %p: tensor<1x13x1x1xf32>) -> tensor<3x13x5x7xf32> {
  %r = fuse.relu %u : tensor<3x13x5x7xf32>
  %l = fuse.log %r : tensor<3x13x5x7xf32>
  %rp = fuse.relu %p : tensor<1x13x1x1xf32>
  %lp = fuse.log %rp : tensor<1x13x1x1xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x13x3x3xf32>) -> tensor<3x13x5x7xf32>
  %1 = fuse.add %0, %l : tensor<3x13x5x7xf32>, tensor<3x13x5x7xf32> -> tensor<3x13x5x7xf32>
  %2 = fuse.add %1, %lp : tensor<3x13x5x7xf32>, tensor<1x13x1x1xf32> -> tensor<3x13x5x7xf32>
  %3 = fuse.reshape %2 : tensor<3x13x5x7xf32> -> tensor<3x13x35xf32>
  %4 = fuse.log_softmax %3 {dim = 2 : i64} : tensor<3x13x35xf32>
  %5 = fuse.reshape %4 : tensor<3x13x35xf32> -> tensor<3x13x5x7xf32>
  return %5 : tensor<3x13x5x7xf32>
}

func.func @pinf_spatial(%x: tensor<1x4x3x4xf32>, %w: tensor<4x6x3x3xf32>, %u: tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32> {
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %u2 = fuse.add %u, %c2 : tensor<1x6x5x7xf32>, tensor<f32> -> tensor<1x6x5x7xf32>
  %r = fuse.relu %u2 : tensor<1x6x5x7xf32>
  %l = fuse.log %r : tensor<1x6x5x7xf32>
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x3x4xf32>, tensor<4x6x3x3xf32>) -> tensor<1x6x5x7xf32>
  %1 = fuse.sub %0, %l : tensor<1x6x5x7xf32>, tensor<1x6x5x7xf32> -> tensor<1x6x5x7xf32>
  %2 = fuse.reshape %1 : tensor<1x6x5x7xf32> -> tensor<1x6x35xf32>
  %3 = fuse.log_softmax %2 {dim = 2 : i64} : tensor<1x6x35xf32>
  %4 = fuse.reshape %3 : tensor<1x6x35xf32> -> tensor<1x6x5x7xf32>
  return %4 : tensor<1x6x5x7xf32>
}

// On graph inputs: normalisation kernels of their own.
func.func @input_last_dim(%x: tensor<1x3x5x7xf32>) -> tensor<1x3x5x7xf32> {
  %y = fuse.log_softmax %x {dim = 3 : i64} : tensor<1x3x5x7xf32>
  return %y : tensor<1x3x5x7xf32>
}

func.func @input_batch_dim(%x: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
  %y = fuse.log_softmax %x {dim = 0 : i64} : tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}

// Sets of one element: 0.
func.func @input_spatial1(%x: tensor<3x5x1xf32>) -> tensor<3x5x1xf32> {
  %y = fuse.log_softmax %x {dim = 2 : i64} : tensor<3x5x1xf32>
  return %y : tensor<3x5x1xf32>
}

func.func @input_mean_1e3(%x: tensor<3x5x7xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x5x7xf32> {
  %y = fuse.log_softmax %x {dim = 1 : i64} : tensor<3x5x7xf32>
  return %y : tensor<3x5x7xf32>
}
