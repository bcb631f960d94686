// fuse-convert-to-gpu{register-softmax}: a channel softmax whose wgmma
// block holds all 64 channels takes its statistics from the accumulators
// (RegisterSoftmax.cpp): per position XOR shuffles 16, 8 and 4 lanes apart
// (a fragment column's channels are lane / 4's), an exchange of the warps'
// partials behind barriers, then the rest of the epilogue on registers.
// By default (register-softmax=false: 37% slower on kb2_49 on the H200,
// docs/perf.md 201) the tile path's one-thread-per-column
// statistics pass (128 columns on 128 threads: no shuffle) stays.

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1},fuse-plan-kernels),fuse-convert-to-gpu{register-softmax=true})' | FileCheck %s
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: gpu.func @sm_k0(
// CHECK:         nvvm.wgmma.mma_async
// CHECK:         gpu.barrier
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK-NEXT:    arith.maximumf
// CHECK:         gpu.shuffle  xor %{{.*}}, %c8_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK-NEXT:    arith.maximumf
// CHECK:         gpu.shuffle  xor %{{.*}}, %c4_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK-NEXT:    arith.maximumf
// The warp's max: lane group 0's store, right after its shuffles.
// CHECK-NEXT:    scf.if
// CHECK:           memref.store
// CHECK-NOT:     gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK:         gpu.barrier
// CHECK:         vector.load %{{.*}} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32{{.*}}, %c32_i32{{.*}} : f32
// CHECK-NEXT:    arith.addf
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:           arith.divf
// CHECK:         gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         vector.store
// CHECK:         gpu.return

// OFF-LABEL: gpu.func @sm_k0(
// OFF-NOT:     gpu.shuffle
// OFF:         gpu.return

func.func @sm(%x: tensor<2x16x3x30xf32>, %w: tensor<16x64x3x3xf32>,
              %b: tensor<64xf32>) -> tensor<2x64x6x60xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<2x16x3x30xf32>, tensor<16x64x3x3xf32>, tensor<64xf32>)
       -> tensor<2x64x6x60xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x64x6x60xf32>
  %2 = fuse.sigmoid %1 : tensor<2x64x6x60xf32>
  return %2 : tensor<2x64x6x60xf32>
}
