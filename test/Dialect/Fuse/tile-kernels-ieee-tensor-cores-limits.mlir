// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=auto}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{wgmma=always}))' | FileCheck %s --check-prefix=HOPPER
//
// The grid limit on the split-operand (tf32x3) tensor-core path of ieee
// kernels (default ieee-tensor-cores=auto, and always): a tensor-core
// tiling over the limits is dropped silently and the kernel falls back to
// FP32 FMA, whose checks report (tile-kernels-invalid.mlir: the FMA
// tiling's diagnostics). 16 input channels: auto takes the split path too.
// The Hopper run forces wgmma: by default a layer of 16 output channels
// keeps mma.sync (tile-kernels-wgmma.mlir, rgb_layer).

// 2^20 batches x 4096 rows: 2^32 FMA blocks, more than one launch can
// have; the split tiling's 2^30 (4 rows per block) fit.
// CHECK-LABEL: fuse.kernel "fits_split_k0"
// CHECK-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 1, rows = 4>
// HOPPER-LABEL: fuse.kernel "fits_split_k0"
// HOPPER-SAME: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 1>
func.func @fits_split(%x: tensor<1048576x16x4096x1xf32>, %w: tensor<16x16x1x1xf32>) -> tensor<1048576x16x4096x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1048576x16x4096x1xf32>, tensor<16x16x1x1xf32>) -> tensor<1048576x16x4096x1xf32>
  return %0 : tensor<1048576x16x4096x1xf32>
}

// -----

// 2^22 batches: 2^32 blocks of the split tiling, too many as well; the FMA
// fallback reports its own count.
func.func @too_many_blocks_split(%x: tensor<4194304x16x4096x1xf32>, %w: tensor<16x16x1x1xf32>) -> tensor<4194304x16x4096x1xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 17179869184 blocks, more than one launch can have (2147483647)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<4194304x16x4096x1xf32>, tensor<16x16x1x1xf32>) -> tensor<4194304x16x4096x1xf32>
  return %0 : tensor<4194304x16x4096x1xf32>
}
