// --emit stops after a stage and prints its output (stdout by default).

// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=FUSED
// RUN: fusecc %s --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: fusecc %s --emit=nvvm | FileCheck %s --check-prefix=NVVM
// RUN: fusecc %s --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: fusecc %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: fusecc %s --emit=ptx --chip=sm_80 -o %t.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.ptx
// RUN: fusecc %s --emit=bundle -o - | FileCheck %s --check-prefix=BUNDLE
// RUN: fusecc %s --emit=fused --precision=tf32 | FileCheck %s --check-prefix=FUSED-TF32
// RUN: fusecc %s --emit=gpu --precision=tf32 | FileCheck %s --check-prefix=GPU-TF32

// FUSED-LABEL: func.func @f(
// FUSED-SAME: %{{.*}}: tensor<2x4x5xf32> {fuse.name = "x"}
// FUSED-SAME: -> tensor<2x8x7xf32>
// FUSED-NEXT: %[[K:.*]] = fuse.kernel "f_k0" ins(
// FUSED-SAME: {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
// FUSED: fuse.conv_transpose
// FUSED-NEXT: fuse.softmax
// FUSED-NEXT: fuse.gelu
// FUSED-NEXT: fuse.yield
// FUSED: return %[[K]]
// FUSED-NOT: gpu.

// FUSED-TF32: fuse.kernel "f_k0" {{.*}}types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 1, mmaTilesW = 1>

// GPU: module attributes {fuse.target = #fuse.target<chip = sm_90, device = h200>, gpu.container_module}
// GPU: func.func @f(%{{.*}}: memref<2x4x5xf32> {fuse.name = "x"}, %{{.*}}: memref<4x8x3xf32>, %{{.*}}: memref<8xf32>, %{{.*}}: memref<2x8x7xf32>)
// GPU: gpu.launch_func @fusecc_kernels::@f_k0 blocks in
// GPU: gpu.module @fusecc_kernels {
// GPU-NOT: #nvvm.target
// GPU: gpu.func @f_k0({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// Still scalar arith/math/gpu ops (canonicalized), not yet LLVM.
// GPU: math.fma
// GPU: gpu.shuffle xor
// GPU: math.erf
// GPU-NOT: fuse.
// GPU-NOT: llvm.

// GPU-TF32: nvgpu.mma.sync

// NVVM: gpu.module @fusecc_kernels [#nvvm.target<O = 3, chip = "sm_90">] {
// NVVM: llvm.func @f_k0(
// NVVM-SAME: gpu.kernel
// NVVM-SAME: nvvm.kernel
// NVVM-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM: nvvm.shfl.sync bfly
// NVVM: nvvm.barrier0
// NVVM-NOT: scf.
// NVVM-NOT: gpu.func

// LLVM: ; ModuleID = 'fusecc_kernels'
// Kernel buffers never overlap (the runtime checks): noalias pointers.
// LLVM: define ptx_kernel void @f_k0(ptr noalias %0, ptr noalias %1, ptr noalias %2, ptr noalias %3)
// LLVM: @llvm.nvvm.read.ptx.sreg.tid.x()
// LLVM: @llvm.nvvm.shfl.sync.bfly.f32
// LLVM: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// LLVM-NOT: func.func

// PTX: .version
// PTX: .target sm_90
// PTX: .address_size 64
// PTX: .visible .entry f_k0(
// PTX-NEXT: .param .u64 .ptr .align 1 f_k0_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 f_k0_param_1,
// PTX-NEXT: .param .u64 .ptr .align 1 f_k0_param_2,
// PTX-NEXT: .param .u64 .ptr .align 1 f_k0_param_3
// PTX-NEXT: )
// PTX-NEXT: .maxntid 128, 1, 1
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync 0
// PTX: ret;

// SM80: .target sm_80

// BUNDLE: fusecc-bundle 2
// BUNDLE: entry f args 4 workspaces 0 launches 1
// BUNDLE: ptx

func.func @f(%x: tensor<2x4x5xf32> {fuse.name = "x"}, %w: tensor<4x8x3xf32>,
             %b: tensor<8xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>) -> tensor<2x8x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x8x7xf32>
  %2 = fuse.gelu %1 : tensor<2x8x7xf32>
  return %2 : tensor<2x8x7xf32>
}
