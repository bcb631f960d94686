// RUN: fusecc-opt %s -split-input-file --fuse-split-reductions | FileCheck %s

// fuse-split-reductions: reductions over non-adjacent dims become chains
// over contiguous runs, the innermost run first, every link with keepdim;
// a final reshape where the op had no keepdim.

// CHECK-LABEL: func.func @mean_batch_spatial
// CHECK-SAME: (%[[X:.*]]: tensor<8x6x4x4xf32>)
// CHECK: %[[M:.*]] = fuse.mean %[[X]] {dims = array<i64: 2, 3>, keepdim = true} : tensor<8x6x4x4xf32> -> tensor<8x6x1x1xf32>
// CHECK: %[[R:.*]] = fuse.mean %[[M]] {dims = array<i64: 0>, keepdim = true} : tensor<8x6x1x1xf32> -> tensor<1x6x1x1xf32>
// CHECK-NOT: fuse.mean
// CHECK: return %[[R]]
func.func @mean_batch_spatial(%x: tensor<8x6x4x4xf32>) -> tensor<1x6x1x1xf32> {
  %0 = fuse.mean %x {dims = array<i64: 3, 0, 2>, keepdim = true} : tensor<8x6x4x4xf32> -> tensor<1x6x1x1xf32>
  return %0 : tensor<1x6x1x1xf32>
}

// -----

// Without keepdim: the chain keeps dims, a reshape drops them.
// CHECK-LABEL: func.func @sum_no_keepdim
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x7xf32>)
// CHECK: %[[S:.*]] = fuse.sum %[[X]] {dims = array<i64: 2>, keepdim = true} : tensor<3x5x7xf32> -> tensor<3x5x1xf32>
// CHECK: %[[T:.*]] = fuse.sum %[[S]] {dims = array<i64: 0>, keepdim = true} : tensor<3x5x1xf32> -> tensor<1x5x1xf32>
// CHECK: %[[R:.*]] = fuse.reshape %[[T]] : tensor<1x5x1xf32> -> tensor<5xf32>
// CHECK: return %[[R]]
func.func @sum_no_keepdim(%x: tensor<3x5x7xf32>) -> tensor<5xf32> {
  %0 = fuse.sum %x {dims = array<i64: 0, 2>} : tensor<3x5x7xf32> -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Three runs: {4} first, then {0, 2} is split again ({2}, then {0}).
// CHECK-LABEL: func.func @amax_three_runs
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5x6xf32>)
// CHECK: %[[A:.*]] = fuse.amax %[[X]] {dims = array<i64: 4>, keepdim = true} : tensor<2x3x4x5x6xf32> -> tensor<2x3x4x5x1xf32>
// CHECK: %[[B:.*]] = fuse.amax %[[A]] {dims = array<i64: 2>, keepdim = true} : tensor<2x3x4x5x1xf32> -> tensor<2x3x1x5x1xf32>
// CHECK: %[[C:.*]] = fuse.amax %[[B]] {dims = array<i64: 0>, keepdim = true} : tensor<2x3x1x5x1xf32> -> tensor<1x3x1x5x1xf32>
// CHECK: %[[R:.*]] = fuse.reshape %[[C]] : tensor<1x3x1x5x1xf32> -> tensor<3x5xf32>
// CHECK: return %[[R]]
func.func @amax_three_runs(%x: tensor<2x3x4x5x6xf32>) -> tensor<3x5xf32> {
  %0 = fuse.amax %x {dims = array<i64: 0, 2, 4>} : tensor<2x3x4x5x6xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @amin_logsumexp
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[A:.*]] = fuse.amin %[[X]] {dims = array<i64: 2>, keepdim = true}
// CHECK: %[[B:.*]] = fuse.amin %[[A]] {dims = array<i64: 0>, keepdim = true} : tensor<2x3x1xf32> -> tensor<1x3x1xf32>
// CHECK: %[[L:.*]] = fuse.logsumexp %[[X]] {dims = array<i64: 2>, keepdim = true}
// CHECK: %[[M:.*]] = fuse.logsumexp %[[L]] {dims = array<i64: 0>, keepdim = true} : tensor<2x3x1xf32> -> tensor<1x3x1xf32>
// CHECK: return %[[B]], %[[M]]
func.func @amin_logsumexp(%x: tensor<2x3x4xf32>) -> (tensor<1x3x1xf32>, tensor<1x3x1xf32>) {
  %0 = fuse.amin %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  %1 = fuse.logsumexp %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<2x3x4xf32> -> tensor<1x3x1xf32>
  return %0, %1 : tensor<1x3x1xf32>, tensor<1x3x1xf32>
}

// -----

// var (correction 1) by the law of total variance: per-run mean m and
// biased var v, the combined mean M, mean(v + (m - M)^2) over the rest,
// then n / (n - 1) = 128 / 127 once.
// CHECK-LABEL: func.func @var_unbiased
// CHECK-SAME: (%[[X:.*]]: tensor<8x6x4x4xf32>)
// CHECK: %[[M:.*]] = fuse.mean %[[X]] {dims = array<i64: 2, 3>, keepdim = true} : tensor<8x6x4x4xf32> -> tensor<8x6x1x1xf32>
// CHECK: %[[V:.*]] = fuse.var %[[X]] {correction = 0 : i64, dims = array<i64: 2, 3>, keepdim = true} : tensor<8x6x4x4xf32> -> tensor<8x6x1x1xf32>
// CHECK: %[[MM:.*]] = fuse.mean %[[M]] {dims = array<i64: 0>, keepdim = true} : tensor<8x6x1x1xf32> -> tensor<1x6x1x1xf32>
// CHECK: %[[D:.*]] = fuse.sub %[[M]], %[[MM]] : tensor<8x6x1x1xf32>, tensor<1x6x1x1xf32> -> tensor<8x6x1x1xf32>
// CHECK: %[[D2:.*]] = fuse.mul %[[D]], %[[D]]
// CHECK: %[[T:.*]] = fuse.add %[[V]], %[[D2]]
// CHECK: %[[W:.*]] = fuse.mean %[[T]] {dims = array<i64: 0>, keepdim = true} : tensor<8x6x1x1xf32> -> tensor<1x6x1x1xf32>
// CHECK: %[[S:.*]] = arith.constant dense<1.00787401> : tensor<f32>
// CHECK: %[[R0:.*]] = fuse.mul %[[W]], %[[S]]
// CHECK: %[[R:.*]] = fuse.reshape %[[R0]] : tensor<1x6x1x1xf32> -> tensor<6xf32>
// CHECK: return %[[R]]
func.func @var_unbiased(%x: tensor<8x6x4x4xf32>) -> tensor<6xf32> {
  %0 = fuse.var %x {dims = array<i64: 0, 2, 3>} : tensor<8x6x4x4xf32> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// A mean and a biased var of one tensor (batch_norm's statistics) share
// the per-run mean and the combined mean; correction 0 scales nothing.
// CHECK-LABEL: func.func @mean_and_var_share
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x7xf32>)
// CHECK: %[[M:.*]] = fuse.mean %[[X]] {dims = array<i64: 2>, keepdim = true}
// CHECK: %[[MM:.*]] = fuse.mean %[[M]] {dims = array<i64: 0>, keepdim = true}
// CHECK: %[[V:.*]] = fuse.var %[[X]] {correction = 0 : i64, dims = array<i64: 2>, keepdim = true}
// CHECK: %[[D:.*]] = fuse.sub %[[M]], %[[MM]]
// CHECK: %[[D2:.*]] = fuse.mul %[[D]], %[[D]]
// CHECK: %[[T:.*]] = fuse.add %[[V]], %[[D2]]
// CHECK: %[[W:.*]] = fuse.mean %[[T]] {dims = array<i64: 0>, keepdim = true}
// CHECK-NOT: fuse.mean
// CHECK-NOT: fuse.mul {{.*}}tensor<f32>
// CHECK: return %[[MM]], %[[W]]
func.func @mean_and_var_share(%x: tensor<3x5x7xf32>) -> (tensor<1x5x1xf32>, tensor<1x5x1xf32>) {
  %0 = fuse.mean %x {dims = array<i64: 0, 2>, keepdim = true} : tensor<3x5x7xf32> -> tensor<1x5x1xf32>
  %1 = fuse.var %x {dims = array<i64: 0, 2>, keepdim = true, correction = 0 : i64} : tensor<3x5x7xf32> -> tensor<1x5x1xf32>
  return %0, %1 : tensor<1x5x1xf32>, tensor<1x5x1xf32>
}

// -----

// Contiguous runs, and other window ops, are left alone.
// CHECK-LABEL: func.func @contiguous_untouched
// CHECK: fuse.mean %{{.*}} {dims = array<i64: 3, 2>, keepdim = true}
// CHECK: fuse.var %{{.*}} {dims = array<i64: 1>}
// CHECK: fuse.adaptive_avg_pool
// CHECK-NOT: fuse.reshape
func.func @contiguous_untouched(%x: tensor<2x3x4x5xf32>) -> (tensor<2x3x1x1xf32>, tensor<2x4x5xf32>, tensor<2x3x1x1xf32>) {
  %0 = fuse.mean %x {dims = array<i64: 3, 2>, keepdim = true} : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  %1 = fuse.var %x {dims = array<i64: 1>} : tensor<2x3x4x5xf32> -> tensor<2x4x5xf32>
  %2 = fuse.adaptive_avg_pool %x : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  return %0, %1, %2 : tensor<2x3x1x1xf32>, tensor<2x4x5xf32>, tensor<2x3x1x1xf32>
}
