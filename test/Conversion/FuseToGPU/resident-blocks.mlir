// `.minnctapersm` (nvvm.minctasm) asks ptxas for the blocks that can share
// an SM (`kernelResidentBlocks`, GPUPlan.h): 512 threads' worth where
// shared memory admits them, fewer where it does not or where a round that
// stages merged H taps for rows as one wgmma N needs more registers
// (`kernelRegisterEstimate`: 64 + rowsN / 2 per thread).
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-ci-chunk=8 --tile-merge-h --emit=gpu %s | FileCheck %s --check-prefix=MERGED
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-ci-chunk=8 --emit=gpu %s | FileCheck %s --check-prefix=ROWS
// RUN: fusecc --precision=ieee --chip=sm_90a --ieee-tensor-cores=always --tile-wgmma=always --emit=gpu %s | FileCheck %s --check-prefix=SPLIT

// kb1_61's former cost-model tiling at a small shape: 48.9 KB of shared
// memory would admit four blocks, the merged-tap staging (rowsN 152: 140
// registers) three.
// MERGED-LABEL: gpu.func @conv3d_k0(
// MERGED-SAME: nvvm.minctasm = 3 : i32
// Without merged taps: four (and for the 2-D kernel below).
// ROWS-LABEL: gpu.func @conv3d_k0(
// ROWS-SAME: nvvm.minctasm = 4 : i32
// ROWS-LABEL: gpu.func @conv2d_k0(
// ROWS-SAME: nvvm.minctasm = 4 : i32
func.func @conv3d(%x: tensor<1x48x4x6x64xf32>, %w: tensor<48x48x3x3x3xf32>) -> tensor<1x48x6x8x66xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x48x4x6x64xf32>, tensor<48x48x3x3x3xf32>) -> tensor<1x48x6x8x66xf32>
  return %0 : tensor<1x48x6x8x66xf32>
}


// A split-operand (ieee) wgmma block (16 input channels per round) stages
// hi and lo parts of both operands: its shared memory admits three.
// SPLIT-LABEL: gpu.func @conv2d_k0(
// SPLIT-SAME: nvvm.minctasm = 3 : i32
func.func @conv2d(%x: tensor<1x64x6x128xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x8x130xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x6x128xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x8x130xf32>
  return %0 : tensor<1x64x8x130xf32>
}
