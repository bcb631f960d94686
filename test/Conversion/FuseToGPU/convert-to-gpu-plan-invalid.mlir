// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuse-convert-to-gpu)'

// A recorded plan that does not hold together is rejected with the plan's
// location (KernelPlan::read).

// expected-error@+1 {{'func.func' op has a malformed plan buffer {elements = 0 : i64, first = 0 : i64, last = 0 : i64, role = "intermediate", type = f32}}}
func.func @empty_buffer(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = [{elements = 0 : i64, first = 0 : i64, last = 0 : i64, role = "intermediate", type = f32}]} {
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %0 : tensor<2x4x5xf32>
}

// -----

func.func @buffer_out_of_range(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op names plan buffer 3 of 0}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) {fuse.plan.result = 3 : i64} -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  %1 = fuse.kernel "k2" ins(%0 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.tanh %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %1 : tensor<2x4x5xf32>
}

// -----

func.func @intermediate_without_buffer(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op result has no buffer in the plan}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  %1 = fuse.kernel "k2" ins(%0 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.tanh %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %1 : tensor<2x4x5xf32>
}
