// Pass options of fuse-tile-kernels: invalid values are rejected up front
// (once per function, at the function) before any kernel is tiled. The
// enumerated options (precision, wgmma: fusecc/Support/Options.h) and the
// boolean merge-h-taps are rejected by their parsers, naming the values.

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-tile-kernels{precision=fp8}))' 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: fusecc-opt: for the --precision option: 'fp8' is not a valid value (expected one of 'ieee', 'tf32', 'bf16', 'fp16', 'f16')
// PRECISION: error: {{$}}
// PRECISION-NEXT: failed to add `fuse-tile-kernels` with options `precision=fp8`
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-tile-kernels{wgmma=3}))' 2>&1 | FileCheck %s --check-prefix=WGMMA
// WGMMA: fusecc-opt: for the --wgmma option: '3' is not a valid value (expected one of 'never', 'always', 'fills-grid', 'full-wave', '0', '1', '2')

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=16}))' 2>&1 | FileCheck %s --check-prefix=THREADS16
// THREADS16: tile-kernels-options.mlir:[[@LINE+41]]:1: error: fuse-tile-kernels: max-tile-w must be >= 8 and threads in [32, 1024], got max-tile-w=128 threads=16
// THREADS16-NOT: 'fuse.kernel' op
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=2048}))' 2>&1 | FileCheck %s --check-prefix=THREADS2048
// THREADS2048: error: fuse-tile-kernels: max-tile-w must be >= 8 and threads in [32, 1024], got max-tile-w=128 threads=2048
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{max-tile-w=4}))' 2>&1 | FileCheck %s --check-prefix=TILEW
// TILEW: error: fuse-tile-kernels: max-tile-w must be >= 8 and threads in [32, 1024], got max-tile-w=4 threads=128

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{rows=3}))' 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: error: fuse-tile-kernels: rows must be 0 (auto), 1, 2, 4 or 8 (wgmma), got 3
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ci-chunk=12}))' 2>&1 | FileCheck %s --check-prefix=CICHUNK12
// CICHUNK12: error: fuse-tile-kernels: ci-chunk must be 0 (auto) or a multiple of 8 up to 64, got 12
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ci-chunk=72}))' 2>&1 | FileCheck %s --check-prefix=CICHUNK72
// CICHUNK72: error: fuse-tile-kernels: ci-chunk must be 0 (auto) or a multiple of 8 up to 64, got 72
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{tile-c=24}))' 2>&1 | FileCheck %s --check-prefix=TILEC24
// TILEC24: error: fuse-tile-kernels: tile-c must be 0 (auto) or a multiple of 16 up to 256, got 24
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{tile-c=272}))' 2>&1 | FileCheck %s --check-prefix=TILEC128
// TILEC128: error: fuse-tile-kernels: tile-c must be 0 (auto) or a multiple of 16 up to 256, got 272
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{warps-c=3}))' 2>&1 | FileCheck %s --check-prefix=WARPSC
// WARPSC: error: fuse-tile-kernels: warps-c must be 0 (auto), 1, 2 or 4, got 3
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{merge-h-taps=2}))' 2>&1 | FileCheck %s --check-prefix=MERGEH
// MERGEH: fusecc-opt: for the --merge-h-taps option: '2' is invalid value for boolean argument! Try 0 or 1
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{wgmma-split=9}))' 2>&1 | FileCheck %s --check-prefix=WGSPLIT
// WGSPLIT: error: fuse-tile-kernels: wgmma-split must be 0 (auto), 1, 2 or 4, got 9
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{cluster-c=3}))' 2>&1 | FileCheck %s --check-prefix=CLUSTERC
// CLUSTERC: error: fuse-tile-kernels: cluster-c must be 0 (auto), 1, 2, 4 or 8, got 3

// The stride and thread-grid limits of the cost model itself are tested in
// tile-kernels-invalid.mlir (stride 300) and invalid.mlir (#fuse.tile).
// threads=1024 is tile-kernels-threads-1024.mlir.

// With valid options the same graph tiles fine.
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=512}))' | FileCheck %s --check-prefix=OK
// OK: fuse.kernel "stride3_k0" {{.*}} {config = #fuse.tile<tileW = 36, tileC = 64, threadsW = 18, threadsC = 16, chanPerThread = 4, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// OK: fuse.kernel "stride100_k0" {{.*}} {config = #fuse.tile<tileW = 200, tileC = 64, threadsW = 100, threadsC = 8, chanPerThread = 8, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}

// rows / ci-chunk override the tensor-core cost model (the stride-100 kernel
// has no tensor-core config and keeps the FMA one).
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 rows=1 ci-chunk=24}))' | FileCheck %s --check-prefix=FORCED
// FORCED: fuse.kernel "stride3_k0" {{.*}} {config = #fuse.tile<tileW = 48, tileC = 64, threadsW = 24, threadsC = 16, chanPerThread = 1, ciChunk = 24, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 1>}
// FORCED: fuse.kernel "stride100_k0" {{.*}} {config = #fuse.tile<tileW = 200, tileC = 64, threadsW = 100, threadsC = 8, chanPerThread = 8, ciChunk = 8, types = <tf32, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}

func.func @stride3(%x: tensor<1x8x10xf32>, %w: tensor<8x64x3xf32>) -> tensor<1x64x30xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x8x10xf32>, tensor<8x64x3xf32>) -> tensor<1x64x30xf32>
  return %0 : tensor<1x64x30xf32>
}

func.func @stride100(%x: tensor<1x8x2xf32>, %w: tensor<8x64x1xf32>) -> tensor<1x64x101xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 100>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x8x2xf32>, tensor<8x64x1xf32>) -> tensor<1x64x101xf32>
  return %0 : tensor<1x64x101xf32>
}

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{positions-m=2}))' 2>&1 | FileCheck %s --check-prefix=POSM
// POSM: error: fuse-tile-kernels: positions-m must be -1 (never), 0 (auto) or 1, got 2
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{samples=65}))' 2>&1 | FileCheck %s --check-prefix=SAMPLES
// SAMPLES: error: fuse-tile-kernels: samples must be -1 (never), 0 (auto) or 1 to 64, got 65
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{phase-split=3}))' 2>&1 | FileCheck %s --check-prefix=PHASESPLIT
// PHASESPLIT: error: fuse-tile-kernels: phase-split must be -1 (never), 0 (auto), 2 or 4, got 3
