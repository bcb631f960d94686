// RUN: fusecc-opt %s -split-input-file -verify-diagnostics

// Malformed targets: unknown spellings name the ones the parameter takes;
// `fuse.target` must be a #fuse.target, and on a module.

// expected-error @+2 {{expected one of 'sm_80', 'sm_90', 'sm_90a', got 'sm_100'}}
// expected-error @+1 {{failed to parse Fuse_TargetAttr parameter 'chip'}}
module attributes {fuse.target = #fuse.target<chip = sm_100, device = h200>} {
}

// -----

// expected-error @+2 {{expected one of 'a100', 'h100', 'h200', got 'b200'}}
// expected-error @+1 {{failed to parse Fuse_TargetAttr parameter 'device'}}
module attributes {fuse.target = #fuse.target<chip = sm_90, device = b200>} {
}

// -----

// Both parameters, in order.
// expected-error @+1 {{expected ','}}
module attributes {fuse.target = #fuse.target<chip = sm_90>} {
}

// -----

// A device runs its own chip's code and older chips': not an A100 sm_90a.
// expected-error @+1 {{device 'a100' does not run 'sm_90a' code}}
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = a100>} {
}

// -----

// expected-error @+1 {{expected 'fuse.target' to be a #fuse.target, got "sm_90a"}}
module attributes {fuse.target = "sm_90a"} {
}

// -----

module {
  // expected-error @+1 {{'fuse.target' belongs on a module, not on 'func.func'}}
  func.func @f() attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
    return
  }
}
