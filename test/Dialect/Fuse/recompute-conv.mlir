// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-recompute-conv{precision=tf32}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-recompute-conv{precision=ieee}))' | FileCheck %s --check-prefix=KEEP
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-recompute-conv{precision=tf32 tflops=0.001}))' | FileCheck %s --check-prefix=KEEP
// RUN: fusecc %s --precision=tf32 --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --precision=tf32 --plan-recompute-conv=false --emit=plan | FileCheck %s --check-prefix=NORE

// kb2_38's shape of graph: a softmax over all spatial positions (through
// a view) of a convolution's epilogue value that nothing else reads. With
// tf32 and a conv cheap for its result's bytes (here ~5 FLOP per byte,
// against 2 x 300 TFLOP/s / 2.5 TB/s = 240), the softmax becomes
// exp(P' - lse): lse over P (H, W), P' the conv and clamp recomputed. ieee
// kernels, or a slow enough tensor-core rate, keep the softmax.
// CHECK-LABEL: func.func @softmax_view
// CHECK: %[[C:.*]] = fuse.conv_transpose %arg0, %arg1, %arg2
// CHECK-NEXT: %[[P:.*]] = fuse.clamp %[[C]]
// CHECK-NEXT: %[[L:.*]] = fuse.logsumexp %[[P]] {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x8x5x7xf32> -> tensor<2x8x1x1xf32>
// CHECK-NEXT: %[[Z:.*]] = fuse.sub %[[L]], %[[L]]
// CHECK-NEXT: %[[LN:.*]] = fuse.add %[[L]], %[[Z]]
// CHECK-NEXT: %[[C2:.*]] = fuse.conv_transpose %arg0, %arg1, %arg2
// CHECK-NEXT: %[[P2:.*]] = fuse.clamp %[[C2]]
// CHECK-NEXT: %[[D:.*]] = fuse.sub %[[P2]], %[[LN]] : tensor<2x8x5x7xf32>, tensor<2x8x1x1xf32> -> tensor<2x8x5x7xf32>
// CHECK-NEXT: %[[E:.*]] = fuse.exp %[[D]]
// CHECK-NEXT: %[[M:.*]] = fuse.mul %[[E]], %arg3
// CHECK-NEXT: return %[[M]]
// CHECK-NOT: fuse.softmax
// KEEP-LABEL: func.func @softmax_view
// KEEP: fuse.softmax
// KEEP-NOT: fuse.logsumexp
// PLAN-LABEL: plan @softmax_view: 3 kernels
// PLAN: step 0 softmax_view_k0 (convolution)
// PLAN: keeps its result (2x8x5x7xf32) on chip, partial statistics (max, sum of exp) of 8 groups per sample to b0
// PLAN: step 1 {{.*}} (reduction: logsumexp, 16 sets of 35, partial statistics from softmax_view_k0's epilogue
// PLAN-NEXT: reads (on chip)
// PLAN-NEXT: writes b1 (2x8x1x1xf32)
// PLAN: step 2 {{.*}} (convolution)
// PLAN-NEXT: reads arg0 arg1 arg2 b1 arg3
// PLAN-NEXT: writes result (2x8x5x7xf32)
// NORE-LABEL: plan @softmax_view: 2 kernels
// NORE: partial statistics (max, sum of exp) of 8 groups per sample
// NORE: (normalization: softmax, 16 sets of 35, partial statistics from
func.func @softmax_view(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>, %b: tensor<8xf32>, %s: tensor<1x8x1x1xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>, tensor<8xf32>) -> tensor<2x8x5x7xf32>
  %0 = fuse.clamp %c {min = 0.0 : f64, max = 1.0 : f64} : tensor<2x8x5x7xf32>
  %1 = fuse.reshape %0 : tensor<2x8x5x7xf32> -> tensor<2x8x35xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<2x8x35xf32>
  %3 = fuse.reshape %2 : tensor<2x8x35xf32> -> tensor<2x8x5x7xf32>
  %4 = fuse.mul %3, %s : tensor<2x8x5x7xf32>, tensor<1x8x1x1xf32> -> tensor<2x8x5x7xf32>
  return %4 : tensor<2x8x5x7xf32>
}

// -----

// One set per sample: logsumexp over C, H, W.
// CHECK-LABEL: func.func @softmax_all_nonbatch
// CHECK: fuse.logsumexp %{{.*}} {dims = array<i64: 1, 2, 3>, keepdim = true} : tensor<2x8x5x7xf32> -> tensor<2x1x1x1xf32>
// CHECK: fuse.conv_transpose
// CHECK: fuse.exp
// CHECK-NOT: fuse.softmax
// CHECK: return
func.func @softmax_all_nonbatch(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %1 = fuse.reshape %c : tensor<2x8x5x7xf32> -> tensor<2x280xf32>
  %2 = fuse.softmax %1 {dim = 1 : i64} : tensor<2x280xf32>
  %3 = fuse.reshape %2 : tensor<2x280xf32> -> tensor<2x8x5x7xf32>
  return %3 : tensor<2x8x5x7xf32>
}

// -----

// Not recomputed: the conv result has another reader (it is stored
// anyway); a softmax over W alone (not whole channels); a softmax whose
// result is read in the view's shape.
// CHECK-LABEL: func.func @other_reader
// CHECK-NOT: fuse.logsumexp
// CHECK: return
func.func @other_reader(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %1 = fuse.reshape %c : tensor<2x8x5x7xf32> -> tensor<2x8x35xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<2x8x35xf32>
  %3 = fuse.reshape %2 : tensor<2x8x35xf32> -> tensor<2x8x5x7xf32>
  %4 = fuse.add %3, %c : tensor<2x8x5x7xf32>, tensor<2x8x5x7xf32> -> tensor<2x8x5x7xf32>
  return %4 : tensor<2x8x5x7xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_last_dim
// CHECK-NOT: fuse.logsumexp
// CHECK: return
func.func @softmax_last_dim(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %1 = fuse.softmax %c {dim = 3 : i64} : tensor<2x8x5x7xf32>
  return %1 : tensor<2x8x5x7xf32>
}

// -----

// CHECK-LABEL: func.func @view_shape_result
// CHECK-NOT: fuse.logsumexp
// CHECK: return
func.func @view_shape_result(%x: tensor<2x4x3x4xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x35xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x4xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x7xf32>
  %1 = fuse.reshape %c : tensor<2x8x5x7xf32> -> tensor<2x8x35xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<2x8x35xf32>
  return %2 : tensor<2x8x35xf32>
}
