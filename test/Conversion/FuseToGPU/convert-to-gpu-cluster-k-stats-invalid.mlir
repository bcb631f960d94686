// RUN: fusecc-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuse-convert-to-gpu)'

// A planned convolution kernel that writes partial statistics for the
// softmax after it (fuse.plan.stats_*) cannot split its reduction over a
// cluster: only block 0 holds the sums. The tile pass never chooses it
// there; a hand-written config is refused at conversion.

module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @stats(%arg0: tensor<2x256x16x16xf32>, %arg1: tensor<256x64x4x4xf32>) -> tensor<2x64x1024xf32> attributes {fuse.plan.buffers = [{elements = 2048 : i64, first = 0 : i64, last = 1 : i64, role = "partials", type = f32}, {elements = 131072 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}]} {
    // expected-error@+1 {{'fuse.kernel' op tile config has clusterK = 2 but the kernel writes partial statistics}}
    %0 = fuse.kernel "stats_k0" ins(%arg0, %arg1 : tensor<2x256x16x16xf32>, tensor<256x64x4x4xf32>) {config = #fuse.tile<tileW = 32, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 16, wgmmaGroups = 1, clusterK = 2>, fuse.plan.partials = 0 : i64, fuse.plan.result = 1 : i64, fuse.plan.stats_groups = 64 : i64, fuse.plan.stats_kind = "max_sum_exp"} -> tensor<2x64x32x32xf32> {
    ^bb0(%arg2: tensor<2x256x16x16xf32>, %arg3: tensor<256x64x4x4xf32>):
      %2 = fuse.conv_transpose %arg2, %arg3 {dilation = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x256x16x16xf32>, tensor<256x64x4x4xf32>) -> tensor<2x64x32x32xf32>
      fuse.yield %2 : tensor<2x64x32x32xf32>
    }
    %1 = fuse.kernel "stats_k1" ins(%0 : tensor<2x64x32x32xf32>) {fuse.plan.epilogue_stats, fuse.plan.merge_records = 1024 : i64, fuse.plan.partials = 0 : i64, fuse.plan.split_chunk = 16384 : i64, fuse.plan.warp_set_limit = 4096 : i64} -> tensor<2x64x1024xf32> {
    ^bb0(%arg2: tensor<2x64x32x32xf32>):
      %2 = fuse.reshape %arg2 : tensor<2x64x32x32xf32> -> tensor<2x64x1024xf32>
      %3 = fuse.softmax %2 {dim = 2 : i64} : tensor<2x64x1024xf32>
      fuse.yield %3 : tensor<2x64x1024xf32>
    }
    return %1 : tensor<2x64x1024xf32>
  }
}
