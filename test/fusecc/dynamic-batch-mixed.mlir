// A --max-batch module with a static function beside a dynamic one: only
// the entry with a batched argument has a launch-time batch (`max_batch`,
// `b`); the other stays static in the same version-4 bundle, and the
// simulator runs both at every batch checked.

// RUN: fusecc %s --max-batch=4 -o - | FileCheck %s
// RUN: fusecc-check %s --max-batch=4 --batch=1,3 | FileCheck %s --check-prefix=SIM

// CHECK: fusecc-bundle 4
// CHECK: entry dyn args 2 workspaces 0 steps 1 max_batch 4
// CHECK-NEXT: arg 0 in arg0 f32 2 b 4
// CHECK: launch dyn_k0 grid 1 1 b
// CHECK: entry fixed args 2 workspaces 0 steps 1{{$}}
// CHECK-NEXT: arg 0 in arg0 f32 2 2 4
// CHECK: launch fixed_k0 grid 1 1 1

// SIM-DAG: @dyn[batch=1]: PASS
// SIM-DAG: @dyn[batch=3]: PASS
// SIM-DAG: @fixed[batch=3]: PASS

func.func @dyn(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = fuse.relu %x : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

func.func @fixed(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = fuse.tanh %x : tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
