// RUN: fusecc-opt %s --fuse-attach-target='chip=sm_90a' -verify-diagnostics
// RUN: not fusecc-opt %s --fuse-attach-target='chip=sm_90a device=a100' 2>&1 | FileCheck %s --check-prefix=MISMATCH

// A device that does not run the chip's code is no target.
// MISMATCH: error: fuse-attach-target: device 'a100' does not run 'sm_90a' code

// A module that names another target is not retargeted silently.

// expected-error @+1 {{fuse-attach-target: the module targets #fuse.target<chip = sm_90, device = h200>, the pipeline was asked for #fuse.target<chip = sm_90a, device = h200>}}
module attributes {fuse.target = #fuse.target<chip = sm_90, device = h200>} {
}
