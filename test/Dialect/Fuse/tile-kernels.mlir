// The ieee RUN lines test the FP32 FMA cost model: pinned to FMA, as the
// default (auto) puts large-grid ieee kernels on split-operand tensor cores.
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=never}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' | FileCheck %s --check-prefix=TF32
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{max-tile-w=32 threads=128 ieee-tensor-cores=never}))' | FileCheck %s --check-prefix=SMALL

// The cost model: threadsW = 16 rounded up to a multiple of the W stride;
// a channel sub-block of min(Cout, 64) channels (a divisor of the channels
// per group when grouped) over threadsC = threads / threadsW lanes; tileC is
// all channels (rounded up to the sub-block) when a channel reduction is
// fused; tileW covers the whole last dim when a last-dim reduction is fused,
// else the last dim split in even tiles of at most max-tile-w (64 when
// tileC > 64); ciChunk = min(Cin / groups, 16).

// kb2_49: channel softmax over 64 channels, W = 64.
// CHECK-LABEL: func.func @kb2_49
// CHECK: fuse.kernel "kb2_49_k0"
// CHECK-SAME: {config = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// TF32-LABEL: func.func @kb2_49
// With tf32 the convolution runs on tensor cores: 2 x 2 warps per W phase
// (2 phases), each 2 x 2 mma tiles of 16 channels x 8 positions; 4 output
// rows of one H phase share a block; with 4 rows all 32 input channels are
// staged per round.
// TF32: {config = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>}
// SMALL-LABEL: func.func @kb2_49
// SMALL: {config = #fuse.tile<tileW = 32, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @kb2_49(%x: tensor<16x32x16x32x32xf32>, %w: tensor<32x64x3x3x3xf32>,
                  %b: tensor<64xf32>) -> tensor<16x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<16x64x32x64x64xf32>
  %2 = fuse.sigmoid %1 : tensor<16x64x32x64x64xf32>
  return %2 : tensor<16x64x32x64x64xf32>
}

// -----

// Channel softmax over 100 channels: tileC = all channels rounded up to the
// 64-channel sub-block; tileC > 64 caps tileW at 64.
// CHECK-LABEL: func.func @channel_softmax_100
// CHECK: {config = #fuse.tile<tileW = 16, tileC = 128, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// TF32-LABEL: func.func @channel_softmax_100
// tf32: the 4 input channels are staged as one chunk of 8 (the mma k).
// Only 4 input channels in a chunk of 8 and 3 H taps at stride 1: the
// taps are staged together (mergeHTaps).
// TF32: {config = #fuse.tile<tileW = 8, tileC = 128, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 4, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 1, rows = 4, mergeHTaps = 1>}
// SMALL-LABEL: func.func @channel_softmax_100
// SMALL: {config = #fuse.tile<tileW = 16, tileC = 128, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @channel_softmax_100(%x: tensor<2x4x5x5xf32>, %w: tensor<4x100x3x3xf32>) -> tensor<2x100x7x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x4x5x5xf32>, tensor<4x100x3x3xf32>) -> tensor<2x100x7x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x100x7x7xf32>
  return %1 : tensor<2x100x7x7xf32>
}

// -----

// kb2_91: channel softmax over 128 channels, W = 129: tileC = 128, and
// W is split into 3 tiles of 43 -> 3 positions per thread.
// CHECK-LABEL: func.func @kb2_91
// CHECK: {config = #fuse.tile<tileW = 48, tileC = 128, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @kb2_91(%x: tensor<128x64x64x64xf32>, %w: tensor<64x128x4x4xf32>,
                  %cb: tensor<128xf32>, %b: tensor<128x1x1xf32>) -> tensor<128x128x129x129xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<128x64x64x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>)
       -> tensor<128x128x129x129xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<128x128x129x129xf32>
  %2 = fuse.add %1, %b : tensor<128x128x129x129xf32>, tensor<128x1x1xf32>
       -> tensor<128x128x129x129xf32>
  return %2 : tensor<128x128x129x129xf32>
}

// -----

// Last-dim layer_norm over W = 101: the tile covers the whole row (7
// positions per thread x 16 threads = 112 >= 101), even past max-tile-w.
// CHECK-LABEL: func.func @layer_norm_last_dim
// CHECK: {config = #fuse.tile<tileW = 112, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// TF32-LABEL: func.func @layer_norm_last_dim
// tf32: the 4 input channels are staged as one chunk of 8 (the mma k).
// Two 16-channel tiles per warp would leave one row per block (2 x 7
// position tiles); four channel warps of one tile each fit 2 rows, which
// share every staged weight chunk.
// Only 4 input channels in a chunk of 8 and 3 H taps at stride 1: the
// taps are staged together (mergeHTaps).
// TF32: {config = #fuse.tile<tileW = 112, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 4, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 7, rows = 2, mergeHTaps = 1>}
// SMALL-LABEL: func.func @layer_norm_last_dim
// SMALL: {config = #fuse.tile<tileW = 112, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @layer_norm_last_dim(%x: tensor<2x4x5x50xf32>, %w: tensor<4x64x3x3xf32>,
                               %g: tensor<101xf32>) -> tensor<2x64x7x101xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x4x5x50xf32>, tensor<4x64x3x3xf32>) -> tensor<2x64x7x101xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<101xf32>) : tensor<2x64x7x101xf32>
  return %1 : tensor<2x64x7x101xf32>
}

// -----

// kb2_34: layer_norm over W = 64.
// CHECK-LABEL: func.func @kb2_34
// CHECK: {config = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @kb2_34(%x: tensor<32x32x16x32x32xf32>, %w: tensor<32x64x4x4x4xf32>,
                  %b: tensor<64xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>)
    -> tensor<32x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<32x32x16x32x32xf32>, tensor<32x64x4x4x4xf32>, tensor<64xf32>)
       -> tensor<32x64x32x64x64xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<64xf32>) bias(%beta : tensor<64xf32>)
       : tensor<32x64x32x64x64xf32>
  %2 = fuse.gelu %1 : tensor<32x64x32x64x64xf32>
  return %2 : tensor<32x64x32x64x64xf32>
}

// -----

// Last-dim softmax also needs the whole row in one block.
// CHECK-LABEL: func.func @softmax_last_dim
// CHECK: {config = #fuse.tile<tileW = 208, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 2, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @softmax_last_dim(%x: tensor<1x2x100xf32>, %w: tensor<2x8x2xf32>) -> tensor<1x8x200xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x2x100xf32>, tensor<2x8x2xf32>) -> tensor<1x8x200xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<1x8x200xf32>
  return %1 : tensor<1x8x200xf32>
}

// -----

// Stride 3 along W: threadsW = 18 (a multiple of 3); 18 x 14 threads are not
// whole warps, so threadsC is rounded up to 16 (288 threads).
// CHECK-LABEL: func.func @stride3
// CHECK: {config = #fuse.tile<tileW = 36, tileC = 64, threadsW = 18, threadsC = 16, chanPerThread = 4, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// SMALL-LABEL: func.func @stride3
// SMALL: {config = #fuse.tile<tileW = 36, tileC = 64, threadsW = 18, threadsC = 16, chanPerThread = 4, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @stride3(%x: tensor<1x8x10xf32>, %w: tensor<8x64x3xf32>) -> tensor<1x64x30xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x8x10xf32>, tensor<8x64x3xf32>) -> tensor<1x64x30xf32>
  return %0 : tensor<1x64x30xf32>
}

// -----

// Grouped (2 groups of 3 output channels) with a fused channel softmax: a
// grouped sub-block cannot be padded with channels, and 16 x 3 threads are
// not whole warps for the softmax's shuffles, so threadsW is 32 (a multiple
// of the stride and of 32) and threadsC 3.
// CHECK-LABEL: func.func @grouped_reduction_warps
// CHECK: {config = #fuse.tile<tileW = 32, tileC = 6, threadsW = 32, threadsC = 3, chanPerThread = 1, ciChunk = 2, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// TF32-LABEL: func.func @grouped_reduction_warps
// TF32: {config = #fuse.tile<tileW = 32, tileC = 6, threadsW = 32, threadsC = 3, chanPerThread = 1, ciChunk = 2, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// SMALL-LABEL: func.func @grouped_reduction_warps
// SMALL: {config = #fuse.tile<tileW = 32, tileC = 6, threadsW = 32, threadsC = 3, chanPerThread = 1, ciChunk = 2, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @grouped_reduction_warps(%x: tensor<1x4x5xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x6x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x4x5xf32>, tensor<4x3x3xf32>) -> tensor<1x6x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x6x7xf32>
  return %1 : tensor<1x6x7xf32>
}

// -----

// Stride 5 along the last dim only (3-D conv): threadsW = 20; 20 x 12
// threads are not whole warps, so threadsC is rounded up to 16 (320
// threads, more than the 256 asked for); with 128 threads, 20 x 6 -> 20 x 8.
// CHECK-LABEL: func.func @stride5_w
// CHECK: {config = #fuse.tile<tileW = 20, tileC = 16, threadsW = 20, threadsC = 8, chanPerThread = 2, ciChunk = 3, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// SMALL-LABEL: func.func @stride5_w
// SMALL: {config = #fuse.tile<tileW = 20, tileC = 16, threadsW = 20, threadsC = 8, chanPerThread = 2, ciChunk = 3, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @stride5_w(%x: tensor<1x3x2x2x3xf32>, %w: tensor<3x16x1x1x5xf32>) -> tensor<1x16x2x2x15xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 5>, padding = array<i64: 0, 0, 0>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<1x3x2x2x3xf32>, tensor<3x16x1x1x5xf32>) -> tensor<1x16x2x2x15xf32>
  return %0 : tensor<1x16x2x2x15xf32>
}

// -----

// Grouped convolution (2 groups of 8 output channels): the channel
// sub-block stays inside one group; ciChunk is the 4 input channels of a
// group.
// CHECK-LABEL: func.func @grouped
// CHECK: {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// Groups of 8 channels do not fill a 16-channel mma tile: tf32 falls back to
// the FMA main loop (no mma parameters).
// TF32-LABEL: func.func @grouped
// TF32: {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @grouped(%x: tensor<1x8x10xf32>, %w: tensor<8x8x3xf32>) -> tensor<1x16x12xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x8x10xf32>, tensor<8x8x3xf32>) -> tensor<1x16x12xf32>
  return %0 : tensor<1x16x12xf32>
}

// -----

// Grouped convolution with a channel softmax: the tile still holds all
// channels (of both groups).
// CHECK-LABEL: func.func @grouped_softmax
// CHECK: {config = #fuse.tile<tileW = 16, tileC = 16, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @grouped_softmax(%x: tensor<1x8x10xf32>, %w: tensor<8x8x3xf32>) -> tensor<1x16x12xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x8x10xf32>, tensor<8x8x3xf32>) -> tensor<1x16x12xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x16x12xf32>
  return %1 : tensor<1x16x12xf32>
}

// -----

// 1-D convolution with a long output row (W = 400): four tiles of 100
// positions, 7 per thread.
// CHECK-LABEL: func.func @conv1d_long
// CHECK: {config = #fuse.tile<tileW = 112, tileC = 16, threadsW = 16, threadsC = 8, chanPerThread = 2, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// TF32-LABEL: func.func @conv1d_long
// TF32: {config = #fuse.tile<tileW = 80, tileC = 16, threadsW = 16, threadsC = 4, chanPerThread = 1, ciChunk = 32, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 5>}
// SMALL-LABEL: func.func @conv1d_long
// SMALL: {config = #fuse.tile<tileW = 32, tileC = 16, threadsW = 16, threadsC = 8, chanPerThread = 2, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @conv1d_long(%x: tensor<3x32x200xf32>, %w: tensor<32x16x4xf32>) -> tensor<3x16x400xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 1>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<3x32x200xf32>, tensor<32x16x4xf32>) -> tensor<3x16x400xf32>
  %1 = fuse.relu %0 : tensor<3x16x400xf32>
  return %1 : tensor<3x16x400xf32>
}

// -----

// Tiny 1-D conv: 3 output channels, 1 output position: rows of one
// position take one thread along W, the channel threads a whole warp.
// CHECK-LABEL: func.func @conv1d_tiny
// CHECK: {config = #fuse.tile<tileW = 1, tileC = 32, threadsW = 1, threadsC = 32, chanPerThread = 1, ciChunk = 1, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @conv1d_tiny(%x: tensor<1x1x1xf32>, %w: tensor<1x3x1xf32>) -> tensor<1x3x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

// Every kernel of a function gets its own config; ops outside kernels are
// left alone.
// CHECK-LABEL: func.func @two_kernels
// CHECK: fuse.kernel "two_kernels_k0" {{.*}} {config = #fuse.tile<tileW = 16, tileC = 8,
// CHECK: fuse.kernel "two_kernels_k1" {{.*}} {config = #fuse.tile<tileW = 16, tileC = 2,
func.func @two_kernels(%x: tensor<1x4x5xf32>, %w1: tensor<4x8x3xf32>,
                       %w2: tensor<8x2x2xf32>) -> tensor<1x2x8xf32> {
  %0 = fuse.conv_transpose %x, %w1 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %2 = fuse.conv_transpose %0, %w2 {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x8x7xf32>, tensor<8x2x2xf32>) -> tensor<1x2x8xf32>
  return %2 : tensor<1x2x8xf32>
}

// -----

// kb2_50's convolution: 3 input channels fill 3 of a round's 8 k-lanes, so
// a phase's H taps are staged together (mergeHTaps = 1)...
// TF32-LABEL: func.func @sparse_rounds
// TF32: ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, {{.*}}, mergeHTaps = 1>
func.func @sparse_rounds(%x: tensor<2x3x4x8x8xf32>, %w: tensor<3x16x3x3x3xf32>) -> tensor<2x16x7x15x15xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<2x3x4x8x8xf32>, tensor<3x16x3x3x3xf32>) -> tensor<2x16x7x15x15xf32>
  return %0 : tensor<2x16x7x15x15xf32>
}

// -----

// ... but not where each H phase has one tap (2 x 2 kernel, stride 2).
// TF32-LABEL: func.func @one_tap_per_phase
// TF32-NOT: mergeHTaps
// TF32: return
func.func @one_tap_per_phase(%x: tensor<2x3x8x8xf32>, %w: tensor<3x16x2x2xf32>) -> tensor<2x16x16x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x3x8x8xf32>, tensor<3x16x2x2xf32>) -> tensor<2x16x16x16xf32>
  return %0 : tensor<2x16x16x16xf32>
}
