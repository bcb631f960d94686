// fuse-convert-to-gpu{epilogue-math=...}: how the epilogue evaluates exp
// and sigmoid's 1 / (1 + exp(y)). `exact`: libdevice's expf (math.exp
// without fast-math flags) and rcp.approx refined by one Newton step, with
// results below 2^-126 flushed (the IEEE reciprocal's fast path, without
// its slow-path branch). `fast`: exp(x) as ex2.approx.ftz(x * c), c =
// log2(e) times the negations and power-of-two factors peeled off x (the
// softmax statistics: ex2.approx.ftz(fma(x, log2(e), -max log2(e)))), and
// rcp.approx alone. `auto` (default): fast for tf32 kernels, exact for
// ieee ones. `fast` also takes tanh as `tanh.approx.f32`.

// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=ieee},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s --check-prefix=EXACT
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=ieee},fuse-plan-kernels),fuse-convert-to-gpu{epilogue-math=exact})' | FileCheck %s --check-prefix=EXACT
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32},fuse-plan-kernels),fuse-convert-to-gpu{epilogue-math=exact})' | FileCheck %s --check-prefix=EXACT
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32},fuse-plan-kernels),fuse-convert-to-gpu)' | FileCheck %s --check-prefix=FAST
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=ieee},fuse-plan-kernels),fuse-convert-to-gpu{epilogue-math=fast})' | FileCheck %s --check-prefix=FAST
// RUN: not fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels),fuse-convert-to-gpu{epilogue-math=approx})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: fusecc-opt: for the --epilogue-math option: 'approx' is not a valid value (expected one of 'auto', 'exact', 'fast')
// BAD-NOT: gpu.func

// Channel softmax, then sigmoid: three exps (the softmax's, the sigmoid's)
// and one reciprocal per element.
// EXACT-LABEL: gpu.func @softmax_sigmoid_k0(
// EXACT-NOT:     fastmath
// EXACT:         %[[SE:.*]] = math.exp %{{.*}} : f32
// EXACT:         %[[E:.*]] = math.exp %{{.*}} : f32
// EXACT-NEXT:    %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// EXACT-NEXT:    %[[R0:.*]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
// EXACT:         %[[ND:.*]] = arith.negf %[[D]] : f32
// EXACT-NEXT:    %[[ERR:.*]] = math.fma %[[ND]], %[[R0]], %{{.*}} : f32
// EXACT-NEXT:    %[[R:.*]] = math.fma %[[R0]], %[[ERR]], %[[R0]] : f32
// EXACT:         %[[HUGE:.*]] = arith.cmpf oge, %[[D]], %{{.*}} : f32
// EXACT:         arith.select %[[HUGE]], %{{.*}}, %[[R]] : f32
// EXACT-NOT:     arith.divf
// EXACT-NOT:     fastmath
// EXACT:         gpu.return

// The softmax statistics: exp(x - max) as 2^(x log2(e) - max log2(e)),
// the product of the line's max computed once, one FMA per element.
// FAST-LABEL: gpu.func @softmax_sigmoid_k0(
// FAST-NOT:     math.exp
// FAST:         %[[NL:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// FAST:         scf.for
// FAST:         %[[L2E:.*]] = arith.constant 1.44269502 : f32
// FAST-NEXT:    %[[SX:.*]] = math.fma %{{.*}}, %[[L2E]], %[[NL]] : f32
// FAST-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[SX]]) : (f32) -> f32
// Sigmoid's exp(-y): the negation goes into the constant.
// FAST:         %[[NL2E:.*]] = arith.constant -1.44269502 : f32
// FAST-NEXT:    %[[Y:.*]] = arith.mulf %{{.*}}, %[[NL2E]] : f32
// FAST-NEXT:    %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[Y]]) : (f32) -> f32
// FAST-NEXT:    %[[D:.*]] = arith.addf %{{.*}}, %[[E]] : f32
// FAST-NEXT:    %[[R:.*]] = nvvm.rcp.approx.ftz.f %[[D]] : f32
// FAST-NOT:     arith.negf
// FAST-NOT:     math.exp
// FAST-NOT:     math.fma
// FAST-NOT:     arith.divf
// FAST:         gpu.return
func.func @softmax_sigmoid(%x: tensor<2x16x4x8xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x16x4x8xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x64x8x16xf32>
  %2 = fuse.sigmoid %1 : tensor<2x64x8x16xf32>
  return %2 : tensor<2x64x8x16xf32>
}

// -----

// tanh is libdevice's in `exact` and `tanh.approx.f32` in `fast` (the
// `llvm.tanh` intrinsic with `afn`, which the NVPTX backend emits as that
// one instruction; docs/perf.md 310); erf stays libdevice's and other
// divisions stay IEEE in both modes.
// EXACT-LABEL: gpu.func @others_k0(
// EXACT-NOT:     llvm.intr.tanh
// EXACT:         math.tanh %{{.*}} : f32
// EXACT:         math.erf %{{.*}} : f32
// EXACT:         arith.divf %{{.*}} : f32
// FAST-LABEL: gpu.func @others_k0(
// FAST-NOT:      math.tanh
// FAST:          %[[T:.*]] = llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// FAST:          math.erf %[[T]] : f32
// FAST:          arith.divf %{{.*}} : f32
func.func @others(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>, %d: tensor<1x8x7xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %1 = fuse.tanh %0 : tensor<1x8x7xf32>
  %2 = fuse.erf %1 : tensor<1x8x7xf32>
  %3 = fuse.div %2, %d : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
  return %3 : tensor<1x8x7xf32>
}

// -----

// A power-of-two factor before sigmoid joins the constant (x * 2 * -log2(e)
// rounds once either way) and its product goes (nothing else reads it).
// EXACT-LABEL: gpu.func @scaled_by_2_k0(
// EXACT:         arith.mulf %{{.*}}, %{{.*}} : f32
// EXACT:         math.exp %{{.*}} : f32
// FAST-LABEL: gpu.func @scaled_by_2_k0(
// FAST-NOT:     arith.mulf
// FAST:         %[[C:.*]] = arith.constant -2.885390e+00 : f32
// FAST-NEXT:    %[[Y:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// FAST-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[Y]]) : (f32) -> f32
// FAST:         gpu.return
func.func @scaled_by_2(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %two = arith.constant dense<2.0> : tensor<f32>
  %1 = fuse.mul %0, %two : tensor<1x8x7xf32>, tensor<f32> -> tensor<1x8x7xf32>
  %2 = fuse.sigmoid %1 : tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}

// -----

// Another factor is not exact to move: its product stays.
// FAST-LABEL: gpu.func @scaled_by_3_k0(
// FAST:         %[[T:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// FAST:         %[[NL2E:.*]] = arith.constant -1.44269502 : f32
// FAST-NEXT:    %[[Z:.*]] = arith.mulf %[[T]], %[[NL2E]] : f32
// FAST-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[Z]]) : (f32) -> f32
// FAST:         gpu.return
// EXACT-LABEL: gpu.func @scaled_by_3_k0(
// EXACT:         arith.mulf %{{.*}}, %{{.*}} : f32
// EXACT:         math.exp %{{.*}} : f32
func.func @scaled_by_3(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %three = arith.constant dense<3.0> : tensor<f32>
  %1 = fuse.mul %0, %three : tensor<1x8x7xf32>, tensor<f32> -> tensor<1x8x7xf32>
  %2 = fuse.sigmoid %1 : tensor<1x8x7xf32>
  return %2 : tensor<1x8x7xf32>
}
