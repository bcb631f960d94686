// RUN: fusecc-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: fusecc %S/../../Reference/samples-split.mlir --chip=sm_90a --tile-wgmma=always --precision=tf32 --tuning=%S/Inputs/tuning-samples-split.json --emit=fused | FileCheck %s --check-prefix=TUNED
// RUN: fusecc %fusecc_src_root/examples/models/mlir/heatmap_head_b32.mlir --precision=bf16 --chip=sm_90a --tile-wgmma=always --tile-samples=4 --tile-wgmma-split=4 --tile-cluster-k=4 --emit=fused | FileCheck %s --check-prefix=K4
// Blocks of samples whose rows are split over warpgroups
// (TileConfigAttr::samples with wgmmaGroups = tileC / 64 x split): parsed
// and printed, verified (rows a multiple of the split and of the samples,
// no merged H taps, no phase split or channel cluster), forced by a tuning
// entry's "samples" with "wgmma_split" (or --tile-samples with
// --tile-wgmma-split, test/Reference/samples-split.mlir).

// heatmap_head's k0 at 4 samples in 4 warpgroups of 512 threads: a forced
// clusterK = 4 is not taken (block 0 would hold 3 x 64 f32 fragments a
// thread, 393,216 bytes of shared memory; docs/perf.md 240).
// K4: fuse.kernel "fusecc_graph_k0" {{.*}}wgmmaGroups = 4, samples = 4>

// TUNED: fuse.kernel "ss_bn_relu_k0" {{.*}}rows = 32, {{.*}}wgmmaGroups = 4, samples = 4>
// TUNED-NOT: "ss_residual_k0" {{.*}}samples

// CHECK-LABEL: func.func @tile_samples_split_roundtrip
// CHECK-SAME: rows = 16, wgmmaN = 8, wgmmaGroups = 2, samples = 2, clusterK = 2>
func.func @tile_samples_split_roundtrip() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 16, wgmmaN = 8, wgmmaGroups = 2, samples = 2, clusterK = 2>} {
  return
}

// -----

// CHECK-LABEL: func.func @tile_samples_split_two_groups
// CHECK-SAME: tileC = 128, {{.*}}rows = 8, wgmmaN = 8, wgmmaGroups = 4, samples = 4>
func.func @tile_samples_split_two_groups() attributes {cfg = #fuse.tile<tileW = 16, tileC = 128, threadsW = 8, threadsC = 64, chanPerThread = 1, ciChunk = 32, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 4, samples = 4>} {
  return
}

// -----

// expected-error@+1 {{rows (6) must be a multiple of the warpgroups per channel group (4)}}
func.func @tile_samples_split_rows() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 64, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 6, wgmmaN = 8, wgmmaGroups = 4, samples = 2>} {
  return
}

// -----

// expected-error@+1 {{samples > 0 needs wgmma with no merged H taps, no channel cluster and rows a multiple of samples}}
func.func @tile_samples_split_merged() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 16, mergeHTaps = 1, wgmmaN = 8, wgmmaGroups = 2, samples = 2>} {
  return
}

// -----

// expected-error@+1 {{samples > 0 needs wgmma with no merged H taps, no channel cluster and rows a multiple of samples}}
func.func @tile_samples_split_cluster_c() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 16, wgmmaN = 8, wgmmaGroups = 2, clusterC = 2, samples = 2>} {
  return
}

// -----

// expected-error@+1 {{wgmmaPhaseSplit > 1 needs wgmma with one row per warpgroup}}
func.func @tile_samples_split_phases() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 1, wgmmaN = 8, wgmmaGroups = 2, samples = 1, wgmmaPhaseSplit = 2>} {
  return
}
