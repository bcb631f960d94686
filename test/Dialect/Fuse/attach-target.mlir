// RUN: fusecc-opt %s --fuse-attach-target | FileCheck %s
// RUN: fusecc-opt %s --fuse-attach-target='chip=sm_90a device=h100' | FileCheck %s --check-prefix=H100
// RUN: fusecc-opt %s --fuse-attach-target='chip=sm_80 device=a100' | FileCheck %s --check-prefix=A100
// RUN: fusecc-opt %s --fusecc-pipeline='precision=tf32 chip=sm_90a device=h200' | FileCheck %s --check-prefix=PIPELINE
// RUN: not fusecc-opt %s --fuse-attach-target='device=b200' 2>&1 | FileCheck %s --check-prefix=BADDEVICE
// RUN: not fusecc %s --device=a100 2>&1 | FileCheck %s --check-prefix=FUSECC

// fuse-attach-target records the chip and device on the module (defaults:
// sm_90 on an h200, the pipeline's); the pipeline runs it first.
// (attach-target-keep.mlir: a module that names the same target.)

// CHECK-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90, device = h200>}
// H100-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h100>}
// A100-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_80, device = a100>}
// PIPELINE-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>
// PIPELINE: gpu.func @relu_k0
// FUSECC: error: --device=a100 does not run --chip=sm_90 code
// BADDEVICE: for the --device option: 'b200' is not a valid value (expected one of 'a100', 'h100', 'h200')
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

