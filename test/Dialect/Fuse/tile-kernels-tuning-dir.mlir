// A tuning directory (`--tuning=DIR`, `fuse-tile-kernels{tuning-file=DIR}`)
// holds one tuning file per device: the module's target device picks
// DIR/<device>.json (tuning/h200.json for --device=h200, the default), and
// a device without a file there is left to the cost model. A file's
// "base" names a file whose entries apply where it has none of its own
// (h200.json: its own entry for @other, h100.json's for @relu).

// RUN: fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-dir --emit=fused | FileCheck %s --check-prefix=H200
// RUN: fusecc %s --precision=tf32 --device=h200 --tuning=%S/Inputs/tuning-dir/h200.json --emit=fused | FileCheck %s --check-prefix=H200
// RUN: fusecc %s --precision=tf32 --device=h100 --tuning=%S/Inputs/tuning-dir --emit=fused | FileCheck %s --check-prefix=H100
// RUN: fusecc %s --precision=tf32 --chip=sm_80 --device=a100 --tuning=%S/Inputs/tuning-dir --emit=fused | FileCheck %s --check-prefix=MODEL
// RUN: fusecc %s --precision=tf32 --emit=fused | FileCheck %s --check-prefix=MODEL
// RUN: fusecc-opt %s --pass-pipeline='builtin.module(fuse-attach-target{device=h100},func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 tuning-file=%S/Inputs/tuning-dir}))' | FileCheck %s --check-prefix=H100

// H200: fuse.kernel "relu_k0" {{.*}}tileC = 32,
// H100: fuse.kernel "relu_k0" {{.*}}tileC = 32,
// MODEL: fuse.kernel "relu_k0" {{.*}}tileC = 64,
func.func @relu(%x: tensor<2x16x4x16xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x16xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x32xf32>
  %1 = fuse.relu %0 : tensor<2x64x8x32xf32>
  return %1 : tensor<2x64x8x32xf32>
}

// H200: fuse.kernel "other_k0" {{.*}}tileC = 16,
// H100: fuse.kernel "other_k0" {{.*}}tileC = 32,
// MODEL: fuse.kernel "other_k0" {{.*}}tileC = 64,
func.func @other(%x: tensor<2x16x4x17xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x17xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x34xf32>
  %1 = fuse.relu %0 : tensor<2x64x8x34xf32>
  return %1 : tensor<2x64x8x34xf32>
}

// Bad bases are errors, named with the file that has them.
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-base-cycle.json --emit=fused 2>&1 | FileCheck %s --check-prefix=CYCLE
// CYCLE: error: fuse-tile-kernels: tuning file '{{.*}}tuning-base-cycle.json': a chain of "base" files longer than 8 (a cycle?)
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-base-missing.json --emit=fused 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: fuse-tile-kernels: cannot read tuning file '{{.*}}Inputs{{/|\\}}tuning-dir{{/|\\}}missing.json': No such file or directory
// RUN: not fusecc %s --precision=tf32 --tuning=%S/Inputs/tuning-base-bad.json --emit=fused 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: fuse-tile-kernels: tuning file '{{.*}}tuning-base-bad.json': "base" must be a file name
