// threads=1024 is a valid option value (threads in [32, 1024]), and both
// graphs tile with threads=512 (tile-kernels-options.mlir).
//
// threadsC is rounded to whole warps within the thread budget (it used to
// round up past it: stride 3 gave 18 x 64 = 1152 threads).

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{threads=1024}))' 2>&1 | FileCheck %s
// CHECK-NOT: error
// CHECK: fuse.kernel "stride3_k0" {{.*}} {config = #fuse.tile<{{.*}}types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// CHECK: fuse.kernel "stride100_k0" {{.*}} {config = #fuse.tile<{{.*}}types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}

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
