// fuse-tile-kernels{wgmma=always} (fusecc --chip=sm_90a --tile-wgmma=always):
// tf32 kernels that fit
// run on Hopper warpgroup MMA. N = positions per phase; one warpgroup per
// 64-channel group (each taking every row and every W phase; forcing
// wgmma-split splits the rows over more; unforced, 4 rows in two warpgroups
// where merged H taps halve the staged rows), the most rows (8, 4, 2, 1) whose
// accumulators (stride_w x own rows x N / 2) stay <= 80 per thread (96 for
// one-warpgroup blocks; N itself is bounded by 80). Grouped
// convolutions keep mma.sync; wgmma=never (sm_90) never uses it. The old
// numeric spellings (wgmma=0/1/2, --tile-wgmma=-1/0/1) are still accepted.

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=always}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1 wgmma-split=2 rows=4}))' | FileCheck %s --check-prefix=SPLIT2
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' | FileCheck %s --check-prefix=SM90
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1 cluster-c=1}))' | FileCheck %s --check-prefix=CLUSTER1
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1 cluster-c=4}))' | FileCheck %s --check-prefix=CLUSTER4
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused | FileCheck %s
// By default (wgmma=fills-grid, fusecc --chip=sm_90a) only kernels whose
// wgmma grid fills an H100 once (>= 132 blocks) use it; smaller ones stay
// on mma.sync.
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=fills-grid positions-m=-1}))' | FileCheck %s --check-prefix=DEFAULT
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=2 positions-m=-1}))' | FileCheck %s --check-prefix=DEFAULT
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-positions-m=-1 --emit=fused | FileCheck %s --check-prefix=DEFAULT
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=auto --tile-positions-m=-1 --emit=fused | FileCheck %s --check-prefix=DEFAULT
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=never --emit=fused | FileCheck %s --check-prefix=SM90
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=full-wave --emit=fused | FileCheck %s --check-prefix=FULLWAVE
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=0 --emit=fused | FileCheck %s --check-prefix=SM90

// kb2_34's layer: stride 2, 64 positions per row -> N = 32 per phase, one
// warpgroup with 2 rows (2 phases x 2 rows x 16 = 64 accumulators; 4 rows
// would need 128), 16 input channels per round (a 128-thread block).
// CHECK-LABEL: fuse.kernel "conv3d_k0"
// CHECK-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// Forced: 4 rows in two warpgroups of 2 rows each (kb2_34's tuned config).
// SPLIT2-LABEL: fuse.kernel "conv3d_k0"
// SPLIT2-SAME: threadsC = 32, {{.*}}rows = 4, wgmmaN = 32, wgmmaGroups = 2>
// 128 blocks, as many as on mma.sync: wgmma by default (half a wave or
// more); mma.sync under full-wave (a wave or more only).
// DEFAULT-LABEL: fuse.kernel "conv3d_k0"
// DEFAULT-SAME: wgmmaN = 32
// FULLWAVE-LABEL: fuse.kernel "conv3d_k0"
// FULLWAVE-NOT: wgmmaN
// FULLWAVE-SAME: mmaWarpsC
// SM90-LABEL: fuse.kernel "conv3d_k0"
// SM90-SAME: mmaWarpsC
// SM90-NOT: wgmmaN
func.func @conv3d(%x: tensor<2x32x4x8x32xf32>, %w: tensor<32x64x4x4x4xf32>) -> tensor<2x64x8x16x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<2x32x4x8x32xf32>, tensor<32x64x4x4x4xf32>) -> tensor<2x64x8x16x64xf32>
  return %0 : tensor<2x64x8x16x64xf32>
}

// -----

// A channel softmax over 128 channels: two channel groups = two
// warpgroups; 65 positions in a phase -> N = 72 (one tile per row), one row
// (2 phases x 1 row x 36 accumulators; 2 rows would need 144). A block of
// one row is split over a 2-block cluster instead: 64 channels and two rows
// per block, one warpgroup per row, all H taps per round (the CLUSTER1
// checks: cluster-c=1 turns it off).
// CHECK-LABEL: fuse.kernel "softmax_c_k0"
// CHECK-SAME: #fuse.tile<tileW = 144, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 72, wgmmaGroups = 2, clusterC = 2>
// CLUSTER1-LABEL: fuse.kernel "softmax_c_k0"
// CLUSTER1-SAME: #fuse.tile<tileW = 144, tileC = 128, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 72, wgmmaGroups = 2>
// Four blocks of 64 channels need 256: no wgmma config with cluster-c=4
// (mma.sync instead).
// CLUSTER4-LABEL: fuse.kernel "softmax_c_k0"
// CLUSTER4-SAME: mmaWarpsC
// Forced 4 rows in 2 row groups: 2 phases x 2 rows x 36 = 144 accumulators
// per thread do not fit: no wgmma config.
// DEFAULT-LABEL: fuse.kernel "softmax_c_k0"
// DEFAULT-NOT: wgmmaN
// DEFAULT-SAME: mmaWarpsC
// SPLIT2-LABEL: fuse.kernel "softmax_c_k0"
// SPLIT2-NOT: wgmmaN
func.func @softmax_c(%x: tensor<1x64x8x64xf32>, %w: tensor<64x128x4x4xf32>) -> tensor<1x128x17x129xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x8x64xf32>, tensor<64x128x4x4xf32>) -> tensor<1x128x17x129xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x128x17x129xf32>
  return %1 : tensor<1x128x17x129xf32>
}

// -----

// Grouped convolutions keep the mma.sync path.
// DEFAULT-LABEL: fuse.kernel "grouped_k0"
// DEFAULT-SAME: mmaWarpsC
// CHECK-LABEL: fuse.kernel "grouped_k0"
// CHECK-NOT: wgmmaN
// CHECK-SAME: mmaWarpsC
func.func @grouped(%x: tensor<1x32x8x8xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<1x32x17x17xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64}
       : (tensor<1x32x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x17x17xf32>
  return %0 : tensor<1x32x17x17xf32>
}

// -----

// conv3d's layer with twice the depth and height: 512 blocks, wgmma by
// default too.
// CHECK-LABEL: fuse.kernel "conv3d_big_k0"
// CHECK-SAME: rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// DEFAULT-LABEL: fuse.kernel "conv3d_big_k0"
// DEFAULT-SAME: rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// SPLIT2-LABEL: fuse.kernel "conv3d_big_k0"
// SPLIT2-SAME: rows = 4, wgmmaN = 32, wgmmaGroups = 2>
// SM90-LABEL: fuse.kernel "conv3d_big_k0"
// SM90-SAME: mmaWarpsC
func.func @conv3d_big(%x: tensor<2x32x8x16x32xf32>, %w: tensor<32x64x4x4x4xf32>) -> tensor<2x64x16x32x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<2x32x8x16x32xf32>, tensor<32x64x4x4x4xf32>) -> tensor<2x64x16x32x64xf32>
  return %0 : tensor<2x64x16x32x64xf32>
}

// -----

// W stride 1: a warpgroup's two rows as one wgmma N (row 1 at the staged
// input span, 96, after row 0: N = 96 + 88 = 184, 92 accumulators), where
// one row of the longest tile would be the budget's only fit. Rows as one
// N take the input chunk that lets the most blocks share an SM: 8 (4
// blocks of 53 KB; 16 would leave 3). 64 output channels (with 128, see
// rows_one_n_wide).
// CHECK-LABEL: fuse.kernel "rows_one_n_k0"
// CHECK-SAME: #fuse.tile<tileW = 88, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 88, wgmmaGroups = 1>
func.func @rows_one_n(%x: tensor<4x64x16x256xf32>, %w: tensor<64x64x3x5xf32>) -> tensor<4x64x18x260xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<4x64x16x256xf32>, tensor<64x64x3x5xf32>) -> tensor<4x64x18x260xf32>
  return %0 : tensor<4x64x18x260xf32>
}

// -----

// Rows of 98 positions: one tile of 104 would cover a row, but two rows of
// it are no N <= 192 (112 + 104); two rows of 56 are (64 + 56 = 120), which
// also lets the round stage all H taps at 8 channels with 4 blocks per SM.
// CHECK-LABEL: fuse.kernel "rows_one_n_short_k0"
// CHECK-SAME: #fuse.tile<tileW = 56, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 56, wgmmaGroups = 1>
func.func @rows_one_n_short(%x: tensor<2x48x16x16x96xf32>, %w: tensor<48x24x3x3x3xf32>) -> tensor<2x24x18x18x98xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<2x48x16x16x96xf32>, tensor<48x24x3x3x3xf32>) -> tensor<2x24x18x18x98xf32>
  return %0 : tensor<2x24x18x18x98xf32>
}

// -----

// Rows of 66 positions, 48 channels: two rows of 72 as one N (80 + 72 =
// 152). Merged H taps at 8 channels would need about 64 + 152 / 2
// registers per thread (`kernelRegisterEstimate`): three blocks per SM
// where shared memory admits four, for 4 staged rows instead of 6. The
// round takes 16 channels per tap instead (kb1_61: 1.90 against 2.30 ms).
// CHECK-LABEL: fuse.kernel "merged_costs_a_block_k0"
// CHECK-SAME: #fuse.tile<tileW = 72, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 72, wgmmaGroups = 1>
func.func @merged_costs_a_block(%x: tensor<1x48x4x8x64xf32>, %w: tensor<48x48x3x3x3xf32>) -> tensor<1x48x6x10x66xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x48x4x8x64xf32>, tensor<48x48x3x3x3xf32>) -> tensor<1x48x6x10x66xf32>
  return %0 : tensor<1x48x6x10x66xf32>
}

// -----

// Four rows of 40 as one N (3 x 48 + 40 = 184): merged H taps cost a block
// too (64 + 92 registers), but stage 6 input rows instead of 12, which pays
// (kb2_61: 1.41 against 1.80 ms for 16 channels per tap).
// CHECK-LABEL: fuse.kernel "merged_halves_rows_k0"
// CHECK-SAME: #fuse.tile<tileW = 40, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 40, wgmmaGroups = 1>
func.func @merged_halves_rows(%x: tensor<1x64x4x8x32xf32>, %w: tensor<64x128x3x3x3xf32>) -> tensor<1x128x6x10x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x64x4x8x32xf32>, tensor<64x128x3x3x3xf32>) -> tensor<1x128x6x10x34xf32>
  return %0 : tensor<1x128x6x10x34xf32>
}

// -----

// Stride and dilation 2 (every odd row takes all three H taps): one
// warpgroup's 80 accumulators hold 2 rows of 40 positions at W stride 2, so
// 4 rows go to two warpgroups with merged H taps, 6 staged input rows for
// 12 row-taps (kb1_77: 0.54 against 0.62 ms for one warpgroup of 2 rows).
// CHECK-LABEL: fuse.kernel "split_merged_k0"
// CHECK-SAME: #fuse.tile<tileW = 80, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 40, wgmmaGroups = 2>
func.func @split_merged(%x: tensor<1x32x4x8x32xf32>, %w: tensor<32x64x3x3x3xf32>) -> tensor<1x64x9x17x65xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>}
       : (tensor<1x32x4x8x32xf32>, tensor<32x64x3x3x3xf32>) -> tensor<1x64x9x17x65xf32>
  return %0 : tensor<1x64x9x17x65xf32>
}

// -----

// The same with 32 output channels (half of the wgmma M): one warpgroup of
// 2 rows, which was faster on all three such layers measured.
// CHECK-LABEL: fuse.kernel "split_merged_half_channels_k0"
// CHECK-SAME: #fuse.tile<tileW = 80, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 40, wgmmaGroups = 1>
func.func @split_merged_half_channels(%x: tensor<1x32x4x8x32xf32>, %w: tensor<32x32x3x3x3xf32>) -> tensor<1x32x9x17x65xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>}
       : (tensor<1x32x4x8x32xf32>, tensor<32x32x3x3x3xf32>) -> tensor<1x32x9x17x65xf32>
  return %0 : tensor<1x32x9x17x65xf32>
}

// -----

// Stride 2 without dilation: 4 rows merge into 5 staged rows for 8
// row-taps, not half: one warpgroup of 2 rows.
// CHECK-LABEL: fuse.kernel "split_not_halving_k0"
// CHECK-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 32, wgmmaGroups = 1>
func.func @split_not_halving(%x: tensor<1x32x4x8x32xf32>, %w: tensor<32x64x3x3x3xf32>) -> tensor<1x64x7x15x63xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x32x4x8x32xf32>, tensor<32x64x3x3x3xf32>) -> tensor<1x64x7x15x63xf32>
  return %0 : tensor<1x64x7x15x63xf32>
}

// -----

// Rows of 95 positions at W stride 2: phases of 48, 48 accumulators a row.
// A one-warpgroup block holds 96 (ptxas keeps them in 128 registers): two
// rows, where the default budget of 80 allowed one (kb2_100: 3.34 against
// 3.70 ms).
// CHECK-LABEL: fuse.kernel "one_group_budget_k0"
// CHECK-SAME: #fuse.tile<tileW = 96, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 48, wgmmaGroups = 1>
func.func @one_group_budget(%x: tensor<1x32x4x8x48xf32>, %w: tensor<32x64x3x3x3xf32>) -> tensor<1x64x7x15x95xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x32x4x8x48xf32>, tensor<32x64x3x3x3xf32>) -> tensor<1x64x7x15x95xf32>
  return %0 : tensor<1x64x7x15x95xf32>
}

// -----

// Rows of 260 (kb1_69's, 128 output channels): two rows as one N of 88 + 88
// at 8 channels a round, in one block of 128 channels: two warpgroups share
// each staged input row (kb1_69: 1.77 against 1.98 ms for 64 channels).
// CHECK-LABEL: fuse.kernel "rows_one_n_wide_k0"
// CHECK-SAME: #fuse.tile<tileW = 88, tileC = 128, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 88, wgmmaGroups = 2>
func.func @rows_one_n_wide(%x: tensor<1x64x8x256xf32>, %w: tensor<64x128x3x5xf32>) -> tensor<1x128x10x260xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x8x256xf32>, tensor<64x128x3x5xf32>) -> tensor<1x128x10x260xf32>
  return %0 : tensor<1x128x10x260xf32>
}

// -----

// 128 channels with merged H taps: a block of 128 channels would be alone
// on its SM (registers), so the block keeps 64 (a 3-D layer of this kind
// was 5% slower with 128).
// CHECK-LABEL: fuse.kernel "rows_one_n_merged_k0"
// CHECK-SAME: #fuse.tile<tileW = 72, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 72, wgmmaGroups = 1>
func.func @rows_one_n_merged(%x: tensor<1x32x8x64xf32>, %w: tensor<32x128x3x3xf32>, %b: tensor<128xf32>) -> tensor<1x128x10x66xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x32x8x64xf32>, tensor<32x128x3x3xf32>, tensor<128xf32>) -> tensor<1x128x10x66xf32>
  return %0 : tensor<1x128x10x66xf32>
}

// -----

// A DCGAN generator's RGB layer: 3 output channels fill 3 of wgmma's 64
// (21 times the multiply-adds), so by default it runs on mma.sync (16
// channels, `fewChannelsForWgmma`; docs/perf.md 156: 59.5 us on wgmma at
// batch 64); wgmma=always still takes wgmma. (DEFAULT runs with positions
// on M off: tile-kernels-few-channels.mlir checks that default.)
// CHECK-LABEL: fuse.kernel "rgb_layer_k0"
// CHECK-SAME: tileC = 64, {{.*}}wgmmaN = 32, wgmmaGroups = 1>
// DEFAULT-LABEL: fuse.kernel "rgb_layer_k0"
// DEFAULT-SAME: #fuse.tile<tileW = 64, tileC = 16, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 1, mmaTilesW = 2, rows = 4>
func.func @rgb_layer(%x: tensor<64x64x32x32xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<64x64x32x32xf32>, tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32>
  %1 = fuse.tanh %0 : tensor<64x3x64x64xf32>
  return %1 : tensor<64x3x64x64xf32>
}
