// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-plan-kernels),fuse-convert-to-gpu)'

// fuse-convert-to-gpu takes a tile config's clusterK (a reduction split over
// a thread block cluster) only where each block of the cluster gets whole
// channel chunks and the epilogue is elementwise.

// 24 input channels in chunks of 8: 3 chunks, not a multiple of clusterK = 2.
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @chunks_not_a_multiple(%arg0: tensor<2x24x4x3xf32>, %arg1: tensor<24x64x4x4xf32>, %arg2: tensor<64xf32>) -> tensor<2x64x8x6xf32> {
    // expected-error@+1 {{'fuse.kernel' op tile config has clusterK = 2: a reduction split over a cluster needs an elementwise epilogue, a static batch and channel chunks a multiple of clusterK}}
    %0 = fuse.kernel "k0" ins(%arg0, %arg1, %arg2 : tensor<2x24x4x3xf32>, tensor<24x64x4x4xf32>, tensor<64xf32>) {config = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 8, wgmmaGroups = 1, clusterK = 2>} -> tensor<2x64x8x6xf32> {
    ^bb0(%arg3: tensor<2x24x4x3xf32>, %arg4: tensor<24x64x4x4xf32>, %arg5: tensor<64xf32>):
      %1 = fuse.conv_transpose %arg3, %arg4, %arg5 {dilation = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x24x4x3xf32>, tensor<24x64x4x4xf32>, tensor<64xf32>) -> tensor<2x64x8x6xf32>
      fuse.yield %1 : tensor<2x64x8x6xf32>
    }
    return %0 : tensor<2x64x8x6xf32>
  }
}
