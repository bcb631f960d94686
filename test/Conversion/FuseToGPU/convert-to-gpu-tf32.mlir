// The tf32 (tensor-core) lowering under fusecc-opt, where the NVVM dialect is
// not loaded up front: fuse-convert-to-gpu declares NVVM as a dependent
// dialect (it used to segfault in NVVM::FPRoundingModeAttr::get).

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s

// CHECK-LABEL: func.func @softmax1d
// CHECK: gpu.launch_func @fusecc_kernels::@softmax1d_k0
// CHECK: gpu.func @softmax1d_k0
// CHECK-SAME: kernel
// CHECK: gpu.dynamic_shared_memory
// Operands are rounded to TF32 when staged, then multiplied on tensor cores.
// CHECK: nvvm.convert.float.to.tf32
// CHECK: nvgpu.mma.sync
// CHECK-SAME: mmaShape = [16, 8, 8]
// CHECK-SAME: tf32Enabled
// CHECK: gpu.shuffle xor
// CHECK: gpu.return
func.func @softmax1d(%x: tensor<2x4x5xf32> {fuse.name = "x"}, %w: tensor<4x8x3xf32>,
                     %b: tensor<8xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>) -> tensor<2x8x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x8x7xf32>
  return %1 : tensor<2x8x7xf32>
}
