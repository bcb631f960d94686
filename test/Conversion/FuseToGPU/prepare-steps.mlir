// Prepare steps (PrepareSteps.cpp, a step of fuse-convert-to-gpu): the
// launches that read only parameters (constants, a convolution's weight,
// rank <= 1 inputs) and write only workspaces that prepare steps alone
// write, used by the other launches only after the last of them, carry
// fuse.prepare; their workspaces take the `prepared` role (the bundle lists
// them first, `prepare <P>`, and the runtime runs them once per weight
// value). Every other launch, and a workspace a later per-call or
// per-sample launch reuses, stays per call. Inputs are planned kernels
// (fuse-plan-kernels' output; the last three hand-written).

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(fuse-convert-to-gpu)' | FileCheck %s

// A wgmma convolution (tf32): the weight re-layout reads the weight alone,
// a prepare step into a `prepared` workspace; the input re-layout and the
// convolution read the input, per call, the input's workspace scratch.
// CHECK-LABEL: func.func @wpack(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<2x16x4x8xf32>, %[[W:[a-z0-9]+]]: memref<16x64x4x4xf32>
// CHECK:         %[[WS:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<16384xf32>
// CHECK:         gpu.launch_func @fusecc_kernels::@wpack_k0_wpack {{.*}} args(%[[W]] : memref<16x64x4x4xf32>, %[[WS]] : memref<16384xf32>) {fuse.prepare}
// CHECK:         %[[IS:.*]] = memref.alloc() {fuse.role = "scratch"} : memref<2048xf32>
// CHECK:         gpu.launch_func @fusecc_kernels::@wpack_k0_ipack {{.*}} args(%[[X]] : memref<2x16x4x8xf32>, %[[IS]] : memref<2048xf32>){{$}}
// CHECK:         gpu.launch_func @fusecc_kernels::@wpack_k0 {{.*}} args(%[[X]] : {{.*}}, %[[WS]] : memref<16384xf32>, %[[IS]] : memref<2048xf32>, {{.*}}){{$}}
module {
  func.func @wpack(%arg0: tensor<2x16x4x8xf32>, %arg1: tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32> attributes {fuse.plan.buffers = []} {
    %0 = fuse.kernel "wpack_k0" ins(%arg0, %arg1 : tensor<2x16x4x8xf32>, tensor<16x64x4x4xf32>) {config = #fuse.tile<tileW = 16, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 8, wgmmaGroups = 1>} -> tensor<2x64x8x16xf32> {
    ^bb0(%arg2: tensor<2x16x4x8xf32>, %arg3: tensor<16x64x4x4xf32>):
      %1 = fuse.conv_transpose %arg2, %arg3 {dilation = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x16x4x8xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32>
      fuse.yield %1 : tensor<2x64x8x16xf32>
    }
    return %0 : tensor<2x64x8x16xf32>
  }
}

// -----

// A batch_norm in bf16 (widened to f32): its scale and shift come from the
// rank-1 parameters through one-block kernels, each a prepare step into a
// `prepared` workspace, the first one reused by later prepare steps alone
// (written by bn_k2, read by bn_k3, written again by bn_k4): it stays
// prepared. The convolution reads the input: per call.
// CHECK-LABEL: func.func @bn(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<2x16x8x8xbf16>, %[[W:[a-z0-9]+]]: memref<16x64x4x4xbf16>, %[[G:[a-z0-9]+]]: memref<64xbf16>, %[[B:[a-z0-9]+]]: memref<64xbf16>, %[[M:[a-z0-9]+]]: memref<64xbf16>, %[[V:[a-z0-9]+]]: memref<64xbf16>
// CHECK:         %[[P0:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<64xf32>
// CHECK:         %[[P1:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<64xf32>
// CHECK:         %[[P2:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<64xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch_func @fusecc_kernels::@bn_k2 {{.*}} args(%[[G]] : memref<64xbf16>, %[[P0]] : memref<64xf32>) {fuse.prepare}
// CHECK:         gpu.launch_func @fusecc_kernels::@bn_k3 {{.*}} args(%[[V]] : memref<64xbf16>, %[[P0]] : memref<64xf32>, %{{.*}} : memref<64x1x1xf32>) {fuse.prepare}
// CHECK:         %[[P0R:.*]] = memref.reinterpret_cast %[[P0]] to
// CHECK:         gpu.launch_func @fusecc_kernels::@bn_k4 {{.*}} args(%[[M]] : memref<64xbf16>, %[[P0R]] : memref<64x1x1xf32>) {fuse.prepare}
// CHECK:         gpu.launch_func @fusecc_kernels::@bn_k1 {{.*}} args(%[[B]] : memref<64xbf16>, %{{.*}} : memref<64x1x1xf32>) {fuse.prepare}
// CHECK:         gpu.launch_func @fusecc_kernels::@bn_k0 {{.*}} args(%[[X]] : memref<2x16x8x8xbf16>, %[[W]] : memref<16x64x4x4xbf16>, %[[P0R]] : memref<64x1x1xf32>, {{.*}}){{$}}
module {
  func.func @bn(%arg0: tensor<2x16x8x8xbf16>, %arg1: tensor<16x64x4x4xbf16>, %arg2: tensor<64xbf16>, %arg3: tensor<64xbf16>, %arg4: tensor<64xbf16>, %arg5: tensor<64xbf16>) -> tensor<2x64x16x16xbf16> attributes {fuse.plan.buffers = [{elements = 64 : i64, first = 0 : i64, last = 4 : i64, role = "intermediate", type = f32}, {elements = 64 : i64, first = 1 : i64, last = 4 : i64, role = "intermediate", type = f32}, {elements = 64 : i64, first = 3 : i64, last = 4 : i64, role = "intermediate", type = f32}]} {
    %cst = arith.constant dense<9.99999974E-6> : tensor<f32>
    %0 = fuse.kernel "bn_k2" ins(%arg2 : tensor<64xbf16>) {fuse.plan.result = 0 : i64} -> tensor<64xf32> {
    ^bb0(%arg6: tensor<64xbf16>):
      %5 = fuse.cast %arg6 : tensor<64xbf16> -> tensor<64xf32>
      fuse.yield %5 : tensor<64xf32>
    }
    %1 = fuse.kernel "bn_k3" ins(%arg5, %0 : tensor<64xbf16>, tensor<64xf32>) {fuse.plan.result = 1 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%arg6: tensor<64xbf16>, %arg7: tensor<64xf32>):
      %5 = fuse.cast %arg6 : tensor<64xbf16> -> tensor<64xf32>
      %cst_0 = arith.constant dense<9.99999974E-6> : tensor<f32>
      %6 = fuse.add %5, %cst_0 : tensor<64xf32>, tensor<f32> -> tensor<64xf32>
      %7 = fuse.rsqrt %6 : tensor<64xf32>
      %8 = fuse.mul %7, %arg7 : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
      %9 = fuse.reshape %8 : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %9 : tensor<64x1x1xf32>
    }
    %2 = fuse.kernel "bn_k4" ins(%arg4 : tensor<64xbf16>) {fuse.plan.result = 0 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%arg6: tensor<64xbf16>):
      %5 = fuse.cast %arg6 : tensor<64xbf16> -> tensor<64xf32>
      %6 = fuse.reshape %5 : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %6 : tensor<64x1x1xf32>
    }
    %3 = fuse.kernel "bn_k1" ins(%arg3 : tensor<64xbf16>) {fuse.plan.result = 2 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%arg6: tensor<64xbf16>):
      %5 = fuse.cast %arg6 : tensor<64xbf16> -> tensor<64xf32>
      %6 = fuse.reshape %5 : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %6 : tensor<64x1x1xf32>
    }
    %4 = fuse.kernel "bn_k0" ins(%arg0, %arg1, %2, %1, %3 : tensor<2x16x8x8xbf16>, tensor<16x64x4x4xbf16>, tensor<64x1x1xf32>, tensor<64x1x1xf32>, tensor<64x1x1xf32>) {config = #fuse.tile<tileW = 16, tileC = 64, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 16, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC = 2, mmaWarpsW = 1, mmaTilesC = 2, mmaTilesW = 1, rows = 4>} -> tensor<2x64x16x16xbf16> {
    ^bb0(%arg6: tensor<2x16x8x8xbf16>, %arg7: tensor<16x64x4x4xbf16>, %arg8: tensor<64x1x1xf32>, %arg9: tensor<64x1x1xf32>, %arg10: tensor<64x1x1xf32>):
      %5 = fuse.cast %arg6 : tensor<2x16x8x8xbf16> -> tensor<2x16x8x8xf32>
      %6 = fuse.cast %arg7 : tensor<16x64x4x4xbf16> -> tensor<16x64x4x4xf32>
      %7 = fuse.conv_transpose %5, %6 {dilation = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, padding = array<i64: 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x16x8x8xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x16x16xf32>
      %8 = fuse.sub %7, %arg8 : tensor<2x64x16x16xf32>, tensor<64x1x1xf32> -> tensor<2x64x16x16xf32>
      %9 = fuse.mul %8, %arg9 : tensor<2x64x16x16xf32>, tensor<64x1x1xf32> -> tensor<2x64x16x16xf32>
      %10 = fuse.add %9, %arg10 : tensor<2x64x16x16xf32>, tensor<64x1x1xf32> -> tensor<2x64x16x16xf32>
      %11 = fuse.relu %10 : tensor<2x64x16x16xf32>
      %12 = fuse.cast %11 : tensor<2x64x16x16xf32> -> tensor<2x64x16x16xbf16>
      fuse.yield %12 : tensor<2x64x16x16xbf16>
    }
    return %4 : tensor<2x64x16x16xbf16>
  }
}

// -----

// A per-channel vector of a parameter in a workspace of its own, read by a
// per-call kernel: a prepare step, the workspace `prepared`.
// CHECK-LABEL: func.func @own(
// CHECK:         %[[P:.*]] = memref.alloc() {fuse.role = "prepared"} : memref<4096xf32>
// CHECK:         %[[PR:.*]] = memref.reinterpret_cast %[[P]] to
// CHECK:         gpu.launch_func @fusecc_kernels::@own_k0 {{.*}} args(%{{.*}} : memref<64xf32>, %[[PR]] : memref<64x1x1xf32>) {fuse.prepare}
// CHECK:         gpu.launch_func @fusecc_kernels::@own_k1 {{.*}}){{$}}
// CHECK:         gpu.launch_func @fusecc_kernels::@own_k2 {{.*}}){{$}}
// CHECK:         gpu.launch_func @fusecc_kernels::@own_k3 {{.*}}){{$}}
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @own(%x: tensor<1x64x8x8xf32>, %g: tensor<64xf32>) -> (tensor<1x64x8x8xf32>) attributes {fuse.plan.buffers = [{elements = 4096 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}, {elements = 4096 : i64, first = 1 : i64, last = 2 : i64, role = "intermediate", type = f32}, {elements = 4096 : i64, first = 2 : i64, last = 3 : i64, role = "intermediate", type = f32}]} {
    %0 = fuse.kernel "own_k0" ins(%g : tensor<64xf32>) {fuse.plan.result = 0 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%a: tensor<64xf32>):
      %s = fuse.mul %a, %a : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
      %r = fuse.reshape %s : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %r : tensor<64x1x1xf32>
    }
    %1 = fuse.kernel "own_k1" ins(%x, %0 : tensor<1x64x8x8xf32>, tensor<64x1x1xf32>) {fuse.plan.result = 1 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<64x1x1xf32>):
      %m = fuse.mul %a, %b : tensor<1x64x8x8xf32>, tensor<64x1x1xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %m : tensor<1x64x8x8xf32>
    }
    %2 = fuse.kernel "own_k2" ins(%1 : tensor<1x64x8x8xf32>) {fuse.plan.result = 2 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>):
      %r = fuse.relu %a : tensor<1x64x8x8xf32>
      fuse.yield %r : tensor<1x64x8x8xf32>
    }
    %3 = fuse.kernel "own_k3" ins(%2, %x : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<1x64x8x8xf32>):
      %s = fuse.add %a, %b : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %s : tensor<1x64x8x8xf32>
    }
    return %3 : tensor<1x64x8x8xf32>
  }
}

// -----

// The same, but the plan reuses the vector's buffer for a later per-call
// result (reuse_static_k2 writes it from the input): the vector kernel is
// no prepare step (its value would be overwritten at every call) and the
// workspace stays an intermediate.
// CHECK-LABEL: func.func @reuse_static(
// CHECK:         %[[A:.*]] = memref.alloc() {fuse.role = "intermediate"} : memref<4096xf32>
// CHECK-NOT:     prepare
// CHECK:         %[[AR:.*]] = memref.reinterpret_cast %[[A]] to
// CHECK:         gpu.launch_func @fusecc_kernels::@reuse_static_k0 {{.*}} args(%{{.*}} : memref<64xf32>, %[[AR]] : memref<64x1x1xf32>){{$}}
// CHECK-NOT:     prepare
// CHECK:         %[[A2:.*]] = memref.reinterpret_cast %[[A]] to
// CHECK:         gpu.launch_func @fusecc_kernels::@reuse_static_k2 {{.*}} args(%{{.*}} : memref<1x64x8x8xf32>, %[[A2]] : memref<1x64x8x8xf32>){{$}}
// CHECK-NOT:     prepare
// CHECK:         return
module attributes {fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @reuse_static(%x: tensor<1x64x8x8xf32>, %g: tensor<64xf32>) -> (tensor<1x64x8x8xf32>) attributes {fuse.plan.buffers = [{elements = 4096 : i64, first = 0 : i64, last = 3 : i64, role = "intermediate", type = f32}, {elements = 4096 : i64, first = 1 : i64, last = 2 : i64, role = "intermediate", type = f32}]} {
    %0 = fuse.kernel "reuse_static_k0" ins(%g : tensor<64xf32>) {fuse.plan.result = 0 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%a: tensor<64xf32>):
      %s = fuse.mul %a, %a : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
      %r = fuse.reshape %s : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %r : tensor<64x1x1xf32>
    }
    %1 = fuse.kernel "reuse_static_k1" ins(%x, %0 : tensor<1x64x8x8xf32>, tensor<64x1x1xf32>) {fuse.plan.result = 1 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<64x1x1xf32>):
      %m = fuse.mul %a, %b : tensor<1x64x8x8xf32>, tensor<64x1x1xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %m : tensor<1x64x8x8xf32>
    }
    %2 = fuse.kernel "reuse_static_k2" ins(%1 : tensor<1x64x8x8xf32>) {fuse.plan.result = 0 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>):
      %r = fuse.relu %a : tensor<1x64x8x8xf32>
      fuse.yield %r : tensor<1x64x8x8xf32>
    }
    %3 = fuse.kernel "reuse_static_k3" ins(%2, %x : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<1x64x8x8xf32>):
      %s = fuse.add %a, %b : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %s : tensor<1x64x8x8xf32>
    }
    return %3 : tensor<1x64x8x8xf32>
  }
}

// -----

// Dynamic batch: the reused buffer holds a per-sample result, so it is a
// per-sample workspace and every launch writing it runs per sample, the
// vector kernel included; none is a prepare step.
// CHECK-LABEL: func.func @reuse(
// CHECK:         %[[A:.*]] = memref.alloc() {fuse.per_sample, fuse.role = "intermediate"} : memref<4096xf32>
// CHECK-NOT:     prepare
// CHECK:         gpu.launch_func @fusecc_kernels::@reuse_k0 {{.*}} args(%{{.*}} : memref<64xf32>, %{{.*}} : memref<64x1x1xf32>) {fuse.per_sample}
// CHECK-NOT:     prepare
// CHECK:         gpu.launch_func @fusecc_kernels::@reuse_k2 {{.*}} {fuse.per_sample}
// CHECK-NOT:     prepare
// CHECK:         return
module attributes {fuse.max_batch = 4 : i64, fuse.target = #fuse.target<chip = sm_90a, device = h200>} {
  func.func @reuse(%x: tensor<1x64x8x8xf32> {fuse.batched}, %g: tensor<64xf32>) -> (tensor<1x64x8x8xf32> {fuse.batched}) attributes {fuse.plan.buffers = [{elements = 4096 : i64, first = 0 : i64, last = 3 : i64, role = "intermediate", type = f32}, {elements = 4096 : i64, first = 1 : i64, last = 2 : i64, role = "intermediate", type = f32}]} {
    %0 = fuse.kernel "reuse_k0" ins(%g : tensor<64xf32>) {fuse.plan.result = 0 : i64} -> tensor<64x1x1xf32> {
    ^bb0(%a: tensor<64xf32>):
      %s = fuse.mul %a, %a : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
      %r = fuse.reshape %s : tensor<64xf32> -> tensor<64x1x1xf32>
      fuse.yield %r : tensor<64x1x1xf32>
    }
    %1 = fuse.kernel "reuse_k1" ins(%x, %0 : tensor<1x64x8x8xf32>, tensor<64x1x1xf32>) {fuse.plan.result = 1 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<64x1x1xf32>):
      %m = fuse.mul %a, %b : tensor<1x64x8x8xf32>, tensor<64x1x1xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %m : tensor<1x64x8x8xf32>
    }
    %2 = fuse.kernel "reuse_k2" ins(%1 : tensor<1x64x8x8xf32>) {fuse.plan.result = 0 : i64} -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>):
      %r = fuse.relu %a : tensor<1x64x8x8xf32>
      fuse.yield %r : tensor<1x64x8x8xf32>
    }
    %3 = fuse.kernel "reuse_k3" ins(%2, %x : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32> {
    ^bb0(%a: tensor<1x64x8x8xf32>, %b: tensor<1x64x8x8xf32>):
      %s = fuse.add %a, %b : tensor<1x64x8x8xf32>, tensor<1x64x8x8xf32> -> tensor<1x64x8x8xf32>
      fuse.yield %s : tensor<1x64x8x8xf32>
    }
    return %3 : tensor<1x64x8x8xf32>
  }
}
