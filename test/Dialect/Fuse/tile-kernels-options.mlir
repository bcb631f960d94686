// Pass options of fuse-tile-kernels that make the pass fail.

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-tile-kernels{precision=fp16}))' 2>&1 | FileCheck %s --check-prefix=PRECISION
// PRECISION: error: fuse-tile-kernels: precision must be ieee or tf32, got 'fp16'

// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=16}))' 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: 'fuse.kernel' op stride 3 along the last dim needs more than 16 threads per block

// With 4096 threads per block, the FMA config of the stride-3 kernel has
// 18 x 64 threads and the stride-100 kernel 100 x 40, more than a block may
// have: the #fuse.tile verifier rejects them (each function fails).
// RUN: not fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=4096}))' 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK: error: 'fuse.kernel' op threadsW * threadsC = 1152 exceeds 1024 threads per block
// BLOCK: error: 'fuse.kernel' op threadsW * threadsC = 4000 exceeds 1024 threads per block

// With valid options the same graph tiles fine.
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=512}))' | FileCheck %s --check-prefix=OK
// OK: fuse.kernel "stride3_k0" {{.*}} {config = #fuse.tile<tileW = 36, tileC = 64, threadsW = 18, threadsC = 32, chanPerThread = 2, ciChunk = 8, precision = "ieee">}
// OK: fuse.kernel "stride100_k0" {{.*}} {config = #fuse.tile<tileW = 200, tileC = 64, threadsW = 100, threadsC = 8, chanPerThread = 8, ciChunk = 8, precision = "ieee">}

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
