// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --chip=sm_90a | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
//
// A convolution, a pooling and a global reduction (issue 37's pool_reduce
// family), where fuse-compose-pools makes the reduction one of the
// convolution's result: a sum or mean of an average pooling whose windows
// tile the plane goes through the convolution as box sums (no convolution
// of the full size), an amax of a max pooling whose windows cover the
// plane takes the convolution's epilogue extremes (nothing stored but the
// records). Against the float64 reference of the original graph: bias,
// 1-D and 3-D, overlapping max windows, keepdim; a mean of maxima keeps
// its pooled epilogue.

// CHECK: @sum_of_avg: PASS
// PLAN-LABEL: plan @sum_of_avg: 3 kernels
// PLAN: box sums
// PLAN-NOT: pooled epilogue
func.func @sum_of_avg(%x: tensor<2x5x6x8xf32>, %w: tensor<5x7x4x4xf32>, %b: tensor<7xf32>) -> tensor<2x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x6x8xf32>, tensor<5x7x4x4xf32>, tensor<7xf32>) -> tensor<2x7x12x16xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x7x12x16xf32> -> tensor<2x7x6x8xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x7x6x8xf32> -> tensor<2x7xf32>
  return %2 : tensor<2x7xf32>
}

// CHECK: @mean_of_avg_3d: PASS
// PLAN-LABEL: plan @mean_of_avg_3d:
// PLAN: box sums
// PLAN-NOT: pooled epilogue
func.func @mean_of_avg_3d(%x: tensor<1x3x3x4x5xf32>, %w: tensor<3x6x3x3x3xf32>) -> tensor<1x6x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x3x4x5xf32>, tensor<3x6x3x3x3xf32>) -> tensor<1x6x5x6x7xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 5, 2, 7>, stride = array<i64: 5, 2, 7>, padding = array<i64: 0, 0, 0>} : tensor<1x6x5x6x7xf32> -> tensor<1x6x1x3x1xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<1x6x1x3x1xf32> -> tensor<1x6x1x1x1xf32>
  return %2 : tensor<1x6x1x1x1xf32>
}

// CHECK: @amax_of_max: PASS
// PLAN-LABEL: plan @amax_of_max: 2 kernels
// PLAN: reduction: amax{{.*}}partial statistics from amax_of_max_k0's epilogue
// PLAN-NOT: pooled epilogue
func.func @amax_of_max(%x: tensor<3x4x7x5xf32>, %w: tensor<4x20x3x3xf32>, %b: tensor<20xf32>) -> tensor<3x20xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x7x5xf32>, tensor<4x20x3x3xf32>, tensor<20xf32>) -> tensor<3x20x13x7xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 1>, padding = array<i64: 0, 0>} : tensor<3x20x13x7xf32> -> tensor<3x20x6x6xf32>
  %2 = fuse.amax %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<3x20x6x6xf32> -> tensor<3x20xf32>
  return %2 : tensor<3x20xf32>
}

// CHECK: @sum_of_avg_1d: PASS
// PLAN-LABEL: plan @sum_of_avg_1d:
// PLAN: prologue: conv_transpose_tap_sums folded
func.func @sum_of_avg_1d(%x: tensor<2x8x9xf32>, %w: tensor<8x3x4xf32>) -> tensor<2x3xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x8x9xf32>, tensor<8x3x4xf32>) -> tensor<2x3x28xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 4>, stride = array<i64: 4>, padding = array<i64: 0>} : tensor<2x3x28xf32> -> tensor<2x3x7xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2>, keepdim = false} : tensor<2x3x7xf32> -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// CHECK: @mean_of_max: PASS
// PLAN-LABEL: plan @mean_of_max: 2 kernels
// PLAN: pooled epilogue: max_pool
func.func @mean_of_max(%x: tensor<2x5x6x8xf32>, %w: tensor<5x7x4x4xf32>) -> tensor<2x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x5x6x8xf32>, tensor<5x7x4x4xf32>) -> tensor<2x7x12x16xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x7x12x16xf32> -> tensor<2x7x6x8xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x7x6x8xf32> -> tensor<2x7xf32>
  return %2 : tensor<2x7xf32>
}
