// With precision=tf32, fuse-tile-kernels probes the tensor-core config
// silently: when it does not fit, the pass falls back to the FMA config
// without printing anything (this used to print a spurious "error: ... tile
// needs N bytes of shared memory" while still exiting 0).
//
// @fallback: 1 input channel, 16 output channels, 512 taps. The tensor-core
// config (ciChunk 8 x 512 taps of weights) exceeds the shared memory of a
// block, so the FMA config (ciChunk = 1, no mma parameters) is chosen.

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' 2>%t.err | FileCheck %s
// RUN: count 0 < %t.err
// RUN: fusecc %s --precision=tf32 --emit=fused 2>%t.cli.err | FileCheck %s
// RUN: count 0 < %t.cli.err

// Forcing ci-chunk=16 on the 256-tap graph (which fits with the automatic
// ciChunk of 8, see tile-kernels.mlir) makes the probe fail the same way.
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 ci-chunk=16}))' 2>%t.forced.err | FileCheck %s --check-prefix=FORCED
// RUN: count 0 < %t.forced.err
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 max-tile-w=256}))' | FileCheck %s --check-prefix=MAXW

// CHECK: fuse.kernel "fallback_k0" {{.*}}{config = #fuse.tile<tileW = 112, tileC = 16, threadsW = 16, threadsC = 8, chanPerThread = 2, ciChunk = 1, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// FORCED: fuse.kernel "fallback_k0" {{.*}}{config = #fuse.tile<{{.*}}ciChunk = 1, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @fallback(%x: tensor<1x1x8xf32>, %w: tensor<1x16x512xf32>) -> tensor<1x16x519xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x8xf32>, tensor<1x16x512xf32>) -> tensor<1x16x519xf32>
  return %0 : tensor<1x16x519xf32>
}

// -----

// CHECK: fuse.kernel "fits_k0" {{.*}}{config = #fuse.tile<{{.*}}ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = {{.*}}>}
// FORCED: fuse.kernel "fits_k0" {{.*}}{config = #fuse.tile<{{.*}}ciChunk = 1, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
func.func @fits(%x: tensor<1x1x8xf32>, %w: tensor<1x16x256xf32>) -> tensor<1x16x263xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x8xf32>, tensor<1x16x256xf32>) -> tensor<1x16x263xf32>
  return %0 : tensor<1x16x263xf32>
}

// -----

// @narrower (docs/perf.md 163, rand37_61): 150 -> 150 channels, 64 taps at
// stride 32. The cost model's 64-channel tensor-core tile stages more
// weights than a block's shared memory holds; a narrower tile fits, and
// is chosen instead of the FMA config (which ran 30x slower on the H200).
// At stride 32 the default tile has 8 positions per phase; a block of one
// row takes 64 (tileW 2048), whose 32-channel tile outgrows shared memory
// too, so 16 channels (rand37_61: 5.06 -> 1.24 ms, docs/perf.md 169). With
// max-tile-w given, that size: 8 positions, 32 channels.
// CHECK: fuse.kernel "narrower_k0" {{.*}}{config = #fuse.tile<tileW = 2048, tileC = 16, {{.*}}operand = tf32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 8>}
// FORCED: fuse.kernel "narrower_k0" {{.*}}{config = #fuse.tile<tileW = 2048, tileC = 16, {{.*}}ciChunk = 16, {{.*}}operand = tf32, {{.*}}mmaWarpsC = {{.*}}>}
// MAXW: fuse.kernel "narrower_k0" {{.*}}{config = #fuse.tile<tileW = 256, tileC = 32, {{.*}}operand = tf32, {{.*}}mmaTilesC = 2, mmaTilesW = 1>}
func.func @narrower(%x: tensor<1x150x256xf32>, %w: tensor<150x150x64xf32>) -> tensor<1x150x8192xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 32>, padding = array<i64: 16>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x150x256xf32>, tensor<150x150x64xf32>) -> tensor<1x150x8192xf32>
  return %0 : tensor<1x150x8192xf32>
}
