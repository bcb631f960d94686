// Measured tile choices: `fuse-tile-kernels{tuning-file=...}` (fusecc
// --tuning) applies the rows / ci-chunk / tile-c of the entry whose key is
// the kernel's tuning key (`fusecc --emit=tuning-keys`); options given on
// the command line win; kernels the file does not list keep the cost model.

// RUN: fusecc %s --precision=tf32 --emit=tuning-keys | FileCheck %s --check-prefix=KEYS
// KEYS: relu_k0{{[[:space:]]}}tf32 r4 n2 c16x64 g1 b0 in1x4x16 k1x4x4 s1x2x2 p0x1x1 d1x1x1 out1x8x32 | conv_transpose relu
// KEYS-NEXT: softmax_k0{{[[:space:]]}}tf32 r4 n2 c16x64 g1 b0 in1x4x16 k1x4x4 s1x2x2 p0x1x1 d1x1x1 out1x8x32 | conv_transpose softmax
// KEYS-NEXT: other_k0{{[[:space:]]}}tf32 r4 n2 c16x64 g1 b0 in1x4x17 k1x4x4 s1x2x2 p0x1x1 d1x1x1 out1x8x34 | conv_transpose relu

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' | FileCheck %s --check-prefix=MODEL
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 tuning-file=%S/Inputs/tuning.json}))' | FileCheck %s --check-prefix=TUNED
// RUN: fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning.json --emit=fused | FileCheck %s --check-prefix=TUNED
// RUN: fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning.json --tile-c=16 --emit=fused | FileCheck %s --check-prefix=CLI
// RUN: fusecc %s --precision=tf32 --tile-warps-c=1 --emit=fused | FileCheck %s --check-prefix=WARPS1
// The key names the precision: the ieee kernel gets the FMA knobs of its
// own entry (threads, max-tile-w), never the tf32 entry's.
// RUN: fusecc %s --precision=ieee --emit=fused | FileCheck %s --check-prefix=IEEE-MODEL
// RUN: fusecc %s --precision=ieee --tuning=%S/Inputs/tuning.json --emit=fused | FileCheck %s --check-prefix=IEEE

// MODEL: fuse.kernel "relu_k0" {{.*}}tileC = 64,
// TUNED: fuse.kernel "relu_k0" {{.*}}tileC = 32,
// CLI: fuse.kernel "relu_k0" {{.*}}tileC = 16,
// IEEE-MODEL: fuse.kernel "relu_k0" {{.*}}#fuse.tile<tileW = 32, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 8, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
// IEEE: fuse.kernel "relu_k0" {{.*}}#fuse.tile<tileW = 16, tileC = 64, threadsW = 16, threadsC = 16, chanPerThread = 4, ciChunk = 16, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>
func.func @relu(%x: tensor<2x16x4x16xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x16xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32>
  %1 = fuse.relu %0 : tensor<2x64x8x32xf32>
  return %1 : tensor<2x64x8x32xf32>
}

// A channel softmax needs all channels in a block: the entry's tile-c does
// not apply, its rows do.
// MODEL: fuse.kernel "softmax_k0" {{.*}}tileC = 64,{{.*}}rows = 4>
// One channel warp holds all 4 channel tiles of 16 (and 4 rows of one
// 8-position tile per W-position warp).
// WARPS1: fuse.kernel "softmax_k0" {{.*}}tileC = 64,{{.*}}mmaWarpsC = 1, mmaWarpsW = 2, mmaTilesC = 4, mmaTilesW = 1, rows = 4>
// TUNED: fuse.kernel "softmax_k0" {{.*}}tileC = 64,{{.*}}mmaTilesW = 1>}
// CLI: fuse.kernel "softmax_k0" {{.*}}tileC = 64,{{.*}}mmaTilesW = 1>}
func.func @softmax(%x: tensor<2x16x4x16xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x16xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x64x8x32xf32>
  return %1 : tensor<2x64x8x32xf32>
}

// Another shape: not in the file, the cost model decides.
// MODEL: fuse.kernel "other_k0" {{.*}}tileC = 64,
// TUNED: fuse.kernel "other_k0" {{.*}}tileC = 64,
func.func @other(%x: tensor<2x16x4x17xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x17xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x34xf32>
  %1 = fuse.relu %0 : tensor<2x64x8x34xf32>
  return %1 : tensor<2x64x8x34xf32>
}

// Bad tuning files are errors, not silently ignored.
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/missing.json --emit=fused 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: fuse-tile-kernels: cannot read tuning file '{{.*}}missing.json': No such file or directory
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-not-json.json --emit=fused 2>&1 | FileCheck %s --check-prefix=NOTJSON
// NOTJSON: error: fuse-tile-kernels: tuning file '{{.*}}tuning-not-json.json' is not JSON
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-no-entries.json --emit=fused 2>&1 | FileCheck %s --check-prefix=NOENTRIES
// NOENTRIES: error: fuse-tile-kernels: tuning file '{{.*}}tuning-no-entries.json' has no "entries" array
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-no-key.json --emit=fused 2>&1 | FileCheck %s --check-prefix=NOKEY
// NOKEY: error: fuse-tile-kernels: tuning file '{{.*}}tuning-no-key.json': entry 0 has no "key" string
// RUN: not fusecc %s --precision=ieee --tuning=%S/Inputs/tuning-bad-threads.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BADTHREADS
// BADTHREADS: error: fuse-tile-kernels: tuning file '{{.*}}tuning-bad-threads.json' entry for this kernel: threads must be in [32, 1024], got 2048
// RUN: not fusecc %s --precision=ieee --tuning=%S/Inputs/tuning-bad-max-tile-w.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BADMAXW
// BADMAXW: error: fuse-tile-kernels: tuning file '{{.*}}tuning-bad-max-tile-w.json' entry for this kernel: max-tile-w must be >= 8, got 4
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-bad-rows.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BADROWS
// The error is located at the layer (the convolution) the entry is for.
// BADROWS: tile-kernels-tuning.mlir:[[@LINE-49]]:8: error: fuse-tile-kernels: tuning file '{{.*}}tuning-bad-rows.json' entry for this kernel: rows must be 0 (auto), 1, 2, 4 or 8 (wgmma), got 3
// An entry's "wgmma": -1 keeps a kernel on mma.sync where wgmma would be
// used (here forced: by default sm_90a keeps grids smaller than one wave,
// like these, on mma.sync); "wgmma": 1 puts it on wgmma even then; values
// other than -1, 0, 1 are rejected.
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=WGOFF
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused | FileCheck %s --check-prefix=WGDEFAULT
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=1 --tuning=%S/Inputs/tuning-no-wgmma.json --emit=fused | FileCheck %s --check-prefix=WGOFF
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tuning=%S/Inputs/tuning-force-wgmma.json --emit=fused | FileCheck %s --check-prefix=WGDEFAULT
// RUN: not fusecc %s --precision=tf32 --chip=sm_90a --tuning=%S/Inputs/tuning-bad-wgmma.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BADWGMMA
// WGDEFAULT: fuse.kernel "relu_k0" {{.*}}wgmmaN = 16, wgmmaGroups = {{[0-9]+}}
// WGOFF: fuse.kernel "relu_k0" {{.*}}types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC =
// (A config with mma.sync tiles cannot also have wgmma: the verifier
// rejects both.)
// BADWGMMA: error: fuse-tile-kernels: tuning file '{{.*}}tuning-bad-wgmma.json' entry for this kernel: wgmma must be -1 (mma.sync), 0 (default) or 1, got 2
// RUN: not fusecc %s --precision=tf32 --chip=sm_90a --tuning=%S/Inputs/tuning-bad-cluster.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BADCLUSTER
// BADCLUSTER: error: fuse-tile-kernels: tuning file '{{.*}}tuning-bad-cluster.json' entry for this kernel: cluster-c must be 0 (auto), 1, 2, 4 or 8, got 16
