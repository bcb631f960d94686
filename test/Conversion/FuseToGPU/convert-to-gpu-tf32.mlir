// KNOWN BUG: fuse-convert-to-gpu builds nvvm.convert.float.to.tf32 (TF32
// rounding of staged operands) but does not declare the NVVM dialect as a
// dependent dialect (include/fusecc/Conversion/Passes.td), so under
// fusecc-opt, where NVVM is not loaded beforehand, the pass segfaults in
// NVVM::FPRoundingModeAttr::get. (fusecc itself loads all dialects up front
// and is not affected.) Remove the XFAIL when NVVMDialect is added to the
// pass's dependentDialects.
// XFAIL: *

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}),fuse-convert-to-gpu)' | FileCheck %s

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
