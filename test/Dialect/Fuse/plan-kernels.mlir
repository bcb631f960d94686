// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels{epilogue-stats=false}))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels{warp-set-limit=8 split-chunk=12 epilogue-stats=false}))' | FileCheck %s --check-prefix=SPLIT
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels,fuse-plan-kernels))' | FileCheck %s --check-prefix=EPI

// conv -> gelu -> group_norm -> leaky_relu: the group statistics span blocks,
// so the conv kernel (with gelu) writes an intermediate buffer and the
// group_norm roots a normalisation kernel that also applies leaky_relu.
// With a warp-set limit of 8, each of the 2 x 4 (sample, group) sets of 50
// elements is split into chunks of 12 (ceil(50 / 5) = 10 rounded up to a
// multiple of 4), 5 parts: a partials workspace of 8 x 5 x 2 statistics.

// CHECK-LABEL: func.func @conv_gn
// CHECK-SAME: fuse.plan.buffers = [{elements = 400 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}]
// CHECK: %[[Y:.*]] = fuse.kernel "conv_gn_k0"
// CHECK-SAME: fuse.plan.result = 0 : i64
// CHECK: fuse.conv_transpose
// CHECK: fuse.gelu
// CHECK: fuse.kernel "conv_gn_k1" ins(%[[Y]], %{{.*}}, %{{.*}} :
// CHECK-NOT: fuse.plan.result
// CHECK: fuse.group_norm
// CHECK-NEXT: fuse.leaky_relu

// By default the conv kernel's epilogue writes the partial statistics: its
// 128 threads (4 warps) meet all 4 groups of 2 channels in one 8-channel
// tile, one warp per group (1 part per block); 5 blocks (one row each) per
// sample: 2 x 4 x 5 x 1 x 1 records of 4 values. The workspace lives from
// the conv kernel to the normalisation.
// EPI-LABEL: func.func @conv_gn
// EPI-SAME: fuse.plan.buffers = [{elements = 160 : i64, first = 0 : i64, last = 1 : i64, role = "partials", type = f32}, {elements = 400 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}]
// EPI: %[[Y:.*]] = fuse.kernel "conv_gn_k0"
// EPI-SAME: fuse.plan.partials = 0 : i64, fuse.plan.result = 1 : i64, fuse.plan.stats_groups = 4 : i64
// EPI: fuse.kernel "conv_gn_k1" ins(%[[Y]],
// EPI-SAME: fuse.plan.epilogue_stats, fuse.plan.merge_records = 1024 : i64, fuse.plan.partials = 0 : i64

// SPLIT-LABEL: func.func @conv_gn
// SPLIT-SAME: fuse.plan.buffers = [{elements = 400 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}, {elements = 80 : i64, first = 1 : i64, last = 1 : i64, role = "partials", type = f32}]
// SPLIT: fuse.kernel "conv_gn_k1"
// SPLIT-SAME: fuse.plan.partials = 1 : i64
func.func @conv_gn(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8x5x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
  %r = fuse.gelu %c : tensor<2x8x5x5xf32>
  %0 = fuse.group_norm %r weight(%g : tensor<8xf32>) bias(%b : tensor<8xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x5x5xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<2x8x5x5xf32>
  return %1 : tensor<2x8x5x5xf32>
}

// -----

// Three kernels in a chain: buffer 0 holds the first intermediate until the
// second kernel has read it, then the third kernel's input; the second
// intermediate gets buffer 1 (its lifetime overlaps buffer 0's first use).

// CHECK-LABEL: func.func @reuse
// CHECK-SAME: fuse.plan.buffers = [{elements = 40 : i64, first = 0 : i64, last = 3 : i64, role = "intermediate", type = f32}, {elements = 40 : i64, first = 1 : i64, last = 2 : i64, role = "intermediate", type = f32}]
// CHECK: fuse.kernel "reuse_k0"
// CHECK-SAME: fuse.plan.result = 0 : i64
// CHECK: fuse.kernel "reuse_k1"
// CHECK-SAME: fuse.plan.result = 1 : i64
// CHECK: fuse.kernel "reuse_k2"
// CHECK-SAME: fuse.plan.result = 0 : i64
// CHECK: fuse.kernel "reuse_k3"
// CHECK-NOT: fuse.plan.result
func.func @reuse(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  %0 = fuse.softmax %x {dim = 1 : i64} : tensor<2x4x5xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<2x4x5xf32>
  %2 = fuse.softmax %1 {dim = 0 : i64} : tensor<2x4x5xf32>
  %3 = fuse.softmax %2 {dim = 1 : i64} : tensor<2x4x5xf32>
  return %3 : tensor<2x4x5xf32>
}

// -----

// Two convolutions in parallel branches joined by an add: each branch is a
// kernel; the add joins the second one's epilogue (it reads the first
// branch's intermediate).

// CHECK-LABEL: func.func @branches
// CHECK-SAME: fuse.plan.buffers = [{elements = 56 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}]
// CHECK: %[[A:.*]] = fuse.kernel "branches_k0"
// CHECK: fuse.kernel "branches_k1" ins(%{{.*}}, %{{.*}}, %[[A]] :
// CHECK: fuse.add
func.func @branches(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>, %w2: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %a = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %ra = fuse.relu %a : tensor<1x8x7xf32>
  %b = fuse.conv_transpose %x, %w2 {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %s = fuse.add %b, %ra : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
  return %s : tensor<1x8x7xf32>
}

// -----

// conv -> max_pool (in the conv kernel's epilogue) -> group_norm: the
// pooled epilogue writes the group_norm's moments records of its pooled
// values and stores the pooled result, which the normalisation reads once,
// to normalise it. The pre-pool tensor has no buffer.

// EPI-LABEL: func.func @pooled_then_gn
// EPI-SAME: fuse.plan.buffers = [{elements = 80 : i64, first = 0 : i64, last = 1 : i64, role = "partials", type = f32}, {elements = 200 : i64, first = 0 : i64, last = 1 : i64, role = "intermediate", type = f32}]
// EPI: %[[Y:.*]] = fuse.kernel "pooled_then_gn_k0"
// EPI-SAME: fuse.plan.partials = 0 : i64, fuse.plan.result = 1 : i64, fuse.plan.stats_groups = 2 : i64, fuse.plan.stats_kind = "moments"}
// EPI: fuse.max_pool
// EPI: fuse.kernel "pooled_then_gn_k1" ins(%[[Y]],
// EPI-SAME: fuse.plan.epilogue_stats
// EPI: fuse.group_norm
func.func @pooled_then_gn(%x: tensor<2x4x5x5xf32>, %w: tensor<4x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2x4x5x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x5x5xf32>, tensor<4x4x2x2xf32>) -> tensor<2x4x10x10xf32>
  %p = fuse.max_pool %c {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x4x10x10xf32> -> tensor<2x4x5x5xf32>
  %0 = fuse.group_norm %p weight(%g : tensor<4xf32>) bias(%b : tensor<4xf32>) {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x4x5x5xf32>
  return %0 : tensor<2x4x5x5xf32>
}
