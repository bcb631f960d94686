// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=always}))' | FileCheck %s
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always wgmma=always}))' | FileCheck %s

// A convolution pinned to FP32 (fuse.precision = #fuse.conv_math<ieee>, as
// fuse-reduce-through-conv builds its convolution of output size 1) takes
// the FMA tiling whatever the precision mode and tensor-core options; its
// unpinned twin takes the tensor cores.
// CHECK-LABEL: func.func @pinned
// CHECK: fuse.kernel "pinned_k0" {{.*}}types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// CHECK-NOT: mmaTilesC
// CHECK-NOT: wgmmaN
// CHECK: fuse.kernel "pinned_k1" {{.*}}types = <tf32{{(x3)?}}, storage = f32, operand = tf32, accumulator = f32, statistics = f32>
func.func @pinned(%x: tensor<2x64x8x8xf32>, %w: tensor<64x64x3x3xf32>) -> (tensor<2x64x8x8xf32>, tensor<2x64x8x8xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, fuse.precision = #fuse.conv_math<ieee>} : (tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>) -> tensor<2x64x8x8xf32>
  %1 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x64x8x8xf32>, tensor<64x64x3x3xf32>) -> tensor<2x64x8x8xf32>
  return %0, %1 : tensor<2x64x8x8xf32>, tensor<2x64x8x8xf32>
}
