// RUN: fusecc-opt %s -split-input-file | fusecc-opt -split-input-file | FileCheck %s

// The target attribute (#fuse.target, fusecc::TargetInfo) round-trips with
// the chip's and the device's option spellings (fusecc/Support/Options.h).

// CHECK-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>}
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
}

// -----

// CHECK-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_80, device = h100>}
module attributes {fuse.target = #fuse.target<chip = sm_80, device = h100>} {
}

// -----

// A string spelling parses too; it prints as a keyword.
// CHECK-LABEL: module attributes {fuse.target = #fuse.target<chip = sm_90, device = h100>}
module attributes {fuse.target = #fuse.target<chip = "sm_90", device = "h100">} {
}
