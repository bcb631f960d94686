// The FP32 FMA lowering: pinned to FMA, as the default (ieee-tensor-cores=auto)
// puts large-grid ieee kernels (kb2_49) on split-operand tensor cores.
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=never},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s
// The tf32 (tensor-core) lowering is tested in convert-to-gpu-tf32.mlir, the
// split-operand one (tf32x3) in convert-to-gpu-tf32x3.mlir.

// 1-D conv + channel softmax. Config (ieee): tileW = 16, tileC = 8,
// threadsW = 16, threadsC = 8 -> 128 threads, one block per batch entry.

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @softmax1d(%[[X:.*]]: memref<2x4x5xf32> {fuse.name = "x"}, %[[W:.*]]: memref<4x8x3xf32>, %[[B:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<2x8x7xf32>) {
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// The dynamic shared memory size is the plan's (SharedMemoryPlan): checked
// against the f32 view the kernel makes of it, below.
// CHECK-DAG: %[[SMEM:.*]] = arith.constant [[#SMEM_BYTES:]] : i32
// CHECK: gpu.launch_func @fusecc_kernels::@softmax1d_k0 blocks in (%[[C2]], %[[C1]], %[[C1]]) threads in (%[[C128]], %[[C1]], %[[C1]]) dynamic_shared_memory_size %[[SMEM]] args(%[[X]] : memref<2x4x5xf32>, %[[W]] : memref<4x8x3xf32>, %[[B]] : memref<8xf32>, %[[OUT]] : memref<2x8x7xf32>)
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK: gpu.module @fusecc_kernels {
// Kernel buffers never overlap (the runtime checks): noalias arguments.
// CHECK: gpu.func @softmax1d_k0(%[[KX:[^:]*]]: memref<2x4x5xf32> {llvm.noalias}, %[[KW:[^:]*]]: memref<4x8x3xf32> {llvm.noalias}, %[[KB:[^:]*]]: memref<8xf32> {llvm.noalias}, %[[KOUT:[^:]*]]: memref<2x8x7xf32> {llvm.noalias}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32} {
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[SM:.*]] = memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<[[#div(SMEM_BYTES,4)]]xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.thread_id x
// CHECK: gpu.block_id x
// Main loop: stage input and weights, then FMA out of shared memory.
// CHECK: gpu.barrier
// CHECK: memref.load %[[KX]]
// CHECK: memref.store %{{.*}}, %[[SM]]
// CHECK: memref.load %[[KW]]
// CHECK: memref.store %{{.*}}, %[[SM]]
// CHECK: gpu.barrier
// CHECK: %[[XV:.*]] = memref.load %[[SM]]
// CHECK: %[[WV:.*]] = memref.load %[[SM]]
// CHECK: math.fma %[[XV]], %[[WV]], %{{.*}} : f32
// Conv bias, then the accumulators to the output tile.
// CHECK: memref.load %[[KB]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[SM]]
// CHECK: gpu.barrier
// Softmax: max and sum of exp(x - max) over each column, reduced across
// lanes with xor shuffles; then the tile is scaled by 1 / sum.
// CHECK: arith.maximumf
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: gpu.shuffle xor
// CHECK: arith.addf
// CHECK: gpu.barrier
// The final pass normalises on load (tile * 1 / sum), no separate pass.
// CHECK: arith.mulf
// CHECK-NOT: gpu.barrier
// Coalesced stores of the result.
// CHECK: memref.store %{{.*}}, %[[KOUT]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<2x8x7xf32>
// CHECK: gpu.return
// CHECK-NOT: nvgpu.mma.sync

func.func @softmax1d(%x: tensor<2x4x5xf32> {fuse.name = "x"}, %w: tensor<4x8x3xf32>,
                     %b: tensor<8xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>, tensor<8xf32>) -> tensor<2x8x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x8x7xf32>
  return %1 : tensor<2x8x7xf32>
}

// -----

// kb2_49 (3-D, stride 2): 16 x 32 x 64 blocks of 128 threads (4 per SM at
// 128 registers).

// CHECK-LABEL: func.func @kb2_49
// CHECK-SAME: (%{{.*}}: memref<16x32x16x32x32xf32>, %{{.*}}: memref<32x64x3x3x3xf32>, %{{.*}}: memref<64xf32>, %{{.*}}: memref<16x64x32x64x64xf32>)
// CHECK-DAG: %[[GRID:.*]] = arith.constant 32768 : index
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @fusecc_kernels::@kb2_49_k0 blocks in (%[[GRID]], %[[ONE]], %[[ONE]]) threads in (%[[BLOCK]], %[[ONE]], %[[ONE]]) dynamic_shared_memory_size %{{.*}} args(
// CHECK: gpu.func @kb2_49_k0
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 4 : i32}
// Input rows (32 wide) are staged as 16-byte vectors; the 3-D output is
// stored with 5 indices, 4 consecutive W positions per 16-byte store.
// CHECK: vector.load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x32x16x32x32xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<16x64x32x64x64xf32>, vector<4xf32>
func.func @kb2_49(%x: tensor<16x32x16x32x32xf32>, %w: tensor<32x64x3x3x3xf32>,
                  %b: tensor<64xf32>) -> tensor<16x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<16x64x32x64x64xf32>
  %2 = fuse.sigmoid %1 : tensor<16x64x32x64x64xf32>
  return %2 : tensor<16x64x32x64x64xf32>
}

// -----

// 2-D conv + layer_norm over W with weight and bias, then an elementwise
// epilogue reading a broadcast [C, 1, 1] input and a scalar constant.

// CHECK-LABEL: func.func @layer_norm2d
// CHECK-SAME: (%{{.*}}: memref<1x4x3x5xf32>, %{{.*}}: memref<4x8x3x3xf32>, %{{.*}}: memref<11xf32>, %{{.*}}: memref<11xf32>, %{{.*}}: memref<8x1x1xf32>, %{{.*}}: memref<1x8x7x11xf32>)
// CHECK: gpu.launch_func @fusecc_kernels::@layer_norm2d_k0
// CHECK: gpu.func @layer_norm2d_k0(%{{[^:]*}}: memref<1x4x3x5xf32> {llvm.noalias}, %{{[^:]*}}: memref<4x8x3x3xf32> {llvm.noalias}, %[[G:[^:]*]]: memref<11xf32> {llvm.noalias}, %[[BETA:[^:]*]]: memref<11xf32> {llvm.noalias}, %[[CB:[^:]*]]: memref<8x1x1xf32> {llvm.noalias}, %[[OUT:[^:]*]]: memref<1x8x7x11xf32> {llvm.noalias}) kernel
// Mean and variance of each row.
// CHECK: gpu.shuffle xor
// CHECK: math.fma
// CHECK: gpu.shuffle xor
// CHECK: math.rsqrt
// Normalise: (x - mean) * rstd * weight[w] + bias[w].
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: memref.load %[[G]][%{{.*}}] : memref<11xf32>
// CHECK: arith.mulf
// CHECK: memref.load %[[BETA]][%{{.*}}] : memref<11xf32>
// CHECK: arith.addf
// Epilogue: the [8, 1, 1] operand is read at [c, 0, 0].
// CHECK: %[[Z0:.*]] = arith.constant 0 : index
// CHECK: %[[Z1:.*]] = arith.constant 0 : index
// CHECK: memref.load %[[CB]][%{{.*}}, %[[Z0]], %[[Z1]]] : memref<8x1x1xf32>
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x7x11xf32>
func.func @layer_norm2d(%x: tensor<1x4x3x5xf32>, %w: tensor<4x8x3x3xf32>,
                        %g: tensor<11xf32>, %beta: tensor<11xf32>,
                        %cb: tensor<8x1x1xf32>) -> tensor<1x8x7x11xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x3x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x11xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<11xf32>) bias(%beta : tensor<11xf32>)
       : tensor<1x8x7x11xf32>
  %2 = fuse.add %1, %cb : tensor<1x8x7x11xf32>, tensor<8x1x1xf32> -> tensor<1x8x7x11xf32>
  %c3 = arith.constant dense<3.0> : tensor<f32>
  %3 = fuse.mul %2, %c3 : tensor<1x8x7x11xf32>, tensor<f32> -> tensor<1x8x7x11xf32>
  return %3 : tensor<1x8x7x11xf32>
}
