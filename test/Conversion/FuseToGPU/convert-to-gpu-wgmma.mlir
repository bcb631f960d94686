// The wgmma (sm_90a tf32) lowering: small kernels re-lay out the weights
// and (where that pass is cheap beside the output) the input into
// workspaces the host function allocates, launches before the main kernel
// and frees after it; the main kernel copies each round's operands with
// 16-byte cp.async (bypassing L1) and waits for them before the round's
// barrier; sigmoid's 1 / (1 + exp(-x)) becomes an approximate exp and
// reciprocal (tf32 kernels default to epilogue-math=fast; both modes are
// tested in epilogue-math.mlir).

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s

// Input 1024 elements + its packed copy 2048 <= 20% of the 16384 outputs:
// both operands re-laid out.
// CHECK-LABEL: func.func @sig(
// CHECK-SAME:    %[[X:.*]]: memref<2x16x4x8xf32>, %[[W:.*]]: memref<16x64x4x4xf32>, %[[OUT:.*]]: memref<2x64x8x16xf32>)
// 1 channel tile x 4 x 4 taps x 1 chunk of 16 channels x (4 kw x 16 x 64).
// The weight re-layout reads the weight alone: a prepare step into a
// `prepared` workspace (PrepareSteps.cpp); the input's stays scratch.
// CHECK:         %[[WS:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<16384xf32>
// CHECK:         gpu.launch_func @fusecc_kernels::@sig_k0_wpack {{.*}} args(%[[W]] : memref<16x64x4x4xf32>, %[[WS]] : memref<16384xf32>) {fuse.prepare}
// 2 x 4 rows x 1 chunk x 4 channel groups x 16 columns (4 + 8 + 4 padding) x 4.
// CHECK:         %[[IS:.*]] = memref.alloc() {fuse.role = "scratch"} : memref<2048xf32>
// CHECK:         gpu.launch_func @fusecc_kernels::@sig_k0_ipack {{.*}} args(%[[X]] : memref<2x16x4x8xf32>, %[[IS]] : memref<2048xf32>){{$}}
// CHECK:         gpu.launch_func @fusecc_kernels::@sig_k0 {{.*}} args(%[[X]] : memref<2x16x4x8xf32>, %[[W]] : memref<16x64x4x4xf32>, %[[WS]] : memref<16384xf32>, %[[IS]] : memref<2048xf32>, %[[OUT]] : memref<2x64x8x16xf32>)
// CHECK-NEXT:    memref.dealloc %[[WS]] : memref<16384xf32>
// CHECK-NEXT:    memref.dealloc %[[IS]] : memref<2048xf32>

// CHECK-LABEL: gpu.func @sig_k0(
// CHECK-SAME:    %[[PW:[a-z0-9]+]]: memref<16384xf32> {llvm.noalias}, %[[PI:[a-z0-9]+]]: memref<2048xf32> {llvm.noalias}
// CHECK:         %[[WCOPY:.*]] = nvgpu.device_async_copy %[[PW]][%{{.*}}], %{{.*}}[%{{.*}}], 4, %{{.*}} {bypassL1} : memref<16384xf32> to memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[GROUP:.*]] = nvgpu.device_async_create_group %[[WCOPY]],
// CHECK:         nvgpu.device_async_copy %[[PI]][%{{.*}}], %{{.*}}[%{{.*}}], 4, %{{.*}} {bypassL1} : memref<2048xf32> to memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// No input value passes through registers on its way to shared memory.
// CHECK-NOT:     vector.load %arg0
// CHECK:         nvgpu.device_async_wait %[[GROUP]] {numGroups = 0 : i32}
// CHECK-NEXT:    nvvm.fence.proxy
// CHECK:         nvvm.wgmma.mma_async
// Sigmoid: the approximate exp and reciprocal; no IEEE division left.
// CHECK:         %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK-NEXT:    %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// CHECK-NEXT:    nvvm.rcp.approx.ftz.f %[[D]] : f32
// CHECK-NOT:     arith.divf
// CHECK:         gpu.return

// The weight re-layout: the 4 x 4 taps of one (input, output channel) pair
// per thread (16-byte row loads), zero past the tensor, TF32.
// CHECK-LABEL: gpu.func @sig_k0_wpack(
// CHECK-SAME:    %[[WA:.*]]: memref<16x64x4x4xf32> {llvm.noalias}, %[[PA:.*]]: memref<16384xf32> {llvm.noalias}) kernel attributes {known_block_size = array<i32: 256, 1, 1>}
// CHECK:         vector.load %[[WA]]
// CHECK:         arith.select
// CHECK:         nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK:         memref.store %{{.*}}, %[[PA]]
// The input re-layout: 4 channels of one column per thread, one 16-byte
// store.
// CHECK-LABEL: gpu.func @sig_k0_ipack(
// CHECK-SAME:    %[[XA:.*]]: memref<2x16x4x8xf32> {llvm.noalias}, %[[QA:.*]]: memref<2048xf32> {llvm.noalias})
// CHECK-COUNT-4: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK:         vector.store %{{.*}}, %[[QA]][%{{.*}}] {alignment = 16 : i64} : memref<2048xf32>, vector<4xf32>
func.func @sig(%x: tensor<2x16x4x8xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x8xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32>
  %1 = fuse.sigmoid %0 : tensor<2x64x8x16xf32>
  return %1 : tensor<2x64x8x16xf32>
}

// -----

// A large input beside its output (4096 + its packed copy > 20% of 36992
// outputs): only the weights are re-laid out; the input rows are staged
// with 16-byte loads.
// CHECK-LABEL: func.func @wide_input(
// CHECK:         memref.alloc() {fuse.role = "prepared"} : memref<{{[0-9]+}}xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch_func @fusecc_kernels::@wide_input_k0_wpack
// CHECK-NOT:     _ipack
// CHECK:         gpu.launch_func @fusecc_kernels::@wide_input_k0 
// CHECK-LABEL: gpu.func @wide_input_k0(
// CHECK:         vector.load %arg0
func.func @wide_input(%x: tensor<1x64x8x8xf32>, %w: tensor<64x128x4x4xf32>) -> tensor<1x128x17x17xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x8x8xf32>, tensor<64x128x4x4xf32>) -> tensor<1x128x17x17xf32>
  return %0 : tensor<1x128x17x17xf32>
}
