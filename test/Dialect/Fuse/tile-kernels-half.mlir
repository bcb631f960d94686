// fuse-tile-kernels{precision=bf16|fp16} (fusecc --precision=bf16|fp16) on
// f32 graphs: the kernel's types are decided once (KernelTypesAttr::decide)
// and printed in its tile config: f32 storage (the graph's), bf16 / f16
// MMA operands on mma.sync m16n8k16, f32 accumulators and statistics.
// Channels are staged 16 at a time (two TF32-sized k8 steps per k16 MMA);
// @big's grid, under half a wave, takes the small-grid tile (one row, all
// 32 input channels a round; TileSmallGrid.cpp, docs/perf.md 315).
// On sm_90a the default (wgmma where the grid fills the chip) keeps these
// small kernels on mma.sync; --tile-wgmma=always takes wgmma m64nNk16 with
// half operands (here both operands re-laid out into packed half words:
// the input and its packed copy are 22% of the output, under the half
// limit of 30%; test/Reference/half-wgmma.mlir, half-wgmma-staged.mlir),
// channels per round chosen as for TF32 and doubled (a half chunk of 32
// takes the 16-byte planes of a TF32 chunk of 16: 8 channels per plane,
// `wgmmaPlanes`; @big's 4 rows of 16-position phases are one wgmma N with
// merged h taps at 16 channels, as TF32's rows as one N take 8: docs/perf.md
// 226), so the packed weights of @big hold its 32 x 64 x 9
// weights in 9216 words, two per word, and the packed input its 8 x 32 x
// 8 x 16 values (rows padded to 24) in 24576 words.
// A kernel no tensor-core tiling fits (groups of 4 -> 8 channels: no
// 16-channel tile, and too few input channels for positions on M) multiplies in
// f32 on the FMA units: its math stays bf16 (epilogue-math=auto is fast, as
// for tf32), its operand type is f32.

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=bf16}))' | FileCheck %s --check-prefix=BF16
// RUN: fusecc %s --precision=bf16 --emit=fused | FileCheck %s --check-prefix=BF16
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=BF16
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --tile-wgmma=always --emit=fused | FileCheck %s --check-prefix=WG
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=WGPACK
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=fp16}))' | FileCheck %s --check-prefix=F16
// RUN: fusecc %s --precision=fp16 --emit=fused | FileCheck %s --check-prefix=F16
// RUN: fusecc %s --precision=f16 --emit=fused | FileCheck %s --check-prefix=F16
// A forced chunk of 8 channels is rounded up to 16 for half operands.
// RUN: fusecc %s --precision=bf16 --tile-ci-chunk=8 --emit=fused | FileCheck %s --check-prefix=CHUNK8
// The emitted GPU IR: operands rounded to the half type in registers (not
// to TF32 when staged), packed in pairs, one nvvm.mma.sync m16n8k16 per
// pair of k8 steps.
// RUN: fusecc-opt %s -split-input-file --fusecc-pipeline='precision=bf16' | FileCheck %s --check-prefix=GPUBF16
// RUN: fusecc-opt %s -split-input-file --fusecc-pipeline='precision=fp16' | FileCheck %s --check-prefix=GPUF16

// BF16-LABEL: fuse.kernel "big_k0"
// BF16-SAME: ciChunk = 32, types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 1>
// WG-LABEL: fuse.kernel "big_k0"
// WG-SAME: ciChunk = 16, types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 16, wgmmaGroups = 1>
// WGPACK-LABEL: func.func @big
// WGPACK: launch_func @fusecc_kernels::@big_k0_wpack {{.*}}memref<9216xf32>)
// WGPACK: launch_func @fusecc_kernels::@big_k0_ipack {{.*}}memref<24576xf32>)
// F16-LABEL: fuse.kernel "big_k0"
// F16-SAME: types = <f16, storage = f32, operand = f16, accumulator = f32, statistics = f32>, mmaWarpsC
// CHUNK8-LABEL: fuse.kernel "big_k0"
// CHUNK8-SAME: ciChunk = 16, types = <bf16, storage = f32, operand = bf16,
// GPUBF16-LABEL: gpu.func @big_k0
// GPUBF16-NOT: nvvm.convert.float.to.tf32
// GPUBF16-NOT: nvgpu.mma.sync
// GPUBF16: arith.truncf {{.*}} : f32 to bf16
// GPUBF16: llvm.bitcast {{.*}} : vector<2xbf16> to i32
// GPUBF16: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>
// GPUBF16-NOT: nvgpu.mma.sync
// GPUF16-LABEL: gpu.func @big_k0
// GPUF16-NOT: nvvm.convert.float.to.tf32
// GPUF16: arith.truncf {{.*}} : f32 to f16
// GPUF16: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
func.func @big(%x: tensor<8x32x8x16xf32>, %w: tensor<32x64x3x3xf32>) -> tensor<8x64x16x32xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<8x32x8x16xf32>, tensor<32x64x3x3xf32>) -> tensor<8x64x16x32xf32>
  %1 = fuse.relu %0 : tensor<8x64x16x32xf32>
  return %1 : tensor<8x64x16x32xf32>
}

// -----

// Three input channels: one chunk of 16, 13 of them zeros.
// BF16-LABEL: fuse.kernel "rgb_k0"
// BF16-SAME: ciChunk = 16, types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>, mma
// F16-LABEL: fuse.kernel "rgb_k0"
// F16-SAME: ciChunk = 16, types = <f16, storage = f32, operand = f16, accumulator = f32, statistics = f32>, mma
func.func @rgb(%x: tensor<2x3x8x8xf32>, %w: tensor<3x16x4x4xf32>) -> tensor<2x16x16x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>, tensor<3x16x4x4xf32>) -> tensor<2x16x16x16xf32>
  return %0 : tensor<2x16x16x16xf32>
}

// -----

// Groups of 4 -> 8 channels fit no 16-channel MMA tile, and positions on M
// takes groups of 8 input channels or more: FMA, f32 operands.
// BF16-LABEL: fuse.kernel "groups8_k0"
// BF16-SAME: types = <bf16, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// F16-LABEL: fuse.kernel "groups8_k0"
// F16-SAME: types = <f16, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @groups8(%x: tensor<1x8x4x5xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x16x9x11xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x8x4x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x16x9x11xf32>
  return %0 : tensor<1x16x9x11xf32>
}
