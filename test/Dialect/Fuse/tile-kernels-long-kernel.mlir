// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' | FileCheck %s --check-prefix=TF32
//
// Issue 37 (rand37_61): 64 W taps at stride 32 and 64 output channels per
// block stage 64 x 16 x 64 weights (256 KiB) per chunk of 16 input
// channels, past the shared memory at every block size. The FMA tiling
// then takes smaller chunks (8) instead of failing; with 48 channels the
// chunk of 16 fits and is kept. (test/Reference/long-kernel-staging.mlir
// runs these kernels.) In tf32 the tensor-core tiling takes 32 channels
// per block instead, which fits (docs/perf.md 163: 7.9x faster than FMA).

// CHECK-LABEL: func.func @long_kernel_64ch
// CHECK: fuse.kernel "long_kernel_64ch_k0" {{.*}} {config = #fuse.tile<{{.*}}tileC = 64, {{.*}}ciChunk = 8, types = <ieee, storage = f32, operand = f32, {{.*}}>>}
// TF32-LABEL: func.func @long_kernel_64ch
// TF32: fuse.kernel "long_kernel_64ch_k0" {{.*}} {config = #fuse.tile<{{.*}}tileC = 32, {{.*}}types = <tf32, storage = f32, operand = tf32, {{.*}}>, mmaWarpsC = {{.*}}>}
func.func @long_kernel_64ch(%x: tensor<1x64x8xf32>, %w: tensor<64x64x64xf32>) -> tensor<1x64x256xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x64x8xf32>, tensor<64x64x64xf32>) -> tensor<1x64x256xf32>
  return %0 : tensor<1x64x256xf32>
}

// -----

// CHECK-LABEL: func.func @long_kernel_48ch
// CHECK: fuse.kernel "long_kernel_48ch_k0" {{.*}} {config = #fuse.tile<{{.*}}tileC = 48, {{.*}}ciChunk = 16, types = <ieee, storage = f32, operand = f32, {{.*}}>>}
// TF32-LABEL: func.func @long_kernel_48ch
// TF32: fuse.kernel "long_kernel_48ch_k0" {{.*}} {config = #fuse.tile<{{.*}}tileC = 32, {{.*}}types = <tf32, storage = f32, operand = tf32, {{.*}}>, mmaWarpsC = {{.*}}>}
func.func @long_kernel_48ch(%x: tensor<1x48x8xf32>, %w: tensor<48x48x64xf32>) -> tensor<1x48x256xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 32>, padding = array<i64: 16>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x48x8xf32>, tensor<48x48x64xf32>) -> tensor<1x48x256xf32>
  return %0 : tensor<1x48x256xf32>
}
