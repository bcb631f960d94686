// RUN: fusecc-opt %s --fuse-attach-target='chip=sm_90a' | FileCheck %s

// A module that already names the target it is compiled for keeps it.
// CHECK-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>}
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
}
