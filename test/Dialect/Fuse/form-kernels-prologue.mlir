// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels{prologue=never}))' | FileCheck %s --check-prefix=NEVER
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels{prologue=always}))' | FileCheck %s --check-prefix=ALWAYS

// Prologues: the elementwise and window ops that compute a convolution's
// input fold into its kernel (copied in front of the convolution, which
// reads them as its input) where the cost rule says so; the decision is
// recorded on the convolution.

// An elementwise prologue (V = 1) always pays: relu folds.
// S = 1 channel tile x kd 1 x kh 3.

// CHECK-LABEL: func.func @relu_prologue
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x5x5xf32>, %[[W:.*]]: tensor<3x4x3x3xf32>)
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "relu_prologue_k0" ins(%[[X]], %[[W]] : tensor<2x3x5x5xf32>, tensor<3x4x3x3xf32>) -> tensor<2x4x7x7xf32> {
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x3x5x5xf32>, %[[A1:.*]]: tensor<3x4x3x3xf32>):
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[A0]]
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[R]], %[[A1]] {{{.*}}fuse.prologue = "relu folded into input staging (reads V x stagings S = 1 x 3 = 3 <= V + 1 + S = 5)"
// CHECK-NEXT:   %[[T:.*]] = fuse.tanh %[[C]]
// CHECK-NEXT:   fuse.yield %[[T]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
// NEVER-LABEL: func.func @relu_prologue
// NEVER: %[[P:.*]] = fuse.kernel "relu_prologue_k1"
// NEVER: fuse.relu
// NEVER: fuse.kernel "relu_prologue_k0" ins(%[[P]],
// NEVER: fuse.conv_transpose {{.*}}fuse.prologue = "relu kept in a kernel of its own (forced off)"
// ALWAYS-LABEL: func.func @relu_prologue
// ALWAYS: fuse.prologue = "relu folded into input staging (forced on)"
func.func @relu_prologue(%x: tensor<2x3x5x5xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<2x4x7x7xf32> {
  %r = fuse.relu %x : tensor<2x3x5x5xf32>
  %c = fuse.conv_transpose %r, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x3x5x5xf32>, tensor<3x4x3x3xf32>) -> tensor<2x4x7x7xf32>
  %t = fuse.tanh %c : tensor<2x4x7x7xf32>
  return %t : tensor<2x4x7x7xf32>
}

// -----

// x * scale + shift with per-channel parameters and a scalar graph input:
// broadcast operands cost no reads (V = 1); they become kernel inputs.

// CHECK-LABEL: func.func @affine_prologue
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x4xf32>, %[[S:.*]]: tensor<3x1x1xf32>, %[[B:.*]]: tensor<f32>, %[[W:.*]]: tensor<3x5x2x2xf32>)
// CHECK-NEXT: fuse.kernel "affine_prologue_k0" ins(%[[X]], %[[S]], %[[B]], %[[W]] :
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   fuse.mul
// CHECK-NEXT:   fuse.add
// CHECK-NEXT:   fuse.conv_transpose {{.*}}fuse.prologue = "mul -> add folded into input staging (reads V x stagings S = 1 x 2 = 2 <= V + 1 + S = 4)"
// CHECK-NOT: fuse.kernel
func.func @affine_prologue(%x: tensor<1x3x4x4xf32>, %s: tensor<3x1x1xf32>, %b: tensor<f32>, %w: tensor<3x5x2x2xf32>) -> tensor<1x5x8x8xf32> {
  %m = fuse.mul %x, %s : tensor<1x3x4x4xf32>, tensor<3x1x1xf32> -> tensor<1x3x4x4xf32>
  %a = fuse.add %m, %b : tensor<1x3x4x4xf32>, tensor<f32> -> tensor<1x3x4x4xf32>
  %c = fuse.conv_transpose %a, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x5x2x2xf32>) -> tensor<1x5x8x8xf32>
  return %c : tensor<1x5x8x8xf32>
}

// -----

// A 2 x 2 average pool before a 3 x 3 convolution: every staged element
// would read 4 elements of x, staged 3 times: 12 > 4 + 1 + 3, so the pool
// keeps its own kernel (forced on, it folds).

// CHECK-LABEL: func.func @avg_pool_kept
// CHECK: %[[P:.*]] = fuse.kernel "avg_pool_kept_k1"
// CHECK: fuse.avg_pool
// CHECK: fuse.kernel "avg_pool_kept_k0" ins(%[[P]],
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.conv_transpose {{.*}}fuse.prologue = "avg_pool kept in a kernel of its own (reads V x stagings S = 4 x 3 = 12 > V + 1 + S = 8)"
// ALWAYS-LABEL: func.func @avg_pool_kept
// ALWAYS: fuse.kernel "avg_pool_kept_k0"
// ALWAYS-NEXT: ^bb0
// ALWAYS-NEXT: fuse.avg_pool
// ALWAYS-NEXT: fuse.conv_transpose
// ALWAYS-NOT: fuse.kernel
func.func @avg_pool_kept(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x9x9xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  %c = fuse.conv_transpose %p, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x9x9xf32>
  return %c : tensor<1x4x9x9xf32>
}

// -----

// A 1-D max pool of 2 before a 1-D convolution (S = 1): 2 <= 2 + 1 + 1,
// the pool and the relu before it fold.

// CHECK-LABEL: func.func @max_pool_1d_folded
// CHECK: fuse.kernel "max_pool_1d_folded_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.relu
// CHECK-NEXT: fuse.max_pool
// CHECK-NEXT: fuse.conv_transpose {{.*}}fuse.prologue = "relu -> max_pool folded into input staging (reads V x stagings S = 2 x 1 = 2 <= V + 1 + S = 4)"
// CHECK-NOT: fuse.kernel
// ALWAYS-LABEL: func.func @max_pool_1d_folded
// NEVER-LABEL: func.func @max_pool_1d_folded
// NEVER: fuse.kernel "max_pool_1d_folded_k1"
// NEVER-NEXT: ^bb0
// NEVER-NEXT: fuse.relu
// NEVER-NEXT: fuse.max_pool
func.func @max_pool_1d_folded(%x: tensor<2x3x10xf32>, %w: tensor<3x4x3xf32>) -> tensor<2x4x11xf32> {
  %r = fuse.relu %x : tensor<2x3x10xf32>
  %p = fuse.max_pool %r {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<2x3x10xf32> -> tensor<2x3x5xf32>
  %c = fuse.conv_transpose %p, %w {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x3x5xf32>, tensor<3x4x3xf32>) -> tensor<2x4x11xf32>
  return %c : tensor<2x4x11xf32>
}

// -----

// A prologue value with another reader (it is returned) is no prologue:
// the relu is a kernel of its own and the convolution records nothing.

// CHECK-LABEL: func.func @other_reader
// CHECK: %[[P:.*]] = fuse.kernel "other_reader_k1"
// CHECK: fuse.relu
// CHECK: fuse.kernel "other_reader_k0" ins(%[[P]],
// CHECK-NOT: fuse.prologue
// CHECK: return
func.func @other_reader(%x: tensor<1x3x5xf32>, %w: tensor<3x4x2xf32>) -> (tensor<1x3x5xf32>, tensor<1x4x6xf32>) {
  %r = fuse.relu %x : tensor<1x3x5xf32>
  %c = fuse.conv_transpose %r, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x3x5xf32>, tensor<3x4x2xf32>) -> tensor<1x4x6xf32>
  return %r, %c : tensor<1x3x5xf32>, tensor<1x4x6xf32>
}

// -----

// Two convolutions read one prologue value (as after fuse-recompute-conv):
// each folds a copy, S sums their stagings, and no prologue kernel is left.

// CHECK-LABEL: func.func @two_readers
// CHECK: fuse.kernel "two_readers_k0"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.sigmoid
// CHECK-NEXT: fuse.conv_transpose {{.*}}fuse.prologue = "sigmoid folded into input staging (reads V x stagings S = 1 x 6 = 6 <= V + 1 + S = 8)"
// CHECK: fuse.kernel "two_readers_k1"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.sigmoid
// CHECK-NEXT: fuse.conv_transpose
// CHECK-NOT: fuse.kernel
func.func @two_readers(%x: tensor<1x3x4x4xf32>, %w: tensor<3x4x3x3xf32>, %w2: tensor<3x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %s = fuse.sigmoid %x : tensor<1x3x4x4xf32>
  %c = fuse.conv_transpose %s, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %c2 = fuse.conv_transpose %s, %w2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %c, %c2 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// Between two convolutions the first one's epilogue takes the relu: the
// second reads its kernel's result and has no prologue.

// CHECK-LABEL: func.func @epilogue_first
// CHECK: %[[K0:.*]] = fuse.kernel "epilogue_first_k0"
// CHECK: fuse.conv_transpose
// CHECK-NEXT: fuse.relu
// CHECK: fuse.kernel "epilogue_first_k1" ins(%[[K0]],
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.conv_transpose
// CHECK-NOT: fuse.prologue
// CHECK: return
func.func @epilogue_first(%x: tensor<1x3x5xf32>, %w: tensor<3x4x2xf32>, %w2: tensor<4x2x2xf32>) -> tensor<1x2x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x3x5xf32>, tensor<3x4x2xf32>) -> tensor<1x4x6xf32>
  %r = fuse.relu %c : tensor<1x4x6xf32>
  %c2 = fuse.conv_transpose %r, %w2 {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x6xf32>, tensor<4x2x2xf32>) -> tensor<1x2x7xf32>
  return %c2 : tensor<1x2x7xf32>
}

// -----

// A unary elementwise op that a normalisation's result alone feeds (a VAE
// decoder's silu after a group_norm whose sets span blocks) is left to the
// normalisation's kernel, which stores its result anyway and applies the
// silu there once per element; the convolution's prologue keeps what
// follows (the nearest upsample), or nothing (@norm_silu_conv).

// CHECK-LABEL: func.func @norm_silu_upsample
// CHECK: %[[N:.*]] = fuse.kernel "norm_silu_upsample_k1"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[G:.*]] = fuse.group_norm
// CHECK-NEXT:   %[[S:.*]] = fuse.silu %[[G]]
// CHECK-NEXT:   fuse.yield %[[S]]
// CHECK: fuse.kernel "norm_silu_upsample_k0" ins(%[[N]],
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.upsample
// CHECK-NEXT: fuse.conv_transpose {{.*}}fuse.prologue = "upsample folded into input staging
// ALWAYS-LABEL: func.func @norm_silu_upsample
// ALWAYS: fuse.prologue = "upsample folded into input staging (forced on)"
func.func @norm_silu_upsample(%x: tensor<2x16x8x8xf32>, %g: tensor<16xf32>, %be: tensor<16xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<2x4x18x18xf32> {
  %n = fuse.group_norm %x weight(%g : tensor<16xf32>) bias(%be : tensor<16xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x16x8x8xf32>
  %s = fuse.silu %n : tensor<2x16x8x8xf32>
  %u = fuse.upsample %s {scales = array<f64: 2.0, 2.0>} : tensor<2x16x8x8xf32> -> tensor<2x16x16x16xf32>
  %0 = fuse.conv_transpose %u, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x16x16x16xf32>, tensor<16x4x3x3xf32>) -> tensor<2x4x18x18xf32>
  return %0 : tensor<2x4x18x18xf32>
}

// -----

// CHECK-LABEL: func.func @norm_silu_conv
// CHECK: %[[N:.*]] = fuse.kernel "norm_silu_conv_k1"
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   %[[G:.*]] = fuse.group_norm
// CHECK-NEXT:   %[[S:.*]] = fuse.silu %[[G]]
// CHECK-NEXT:   fuse.yield %[[S]]
// CHECK: fuse.kernel "norm_silu_conv_k0" ins(%[[N]],
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.conv_transpose
// CHECK-NOT: fuse.prologue
// CHECK-SAME: -> tensor<2x4x10x10xf32>
func.func @norm_silu_conv(%x: tensor<2x16x8x8xf32>, %g: tensor<16xf32>, %be: tensor<16xf32>, %w: tensor<16x4x3x3xf32>) -> tensor<2x4x10x10xf32> {
  %n = fuse.group_norm %x weight(%g : tensor<16xf32>) bias(%be : tensor<16xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x16x8x8xf32>
  %s = fuse.silu %n : tensor<2x16x8x8xf32>
  %0 = fuse.conv_transpose %s, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x16x8x8xf32>, tensor<16x4x3x3xf32>) -> tensor<2x4x10x10xf32>
  return %0 : tensor<2x4x10x10xf32>
}
