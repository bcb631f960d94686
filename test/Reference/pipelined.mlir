// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// The software-pipelined tensor-core main loop (input rows and kw both
// multiples of 4): 16-byte cp.async copies of round q + 1 while round q is
// on the tensor cores, in-place TF32 rounding of each thread's own copies,
// one barrier per round. The simulator checks every shared-memory access
// against pending copies and barriers.

// GPU-LABEL: gpu.func @pl_chunks_k0
// Prologue: round 0 copied (16-byte copies, zero fill through the source
// size), waited for, rounded in place by the copying thread, published.
// GPU: nvgpu.device_async_copy %arg0[{{.*}}], %[[SMEM:.*]][%{{.*}}], 4, %{{.*}} {bypassL1} : memref<2x40x3x4x8xf32> to memref<[[#N:]]xf32, #gpu.address_space<workgroup>>
// GPU: nvgpu.device_async_copy %arg1[{{.*}}], %[[SMEM]][%{{.*}}], 4, %{{.*}} {bypassL1} : memref<40x16x4x4x4xf32> to memref<[[#N]]xf32, #gpu.address_space<workgroup>>
// GPU: %[[G0:.*]] = nvgpu.device_async_create_group
// GPU-NEXT: nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// GPU: vector.load %[[SMEM]][%{{.*}}] {alignment = 16 : i64}
// GPU: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// GPU: vector.store %{{.*}}, %[[SMEM]][%{{.*}}] {alignment = 16 : i64}
// GPU: gpu.barrier
// Each round: copy round q + 1, mma on round q, wait, round, one barrier.
// GPU: scf.for
// GPU: nvgpu.device_async_copy %arg0
// GPU: nvgpu.device_async_copy %arg1
// GPU: %[[G:.*]] = nvgpu.device_async_create_group
// GPU: nvgpu.mma.sync
// GPU: nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// GPU: nvvm.convert.float.to.tf32
// GPU: gpu.barrier
// GPU-NOT: gpu.barrier
// GPU: scf.yield

// CHECK: @pl_chunks: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @pl_softmax2d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @pl_kw8: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @pl_dilated: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @pl_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// 40 input channels: two full chunks of 16 and a partial one (zero-filled
// channels), 2 x 2 valid d/h taps per block: 8 rounds.
func.func @pl_chunks(%x0: tensor<2x40x3x4x8xf32>, %w1: tensor<40x16x4x4x4xf32>, %b2: tensor<16xf32>) -> tensor<2x16x6x8x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x40x3x4x8xf32>, tensor<40x16x4x4x4xf32>, tensor<16xf32>) -> tensor<2x16x6x8x16xf32>
  %v1 = fuse.relu %v0 : tensor<2x16x6x8x16xf32>
  return %v1 : tensor<2x16x6x8x16xf32>
}

func.func @pl_softmax2d(%x0: tensor<2x40x5x16xf32>, %w1: tensor<40x32x4x4xf32>, %b2: tensor<32xf32>) -> tensor<2x32x11x33xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x40x5x16xf32>, tensor<40x32x4x4xf32>, tensor<32xf32>) -> tensor<2x32x11x33xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<2x32x11x33xf32>
  %v2 = fuse.sigmoid %v1 : tensor<2x32x11x33xf32>
  return %v2 : tensor<2x32x11x33xf32>
}

// kw = 8: two 16-byte copies per (input, output) channel pair.
func.func @pl_kw8(%x0: tensor<1x8x6x12xf32>, %w1: tensor<8x16x3x8xf32>) -> tensor<1x16x8x19xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x6x12xf32>, tensor<8x16x3x8xf32>) -> tensor<1x16x8x19xf32>
  return %v0 : tensor<1x16x8x19xf32>
}

// Dilation 2 with stride 2: rows of even output height have no valid tap
// (zero rounds: the prologue copies nothing and the loop never runs).
func.func @pl_dilated(%x0: tensor<1x8x3x8xf32>, %w1: tensor<8x16x4x4xf32>, %b2: tensor<16xf32>) -> tensor<1x16x9x19xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x8x3x8xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>) -> tensor<1x16x9x19xf32>
  return %v0 : tensor<1x16x9x19xf32>
}

// Several W tiles: windows start inside the row.
func.func @pl_wide(%x0: tensor<1x8x2x100xf32>, %w1: tensor<8x16x4x4xf32>, %b2: tensor<16xf32>) -> tensor<1x16x4x200xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x2x100xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>) -> tensor<1x16x4x200xf32>
  %v1 = fuse.tanh %v0 : tensor<1x16x4x200xf32>
  return %v1 : tensor<1x16x4x200xf32>
}
