// RUN: fusecc-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not fusecc-opt %S/tile-kernels-options.mlir --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{cluster-k=3}))' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: fusecc %S/../../Reference/cluster-k.mlir --chip=sm_90a --tile-wgmma=always --precision=tf32 --tuning=%S/Inputs/tuning-cluster-k.json --emit=fused | FileCheck %s --check-prefix=TUNED
// RUN: fusecc %S/../../Reference/cluster-k.mlir --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=-1 --tuning=%S/Inputs/tuning-cluster-k.json --emit=fused | FileCheck %s --check-prefix=NEVER
// TileConfigAttr::clusterK (a wgmma tile's reduction split over a thread
// block cluster): printed where it is not 1, verified (wgmma only, 1 / 2 /
// 4 / 8, not with clusterC or tf32x3), forced by the option or a tuning
// entry's "cluster_k" (-1: never).

// OPT: error: fuse-tile-kernels: cluster-k must be -1 (never), 0 (auto), 2, 4 or 8, got 3
// TUNED: fuse.kernel "k_heatmap_like_k0" {{.*}}clusterK = 4>
// TUNED-NOT: clusterK
// NEVER-NOT: clusterK

// CHECK-LABEL: func.func @tile_cluster_k_roundtrip
// CHECK-SAME: wgmmaN = 8, wgmmaGroups = 1, samples = 1, clusterK = 2>
func.func @tile_cluster_k_roundtrip() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 1, samples = 1, clusterK = 2>} {
  return
}

// -----

// CHECK-LABEL: func.func @tile_cluster_k_one
// CHECK-NOT: clusterK
func.func @tile_cluster_k_one() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 1, clusterK = 1>} {
  return
}

// -----

// expected-error@+1 {{clusterK must be 1, 2, 4 or 8, got 3}}
func.func @tile_cluster_k_three() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 1, clusterK = 3>} {
  return
}

// -----

// expected-error@+1 {{clusterK must be 1, 2, 4 or 8, got 16}}
func.func @tile_cluster_k_sixteen() attributes {cfg = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 32, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, rows = 8, wgmmaN = 8, wgmmaGroups = 1, clusterK = 16>} {
  return
}

// -----

// expected-error@+1 {{clusterK > 1 needs the wgmma path without clusterC or tf32x3}}
func.func @tile_cluster_k_mma() attributes {cfg = #fuse.tile<tileW = 64, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 2, mmaTilesC = 2, mmaTilesW = 2, clusterK = 2>} {
  return
}

// -----

// expected-error@+1 {{clusterK > 1 needs the wgmma path without clusterC or tf32x3}}
func.func @tile_cluster_k_and_c() attributes {cfg = #fuse.tile<tileW = 144, tileC = 64, threadsW = 8, threadsC = 32, chanPerThread = 1, ciChunk = 16, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, wgmmaN = 72, wgmmaGroups = 2, clusterC = 2, clusterK = 2>} {
  return
}

// -----

// expected-error@+1 {{clusterK > 1 needs the wgmma path without clusterC or tf32x3}}
func.func @tile_cluster_k_split() attributes {cfg = #fuse.tile<tileW = 80, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 16, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 80, wgmmaGroups = 1, clusterK = 2>} {
  return
}
