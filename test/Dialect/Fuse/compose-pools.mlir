// RUN: fusecc-opt %s -split-input-file -fuse-compose-pools | FileCheck %s

// Max of max with no gap between the inner windows (kb2_78's chain): one
// max_pool of kernel (k2 - 1) d2 s1 + k1 and stride s1 s2.
// CHECK-LABEL: func.func @max_of_max
// CHECK-NEXT: %[[P:.*]] = fuse.max_pool %arg0 {kernel_size = array<i64: 6, 6, 6>, padding = array<i64: 0, 0, 0>, stride = array<i64: 6, 6, 6>} : tensor<1x2x63x63x63xf32> -> tensor<1x2x10x10x10xf32>
// CHECK-NEXT: return %[[P]]
func.func @max_of_max(%x: tensor<1x2x63x63x63xf32>) -> tensor<1x2x10x10x10xf32> {
  %1 = fuse.max_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x2x63x63x63xf32> -> tensor<1x2x31x31x31xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0>} : tensor<1x2x31x31x31xf32> -> tensor<1x2x10x10x10xf32>
  return %2 : tensor<1x2x10x10x10xf32>
}

// -----

// Overlapping inner windows and a dilated outer window whose taps still
// leave no gap (d2 s1 = 2 <= k1 = 3): kernel (3 - 1) 2 + 3 = 7, stride 2.
// CHECK-LABEL: func.func @max_overlap_dilated
// CHECK-NEXT: fuse.max_pool %arg0 {dilation = array<i64: 1>, kernel_size = array<i64: 7>, padding = array<i64: 0>, stride = array<i64: 2>} : tensor<1x3x20xf32> -> tensor<1x3x7xf32>
// CHECK-NEXT: return
func.func @max_overlap_dilated(%x: tensor<1x3x20xf32>) -> tensor<1x3x7xf32> {
  %1 = fuse.max_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x3x20xf32> -> tensor<1x3x9xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>} : tensor<1x3x9xf32> -> tensor<1x3x7xf32>
  return %2 : tensor<1x3x7xf32>
}

// -----

// Average of averages over inner windows that tile the dims: equal weights.
// CHECK-LABEL: func.func @avg_of_avg
// CHECK-NEXT: fuse.avg_pool %arg0 {kernel_size = array<i64: 4, 6>, padding = array<i64: 0, 0>, stride = array<i64: 4, 6>} : tensor<2x3x8x13xf32> -> tensor<2x3x2x2xf32>
// CHECK-NEXT: return
func.func @avg_of_avg(%x: tensor<2x3x8x13xf32>) -> tensor<2x3x2x2xf32> {
  %1 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x13xf32> -> tensor<2x3x4x6xf32>
  %2 = fuse.avg_pool %1 {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 3>, padding = array<i64: 0, 0>} : tensor<2x3x4x6xf32> -> tensor<2x3x2x2xf32>
  return %2 : tensor<2x3x2x2xf32>
}

// -----

// Not one window: gaps between max windows (stride 3 > kernel 2),
// overlapping average windows (unequal weights), a divisor override,
// ceil_mode, padding, mixed kinds, and an inner result used twice.
// CHECK-LABEL: func.func @not_composed
// CHECK-COUNT-14: fuse.{{max|avg}}_pool
// CHECK-NOT: fuse.{{max|avg}}_pool
func.func @not_composed(%x: tensor<1x2x24xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x5xf32>, tensor<1x2x6xf32>, tensor<1x2x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x12xf32>) {
  %g1 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 3>, padding = array<i64: 0>} : tensor<1x2x24xf32> -> tensor<1x2x8xf32>
  %g2 = fuse.max_pool %g1 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x8xf32> -> tensor<1x2x4xf32>
  %o1 = fuse.avg_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x24xf32> -> tensor<1x2x11xf32>
  %o2 = fuse.avg_pool %o1 {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x11xf32> -> tensor<1x2x5xf32>
  %d1 = fuse.avg_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>, divisor_override = 3 : i64} : tensor<1x2x24xf32> -> tensor<1x2x12xf32>
  %d2 = fuse.avg_pool %d1 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x12xf32> -> tensor<1x2x6xf32>
  %c1 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x24xf32> -> tensor<1x2x12xf32>
  %c2 = fuse.max_pool %c1 {kernel_size = array<i64: 2>, stride = array<i64: 3>, padding = array<i64: 0>, ceil_mode = true} : tensor<1x2x12xf32> -> tensor<1x2x4xf32>
  %p1 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 1>} : tensor<1x2x24xf32> -> tensor<1x2x13xf32>
  %p2 = fuse.max_pool %p1 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x13xf32> -> tensor<1x2x6xf32>
  %m1 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x24xf32> -> tensor<1x2x12xf32>
  %m2 = fuse.avg_pool %m1 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x12xf32> -> tensor<1x2x6xf32>
  %u1 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x24xf32> -> tensor<1x2x12xf32>
  %u2 = fuse.max_pool %u1 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x12xf32> -> tensor<1x2x6xf32>
  return %g2, %o2, %d2, %c2, %p2, %m2, %u2, %u1 : tensor<1x2x4xf32>, tensor<1x2x5xf32>, tensor<1x2x6xf32>, tensor<1x2x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x6xf32>, tensor<1x2x12xf32>
}

// -----

// A sum over all spatial dims of an average pooling whose windows tile
// them: the operand's sum over the window volume (2 x 3).
// CHECK-LABEL: func.func @sum_of_avg
// CHECK-NEXT: %[[S:.*]] = fuse.sum %arg0 {dims = array<i64: 2, 3>} : tensor<2x3x8x12xf32> -> tensor<2x3xf32>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0.166666672> : tensor<f32>
// CHECK-NEXT: %[[R:.*]] = fuse.mul %[[S]], %[[C]] : tensor<2x3xf32>, tensor<f32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @sum_of_avg(%x: tensor<2x3x8x12xf32>) -> tensor<2x3xf32> {
  %1 = fuse.avg_pool %x {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 3>, padding = array<i64: 0, 0>} : tensor<2x3x8x12xf32> -> tensor<2x3x4x4xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// A mean of tiling averages is the operand's mean (keepdim kept); an amax
// of max windows that cover the dims (overlapping: kernel 3, stride 2, 9 =
// 3 x 2 + 3) is the operand's amax.
// CHECK-LABEL: func.func @mean_of_avg_amax_of_max
// CHECK-NEXT: %[[M:.*]] = fuse.mean %arg0 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<1x2x4x4x6xf32> -> tensor<1x2x1x1x1xf32>
// CHECK-NEXT: %[[A:.*]] = fuse.amax %arg1 {dims = array<i64: 2, 3>} : tensor<2x3x9x8xf32> -> tensor<2x3xf32>
// CHECK-NEXT: return %[[M]], %[[A]]
func.func @mean_of_avg_amax_of_max(%x: tensor<1x2x4x4x6xf32>, %y: tensor<2x3x9x8xf32>) -> (tensor<1x2x1x1x1xf32>, tensor<2x3xf32>) {
  %1 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 3>, stride = array<i64: 2, 2, 3>, padding = array<i64: 0, 0, 0>} : tensor<1x2x4x4x6xf32> -> tensor<1x2x2x2x2xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<1x2x2x2x2xf32> -> tensor<1x2x1x1x1xf32>
  %3 = fuse.max_pool %y {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x9x8xf32> -> tensor<2x3x4x4xf32>
  %4 = fuse.amax %3 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  return %2, %4 : tensor<1x2x1x1x1xf32>, tensor<2x3xf32>
}

// -----

// Not one reduction: average windows leaving the last row out (9 = 4 x 2
// + 1), max windows leaving a gap (stride 3 > kernel 2) or the last column
// out, a mean of maxima, an amax of averages, padding, a reduction over
// one spatial dim only, and a pooled result used twice.
// CHECK-LABEL: func.func @not_reduced_through
// CHECK-COUNT-8: fuse.{{max|avg}}_pool
// CHECK-NOT: fuse.{{max|avg}}_pool
func.func @not_reduced_through(%x: tensor<2x3x9x8xf32>, %y: tensor<2x3x8x8xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>, tensor<2x3x4x4xf32>) {
  %a1 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x9x8xf32> -> tensor<2x3x4x4xf32>
  %a2 = fuse.sum %a1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  %g1 = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 3, 3>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x3x3xf32>
  %g2 = fuse.amax %g1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x3x3xf32> -> tensor<2x3xf32>
  %e1 = fuse.max_pool %x {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 3>, padding = array<i64: 0, 0>} : tensor<2x3x9x8xf32> -> tensor<2x3x4x2xf32>
  %e2 = fuse.amax %e1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x2xf32> -> tensor<2x3xf32>
  %m1 = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %m2 = fuse.mean %m1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  %v1 = fuse.avg_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %v2 = fuse.amax %v1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  %p1 = fuse.avg_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x3x8x8xf32> -> tensor<2x3x5x5xf32>
  %p2 = fuse.mean %p1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x5x5xf32> -> tensor<2x3xf32>
  %o1 = fuse.avg_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %o2 = fuse.sum %o1 {dims = array<i64: 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3x4xf32>
  %u1 = fuse.avg_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xf32> -> tensor<2x3x4x4xf32>
  %u2 = fuse.mean %u1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  return %a2, %g2, %e2, %m2, %v2, %p2, %o2, %u2, %u1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>, tensor<2x3x4x4xf32>
}

// -----

// A bf16 graph run through the pass alone (the pipeline widens it first):
// the factor of a sum of averages is a bf16 constant of the right value
// (it read 0.0 when built from an f32 APFloat).
// CHECK-LABEL: func.func @sum_of_avg_bf16
// CHECK: %[[S:.*]] = fuse.sum %arg0 {dims = array<i64: 2, 3>} : tensor<2x3x8x8xbf16> -> tensor<2x3xbf16>
// CHECK: %[[C:.*]] = arith.constant dense<2.500000e-01> : tensor<bf16>
// CHECK: fuse.mul %[[S]], %[[C]]
func.func @sum_of_avg_bf16(%y: tensor<2x3x8x8xbf16>) -> tensor<2x3xbf16> {
  %p = fuse.avg_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x3x8x8xbf16> -> tensor<2x3x4x4xbf16>
  %s = fuse.sum %p {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x3x4x4xbf16> -> tensor<2x3xbf16>
  return %s : tensor<2x3xbf16>
}

// -----

// Pools whose every window is one element (kernel 1, stride 1, no padding)
// are their operand and go (rand37_59): the convolution's result takes their
// uses.
// CHECK-LABEL: func.func @identity_pools
// CHECK-NEXT: %[[C:.*]] = fuse.conv_transpose
// CHECK-NEXT: %[[M:.*]] = fuse.minimum %[[C]]
// CHECK-NEXT: %[[R:.*]] = fuse.relu %[[M]]
// CHECK-NEXT: return %[[R]]
func.func @identity_pools(%x: tensor<2x4x9xf32>, %w: tensor<4x6x3xf32>, %m: tensor<f32>) -> tensor<2x6x27xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x4x9xf32>, tensor<4x6x3xf32>) -> tensor<2x6x27xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>, count_include_pad = false, ceil_mode = true} : tensor<2x6x27xf32> -> tensor<2x6x27xf32>
  %2 = fuse.minimum %1, %m : tensor<2x6x27xf32>, tensor<f32> -> tensor<2x6x27xf32>
  %3 = fuse.max_pool %2 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 2>} : tensor<2x6x27xf32> -> tensor<2x6x27xf32>
  %4 = fuse.relu %3 : tensor<2x6x27xf32>
  return %4 : tensor<2x6x27xf32>
}

// -----

// Not the identity: a divisor override, a stride, a pool of a graph input
// (no value would be left for it to take the pool's place), and a value
// with another use.
// CHECK-LABEL: func.func @not_identity
// CHECK: fuse.avg_pool %arg0
// CHECK: fuse.avg_pool {{.*}}divisor_override = 2
// CHECK: fuse.max_pool {{.*}}stride = array<i64: 2>
// CHECK: fuse.max_pool
// CHECK: return
func.func @not_identity(%x: tensor<1x2x8xf32>) -> (tensor<1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x4xf32>, tensor<1x2x8xf32>) {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>} : tensor<1x2x8xf32> -> tensor<1x2x8xf32>
  %1 = fuse.relu %0 : tensor<1x2x8xf32>
  %2 = fuse.avg_pool %1 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>, divisor_override = 2 : i64} : tensor<1x2x8xf32> -> tensor<1x2x8xf32>
  %3 = fuse.tanh %2 : tensor<1x2x8xf32>
  %4 = fuse.max_pool %3 {kernel_size = array<i64: 1>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x2x8xf32> -> tensor<1x2x4xf32>
  %5 = fuse.max_pool %3 {kernel_size = array<i64: 1>, stride = array<i64: 1>, padding = array<i64: 0>} : tensor<1x2x8xf32> -> tensor<1x2x8xf32>
  return %3, %2, %4, %5 : tensor<1x2x8xf32>, tensor<1x2x8xf32>, tensor<1x2x4xf32>, tensor<1x2x8xf32>
}
