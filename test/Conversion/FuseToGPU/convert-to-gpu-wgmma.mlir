// The wgmma (sm_90a tf32) lowering: a weight re-layout kernel writes a
// workspace the host function allocates, launches before the main kernel
// and frees after it; the main kernel copies each round's weight image with
// 16-byte cp.async (bypassing L1) and waits for them before the round's
// barrier; sigmoid's 1 / (1 + exp(-x)) becomes a branch-free reciprocal.

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1}),fuse-convert-to-gpu)' | FileCheck %s

// CHECK-LABEL: func.func @sig(
// CHECK-SAME:    %[[X:.*]]: memref<2x16x4x8xf32>, %[[W:.*]]: memref<16x64x4x4xf32>, %[[OUT:.*]]: memref<2x64x8x16xf32>)
// 1 channel tile x 4 x 4 taps x 1 chunk of 16 channels x (4 kw x 16 x 64).
// CHECK:         %[[WS:.*]] = memref.alloc() : memref<16384xf32>
// CHECK:         gpu.launch_func @fusecc_kernels::@sig_k0_wpack blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%[[W]] : memref<16x64x4x4xf32>, %[[WS]] : memref<16384xf32>)
// CHECK:         gpu.launch_func @fusecc_kernels::@sig_k0 {{.*}} args(%[[X]] : memref<2x16x4x8xf32>, %[[W]] : memref<16x64x4x4xf32>, %[[WS]] : memref<16384xf32>, %[[OUT]] : memref<2x64x8x16xf32>)
// CHECK-NEXT:    memref.dealloc %[[WS]] : memref<16384xf32>

// CHECK-LABEL: gpu.func @sig_k0(
// CHECK-SAME:    %{{.*}}: memref<16384xf32> {llvm.noalias}
// CHECK:         %[[COPY:.*]] = nvgpu.device_async_copy %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], 4, %{{.*}} {bypassL1} : memref<16384xf32> to memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[GROUP:.*]] = nvgpu.device_async_create_group %[[COPY]],
// CHECK:         nvgpu.device_async_wait %[[GROUP]] {numGroups = 0 : i32}
// CHECK-NEXT:    nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// Sigmoid: rcp.approx refined by one Newton step, results below 2^-126
// flushed; no IEEE division left for it.
// CHECK:         %[[E:.*]] = math.exp
// CHECK-NEXT:    %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK-NEXT:    %[[R0:.*]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
// CHECK:         %[[ND:.*]] = arith.negf %[[D]] : f32
// CHECK-NEXT:    %[[ERR:.*]] = math.fma %[[ND]], %[[R0]], %{{.*}} : f32
// CHECK-NEXT:    %[[R:.*]] = math.fma %[[R0]], %[[ERR]], %[[R0]] : f32
// CHECK:         %[[HUGE:.*]] = arith.cmpf oge, %[[D]], %{{.*}} : f32
// CHECK:         arith.select %[[HUGE]], %{{.*}}, %[[R]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         gpu.return

// The re-layout: one element per thread, zero past the tensor, TF32 (rna).
// CHECK-LABEL: gpu.func @sig_k0_wpack(
// CHECK-SAME:    %[[WA:.*]]: memref<16x64x4x4xf32> {llvm.noalias}, %[[PA:.*]]: memref<16384xf32> {llvm.noalias}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:         memref.load %[[WA]]
// CHECK:         arith.select
// CHECK:         nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK:         memref.store %{{.*}}, %[[PA]]
func.func @sig(%x: tensor<2x16x4x8xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x8xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32>
  %1 = fuse.sigmoid %0 : tensor<2x64x8x16xf32>
  return %1 : tensor<2x64x8x16xf32>
}
