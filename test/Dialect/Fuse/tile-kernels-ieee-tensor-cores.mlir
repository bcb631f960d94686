// fuse-tile-kernels{ieee-tensor-cores} (fusecc --ieee-tensor-cores): ieee
// convolutions on the tensor cores with split operands (3xTF32). The
// kernel gets a tf32 tiling with math tf32x3 (FP32-level
// accuracy: each operand split into TF32 hi + lo, three MMAs per step);
// the graph stays ieee. never: FP32 FMA; always: wherever a tensor-core
// tiling fits; auto (default): where it fits, the grid has at least 132
// blocks (one H100 wave) and the convolution at least 16 input channels
// per group. On sm_90a the wgmma tiling is taken as for
// tf32 (where it fits and, by default, its grid fills an H100 once), with
// half the accumulators per thread (a round's sums are kept apart); else
// the mma.sync tiling of tf32, unchanged. Kernels no tensor-core tiling
// fits (channel groups that are not multiples of 16) keep the FMA config
// in every mode, and tf32 graphs ignore the option.

// The default is auto: split for the large-grid kernel (big), FMA for the
// small-grid ones (below_wave, small) and for few_channels (a large grid,
// but fewer than 16 input channels).
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels))' | FileCheck %s --check-prefix=AUTO
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=AUTO
// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HOPPERAUTO
// RUN: fusecc-opt %s --fusecc-pipeline | FileCheck %s --check-prefix=PIPELINE
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=never}))' | FileCheck %s --check-prefix=NEVER
// RUN: fusecc %s --ieee-tensor-cores=never --emit=fused | FileCheck %s --check-prefix=NEVER
// RUN: fusecc %s --ieee-tensor-cores=never --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=NEVER
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=ieee ieee-tensor-cores=always}))' | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc %s --precision=ieee --ieee-tensor-cores=always --emit=fused | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc %s --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=never --emit=fused | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc %s --ieee-tensor-cores=always --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HOPPER
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always wgmma=fills-grid}))' | FileCheck %s --check-prefix=HOPPER
// RUN: fusecc %s --ieee-tensor-cores=auto --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=HOPPERAUTO
// RUN: fusecc %s --precision=ieee --ieee-tensor-cores=always --chip=sm_80 --emit=fused | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=auto}))' | FileCheck %s --check-prefix=AUTO
// RUN: fusecc %s --ieee-tensor-cores=auto --emit=fused | FileCheck %s --check-prefix=AUTO
// RUN: fusecc-opt %s --fusecc-pipeline='ieee-tensor-cores=auto' | FileCheck %s --check-prefix=PIPELINE
// The tensor-core knobs apply to split kernels as to tf32 ones.
// RUN: fusecc %s --ieee-tensor-cores=always --tile-rows=2 --emit=fused | FileCheck %s --check-prefix=ROWS2
// tf32 graphs are unchanged by the option.
// RUN: fusecc %s --precision=tf32 --emit=fused | FileCheck %s --check-prefix=TF32
// RUN: fusecc %s --precision=tf32 --ieee-tensor-cores=always --emit=fused | FileCheck %s --check-prefix=TF32
// Bad values are parse errors naming the values.
// RUN: not fusecc %s --ieee-tensor-cores=yes --emit=fused 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-tile-kernels{ieee-tensor-cores=1}))' 2>&1 | FileCheck %s --check-prefix=BADPASS
// BAD: for the --ieee-tensor-cores option: 'yes' is not a valid value (expected one of 'never', 'auto', 'always')
// BADPASS: for the --ieee-tensor-cores option: '1' is not a valid value (expected one of 'never', 'auto', 'always')

// 256 blocks of the mma.sync tiling (8 samples x 8 depths x 4 blocks of 4
// rows of one H phase; one W tile, one channel tile): split in auto mode
// too, with exactly the tf32 tiling. The split kernel rounds nothing when
// staging and splits its fragments (cvt, subtract, cvt) before three MMAs.
// NEVER-LABEL: fuse.kernel "big_k0"
// NEVER-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// ALWAYS-LABEL: fuse.kernel "big_k0"
// ALWAYS-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>
// AUTO-LABEL: fuse.kernel "big_k0"
// AUTO-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>
// PIPELINE-LABEL: gpu.func @big_k0
// PIPELINE: nvvm.convert.float.to.tf32
// PIPELINE: arith.subf
// PIPELINE: nvvm.convert.float.to.tf32
// PIPELINE-COUNT-3: nvgpu.mma.sync
// PIPELINE-LABEL: gpu.func @below_wave_k0
// PIPELINE-NOT: nvgpu.mma.sync
// PIPELINE: gpu.return
// On sm_90a: wgmma, one row (2 phases x 32 positions / 2 = 32
// accumulators per row, two sets; tf32 takes 2 rows), 16 input channels
// per round.
// HOPPER-LABEL: fuse.kernel "big_k0"
// HOPPER-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>
// HOPPERAUTO-LABEL: fuse.kernel "big_k0"
// HOPPERAUTO-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>
// ROWS2-LABEL: fuse.kernel "big_k0"
// ROWS2-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, {{.*}}rows = 2>
// TF32-LABEL: fuse.kernel "big_k0"
// TF32-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>
func.func @big(%x: tensor<8x32x4x8x32xf32>, %w: tensor<32x64x4x4x4xf32>) -> tensor<8x64x8x16x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<8x32x4x8x32xf32>, tensor<32x64x4x4x4xf32>) -> tensor<8x64x8x16x64xf32>
  return %0 : tensor<8x64x8x16x64xf32>
}

// -----

// The same layer at 4 samples: 128 blocks of the mma.sync tiling, under
// one wave: FMA in auto mode. The one-row wgmma tiling has 512 blocks: on
// sm_90a, wgmma in auto mode too.
// NEVER-LABEL: fuse.kernel "below_wave_k0"
// NEVER-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// ALWAYS-LABEL: fuse.kernel "below_wave_k0"
// ALWAYS-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2
// AUTO-LABEL: fuse.kernel "below_wave_k0"
// AUTO-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// HOPPER-LABEL: fuse.kernel "below_wave_k0"
// HOPPER-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>
// HOPPERAUTO-LABEL: fuse.kernel "below_wave_k0"
// HOPPERAUTO-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>
func.func @below_wave(%x: tensor<4x32x4x8x32xf32>, %w: tensor<32x64x4x4x4xf32>) -> tensor<4x64x8x16x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<4x32x4x8x32xf32>, tensor<32x64x4x4x4xf32>) -> tensor<4x64x8x16x64xf32>
  return %0 : tensor<4x64x8x16x64xf32>
}

// -----

// big with 8 input channels: the same 256 blocks of the mma.sync tiling,
// but under auto split kernels need at least 16 input channels per group
// (with fewer, most of each 8-deep k-step is padding, three times over):
// FMA in auto mode, also on sm_90a; split only when forced.
// NEVER-LABEL: fuse.kernel "few_channels_k0"
// NEVER-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// ALWAYS-LABEL: fuse.kernel "few_channels_k0"
// ALWAYS-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, rows = 4>
// AUTO-LABEL: fuse.kernel "few_channels_k0"
// AUTO-SAME: #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// HOPPER-LABEL: fuse.kernel "few_channels_k0"
// HOPPER-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 32, wgmmaGroups = 1>
// HOPPERAUTO-LABEL: fuse.kernel "few_channels_k0"
// HOPPERAUTO-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// PIPELINE-LABEL: gpu.func @few_channels_k0
// PIPELINE-NOT: nvgpu.mma.sync
// PIPELINE: gpu.return
func.func @few_channels(%x: tensor<8x8x4x8x32xf32>, %w: tensor<8x64x4x4x4xf32>) -> tensor<8x64x8x16x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>,
         output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<8x8x4x8x32xf32>, tensor<8x64x4x4x4xf32>) -> tensor<8x64x8x16x64xf32>
  return %0 : tensor<8x64x8x16x64xf32>
}

// -----

// A small 2-D layer with a bias and relu (4 blocks): split only when forced,
// on mma.sync (its wgmma grid does not fill an H100).
// NEVER-LABEL: fuse.kernel "small_k0"
// NEVER-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// ALWAYS-LABEL: fuse.kernel "small_k0"
// ALWAYS-SAME: #fuse.tile<tileW = 16, tileC = 32, threadsW = 16, threadsC = 4, chanPerThread = 1, ciChunk = 16, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 1, rows = 4>
// AUTO-LABEL: fuse.kernel "small_k0"
// AUTO-SAME: #fuse.tile<tileW = 16, tileC = 32, threadsW = 16, threadsC = 8, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// HOPPER-LABEL: fuse.kernel "small_k0"
// HOPPER-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 1, rows = 4>
// HOPPERAUTO-LABEL: fuse.kernel "small_k0"
// HOPPERAUTO-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @small(%x: tensor<1x16x8x8xf32>, %w: tensor<16x32x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x16x16xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<1x16x8x8xf32>, tensor<16x32x3x3xf32>, tensor<32xf32>) -> tensor<1x32x16x16xf32>
  %1 = fuse.relu %0 : tensor<1x32x16x16xf32>
  return %1 : tensor<1x32x16x16xf32>
}

// -----

// Groups of 3 output channels: no mma.sync tiling, FMA in every mode.
// NEVER-LABEL: fuse.kernel "groups_k0"
// NEVER-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// ALWAYS-LABEL: fuse.kernel "groups_k0"
// ALWAYS-SAME: #fuse.tile<tileW = 18, tileC = 3, threadsW = 18, threadsC = 3, chanPerThread = 1, ciChunk = 2, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// AUTO-LABEL: fuse.kernel "groups_k0"
// AUTO-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// HOPPER-LABEL: fuse.kernel "groups_k0"
// HOPPER-SAME: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @groups(%x: tensor<1x4x2x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x5x14xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 2 : i64}
       : (tensor<1x4x2x5xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x14xf32>
  return %0 : tensor<1x6x5x14xf32>
}

// -----

// kb2_93's convolution at batch 16: rows of 130 positions (phases of 40 at
// W stride 2), 4x4 taps. Split operands stage both parts of each operand:
// 16 channels per round leave two blocks per SM, 8 leave four, so the
// wgmma tiling takes 8 (faster, and half the products the tensor cores sum
// before each IEEE add: kb2_93 rel-L2 6.2e-6 -> 2.1e-6). tf32 keeps 16.
// `big` above keeps 16 too: three blocks per SM with 16, four with 8.
// HOPPER-LABEL: fuse.kernel "wide_taps_k0"
// HOPPER-SAME: #fuse.tile<tileW = 80, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 40, wgmmaGroups = 1>
// HOPPERAUTO-LABEL: fuse.kernel "wide_taps_k0"
// HOPPERAUTO-SAME: ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 40, wgmmaGroups = 1>
// TF32-LABEL: fuse.kernel "wide_taps_k0"
// TF32-SAME: ciChunk = 16, types = <tf32, storage = f32, operand = tf32,
func.func @wide_taps(%x: tensor<16x64x64x64xf32>, %w: tensor<64x128x4x4xf32>) -> tensor<16x128x130x130xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<16x64x64x64xf32>, tensor<64x128x4x4xf32>) -> tensor<16x128x130x130xf32>
  return %0 : tensor<16x128x130x130xf32>
}
