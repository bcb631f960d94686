// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(fuse-attach-target{chip=sm_90a device=h200},func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=full-wave}))' | FileCheck %s --check-prefix=WAVE
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(fuse-attach-target{chip=sm_90a device=h200},func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=fills-grid}))' | FileCheck %s --check-prefix=FILLS
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(fuse-attach-target{chip=sm_90 device=h200},func.func(fuse-form-kernels,fuse-tile-kernels))' | FileCheck %s --check-prefix=H200
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(fuse-attach-target{chip=sm_80 device=a100},func.func(fuse-form-kernels,fuse-tile-kernels))' | FileCheck %s --check-prefix=A100

// fuse-tile-kernels reads the chip's limits from the module's #fuse.target
// (fusecc::TargetInfo): the shared memory per block and the SM count.
// (tile-kernels-target-invalid.mlir: limits named with their target.)

// wgmma under full-wave only for a grid of at least one block per SM of
// the target (numSMs: 132): its config here (2 rows, N = 64, 2 blocks along
// W) has one block per output row. The default (fills-grid) also takes it
// for half a wave or more where mma.sync's grid is no larger (130 blocks
// on wgmma, 65 x 2 on mma.sync here).
// FILLS-LABEL: func.func @rows_130
// FILLS: config = #fuse.tile<
// FILLS-SAME: wgmmaN = 64
// FILLS-LABEL: func.func @rows_132
// FILLS: config = #fuse.tile<
// FILLS-SAME: wgmmaN = 64
// WAVE-LABEL: func.func @rows_130
// WAVE: config = #fuse.tile<
// WAVE-SAME: mmaTilesC = 1
// WAVE-NOT: wgmmaN
// WAVE-LABEL: func.func @rows_132
// WAVE: config = #fuse.tile<
// WAVE-SAME: wgmmaN = 64
func.func @rows_130(%x: tensor<1x64x130x128xf32>, %w: tensor<64x64x1x1xf32>) -> tensor<1x64x130x128xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x130x128xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x130x128xf32>
  return %0 : tensor<1x64x130x128xf32>
}
func.func @rows_132(%x: tensor<1x64x132x128xf32>, %w: tensor<64x64x1x1xf32>) -> tensor<1x64x132x128xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x132x128xf32>, tensor<64x64x1x1xf32>) -> tensor<1x64x132x128xf32>
  return %0 : tensor<1x64x132x128xf32>
}

// -----

// A smaller shared memory changes the tile: 64 W taps at stride 32 and 48
// output channels stage 48 x 16 x 64 weights (192 KiB) per chunk of 16
// input channels. That fits the H200's 227 KiB per block, not the A100's
// 163 KiB, where the FMA tiling takes chunks of 8.
// H200-LABEL: func.func @long_kernel_48ch
// H200: config = #fuse.tile<{{.*}}tileC = 48, {{.*}}ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// A100-LABEL: func.func @long_kernel_48ch
// A100: config = #fuse.tile<{{.*}}tileC = 48, {{.*}}ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @long_kernel_48ch(%x: tensor<1x48x8xf32>, %w: tensor<48x48x64xf32>) -> tensor<1x48x256xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x48x8xf32>, tensor<48x48x64xf32>) -> tensor<1x48x256xf32>
  return %0 : tensor<1x48x256xf32>
}
