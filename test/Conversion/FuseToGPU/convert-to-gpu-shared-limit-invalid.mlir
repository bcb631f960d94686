// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-plan-kernels),fuse-convert-to-gpu)'

// fuse-convert-to-gpu refuses a kernel whose shared memory, with what the
// kernel adds to the tiling's plan, passes the target's limit a block: here
// a reduction split over a cluster of 4 blocks of 512 threads (4 samples'
// warpgroups), whose block 0 would hold the other 3 blocks' accumulator
// fragments (3 x 64 f32 x 512 threads = 393,216 bytes; the tile pass never
// chooses it, TileClusterK.cpp). Such a bundle failed to load on the H200
// (docs/perf.md 240).

module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @cluster_fragments(%arg0: tensor<4x128x8x6xf32>, %arg1: tensor<128x64x4x4xf32>) -> tensor<4x64x16x12xf32> {
    // expected-error@+1 {{'fuse.kernel' op needs 393216 bytes of shared memory (at most}}
    %0 = fuse.kernel "k0" ins(%arg0, %arg1 : tensor<4x128x8x6xf32>, tensor<128x64x4x4xf32>) {config = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 64, chanPerThread = 1, ciChunk = 32, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 32, wgmmaN = 8, wgmmaGroups = 4, samples = 4, clusterK = 4>} -> tensor<4x64x16x12xf32> {
    ^bb0(%arg2: tensor<4x128x8x6xf32>, %arg3: tensor<128x64x4x4xf32>):
      %1 = fuse.conv_transpose %arg2, %arg3 {dilation = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<4x128x8x6xf32>, tensor<128x64x4x4xf32>) -> tensor<4x64x16x12xf32>
      fuse.yield %1 : tensor<4x64x16x12xf32>
    }
    return %0 : tensor<4x64x16x12xf32>
  }
}
