// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// Window ops (pools, adaptive pools, reductions, reshape) at small awkward
// shapes: batch 1 and 3, channels 1/3/5, spatial sizes 1, 5, 7. Each pool kind
// after a transposed convolution (max with padding + dilation + ceil_mode; avg
// with count_include_pad false/true, ceil_mode, divisor_override), adaptive
// pools (non-divisible, global, output larger than the input), each reduction
// over C, over the spatial dims and over all non-batch dims with keepdim both
// ways and unsorted dims, and chains: pool -> pool -> sum over C (KernelBench
// 2/78), mean over (2,3) twice (2/44), a pool on the graph input before a
// convolution, reshape -> softmax over the flattened dim -> reshape back
// (2/38), elementwise ops before and after window ops.

// CHECK: @ct_max_pool_pad_dil_ceil: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_1d_exclude_pad: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_1d_include_pad: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_2d_ceil_exclude_pad: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_2d_ceil_include_pad: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_3d_divisor_override: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_avg_pool_1d_divisor_override_ceil: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_max_pool_3d_ceil_sp1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_max_pool_1d_dilated_padding: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_max_pool_2d_dilation_stride1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @adaptive_avg_non_divisible: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_adaptive_max_global: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_adaptive_avg_global: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @adaptive_avg_1d_larger_output: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @adaptive_max_3d_mixed: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_adaptive_avg_3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @adaptive_max_1d_non_divisible: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_sum_channels: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_mean_channels: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amax_channels: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amin_channels: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_logsumexp_channels: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_sum_spatial: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_mean_spatial: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amax_spatial: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amin_spatial: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_logsumexp_spatial: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_sum_all_non_batch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_mean_all_non_batch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amax_all_non_batch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_amin_all_non_batch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @ct_logsumexp_all_non_batch: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reduce_batch_dim: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reduce_every_dim: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @kb2_78_pool_pool_sum: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @kb2_44_mean_mean: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @prologue_pool_then_conv: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @prologue_max_pool_ceil_then_conv: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @kb2_38_reshape_softmax_reshape: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @reshape_softmax_reshape_3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @elementwise_around_windows: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @adaptive_then_reduce: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @ct_max_pool_pad_dil_ceil(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x5x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>, ceil_mode = true} : tensor<1x5x9x9xf32> -> tensor<1x5x5x5xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x5x5x5xf32>
  return %v2 : tensor<1x5x5x5xf32>
}

func.func @ct_avg_pool_1d_exclude_pad(%x: tensor<3x1x7xf32>, %w: tensor<1x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x3x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x1x7xf32>, tensor<1x3x3xf32>, tensor<3xf32>) -> tensor<3x3x9xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1>, count_include_pad = false} : tensor<3x3x9xf32> -> tensor<3x3x5xf32>
  return %v1 : tensor<3x3x5xf32>
}

func.func @ct_avg_pool_1d_include_pad(%x: tensor<3x1x7xf32>, %w: tensor<1x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x3x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x1x7xf32>, tensor<1x3x3xf32>, tensor<3xf32>) -> tensor<3x3x9xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1>} : tensor<3x3x9xf32> -> tensor<3x3x5xf32>
  return %v1 : tensor<3x3x5xf32>
}

func.func @ct_avg_pool_2d_ceil_exclude_pad(%x: tensor<1x5x5x7xf32>, %w: tensor<5x1x2x2xf32>) -> tensor<1x1x4x5xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x7xf32>, tensor<5x1x2x2xf32>) -> tensor<1x1x6x8xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = false} : tensor<1x1x6x8xf32> -> tensor<1x1x4x5xf32>
  return %v1 : tensor<1x1x4x5xf32>
}

func.func @ct_avg_pool_2d_ceil_include_pad(%x: tensor<1x5x5x7xf32>, %w: tensor<5x1x2x2xf32>) -> tensor<1x1x4x5xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x7xf32>, tensor<5x1x2x2xf32>) -> tensor<1x1x6x8xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<1x1x6x8xf32> -> tensor<1x1x4x5xf32>
  return %v1 : tensor<1x1x4x5xf32>
}

func.func @ct_avg_pool_3d_divisor_override(%x: tensor<1x3x1x5x5xf32>, %w: tensor<3x3x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x4x4xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x1x5x5xf32>, tensor<3x3x3x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x7x7xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 2, 3, 3>, stride = array<i64: 1, 2, 2>, padding = array<i64: 1, 1, 1>, divisor_override = 5 : i64} : tensor<1x3x3x7x7xf32> -> tensor<1x3x4x4x4xf32>
  return %v1 : tensor<1x3x4x4x4xf32>
}

func.func @ct_avg_pool_1d_divisor_override_ceil(%x: tensor<1x3x5xf32>, %w: tensor<3x1x3xf32>) -> tensor<1x1x5xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x3x5xf32>, tensor<3x1x3xf32>) -> tensor<1x1x9xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 1>, ceil_mode = true, count_include_pad = false, divisor_override = 3 : i64} : tensor<1x1x9xf32> -> tensor<1x1x5xf32>
  return %v1 : tensor<1x1x5xf32>
}

func.func @ct_max_pool_3d_ceil_sp1(%x: tensor<3x3x1x1x1xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x5x2x2x2xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x1x1x1xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x3x3x3xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, ceil_mode = true} : tensor<3x5x3x3x3xf32> -> tensor<3x5x2x2x2xf32>
  return %v1 : tensor<3x5x2x2x2xf32>
}

func.func @ct_max_pool_1d_dilated_padding(%x: tensor<1x1x5xf32>, %w: tensor<1x3x3xf32>) -> tensor<1x3x4xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x1x5xf32>, tensor<1x3x3xf32>) -> tensor<1x3x5xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 2>, stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 3>} : tensor<1x3x5xf32> -> tensor<1x3x4xf32>
  return %v1 : tensor<1x3x4xf32>
}

func.func @ct_max_pool_2d_dilation_stride1(%x: tensor<3x5x3x3xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x3x4x6xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x3x3xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x6x6xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 2, 1>} : tensor<3x3x6x6xf32> -> tensor<3x3x4x6xf32>
  %v2 = fuse.relu %v1 : tensor<3x3x4x6xf32>
  return %v2 : tensor<3x3x4x6xf32>
}

func.func @adaptive_avg_non_divisible(%x: tensor<3x5x7x5xf32>) -> tensor<3x5x3x2xf32> {
  %v0 = fuse.tanh %x : tensor<3x5x7x5xf32>
  %v1 = fuse.adaptive_avg_pool %v0 : tensor<3x5x7x5xf32> -> tensor<3x5x3x2xf32>
  return %v1 : tensor<3x5x3x2xf32>
}

func.func @ct_adaptive_max_global(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.adaptive_max_pool %v0 : tensor<1x5x9x9xf32> -> tensor<1x5x1x1xf32>
  return %v1 : tensor<1x5x1x1xf32>
}

func.func @ct_adaptive_avg_global(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.adaptive_avg_pool %v0 : tensor<1x5x9x9xf32> -> tensor<1x5x1x1xf32>
  return %v1 : tensor<1x5x1x1xf32>
}

func.func @adaptive_avg_1d_larger_output(%x: tensor<1x3x5xf32>) -> tensor<1x3x7xf32> {
  %v0 = fuse.adaptive_avg_pool %x : tensor<1x3x5xf32> -> tensor<1x3x7xf32>
  return %v0 : tensor<1x3x7xf32>
}

func.func @adaptive_max_3d_mixed(%x: tensor<1x1x5x1x7xf32>) -> tensor<1x1x3x2x4xf32> {
  %v0 = fuse.adaptive_max_pool %x : tensor<1x1x5x1x7xf32> -> tensor<1x1x3x2x4xf32>
  return %v0 : tensor<1x1x3x2x4xf32>
}

func.func @ct_adaptive_avg_3d(%x: tensor<3x3x1x5x5xf32>, %w: tensor<3x5x3x3x3xf32>) -> tensor<3x5x2x3x7xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2, 2>, padding = array<i64: 0, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x1x5x5xf32>, tensor<3x5x3x3x3xf32>) -> tensor<3x5x3x9x9xf32>
  %v1 = fuse.adaptive_avg_pool %v0 : tensor<3x5x3x9x9xf32> -> tensor<3x5x2x3x7xf32>
  return %v1 : tensor<3x5x2x3x7xf32>
}

func.func @adaptive_max_1d_non_divisible(%x: tensor<1x5x7xf32>) -> tensor<1x5x3xf32> {
  %v0 = fuse.adaptive_max_pool %x : tensor<1x5x7xf32> -> tensor<1x5x3xf32>
  %v1 = fuse.neg %v0 : tensor<1x5x3xf32>
  return %v1 : tensor<1x5x3xf32>
}

func.func @ct_sum_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.sum %v0 {dims = array<i64: 1>} : tensor<3x3x5x7xf32> -> tensor<3x5x7xf32>
  return %v1 : tensor<3x5x7xf32>
}

func.func @ct_mean_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x1x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.mean %v0 {dims = array<i64: 1>, keepdim = true} : tensor<3x3x5x7xf32> -> tensor<3x1x5x7xf32>
  return %v1 : tensor<3x1x5x7xf32>
}

func.func @ct_amax_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.amax %v0 {dims = array<i64: 1>} : tensor<3x3x5x7xf32> -> tensor<3x5x7xf32>
  return %v1 : tensor<3x5x7xf32>
}

func.func @ct_amin_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.amin %v0 {dims = array<i64: 1>} : tensor<3x3x5x7xf32> -> tensor<3x5x7xf32>
  return %v1 : tensor<3x5x7xf32>
}

func.func @ct_logsumexp_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x1x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.logsumexp %v0 {dims = array<i64: 1>, keepdim = true} : tensor<3x3x5x7xf32> -> tensor<3x1x5x7xf32>
  return %v1 : tensor<3x1x5x7xf32>
}

func.func @ct_sum_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.sum %v0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<1x5x9x9xf32> -> tensor<1x5x1x1xf32>
  return %v1 : tensor<1x5x1x1xf32>
}

func.func @ct_mean_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.mean %v0 {dims = array<i64: 3, 2>} : tensor<1x5x9x9xf32> -> tensor<1x5xf32>
  return %v1 : tensor<1x5xf32>
}

func.func @ct_amax_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.amax %v0 {dims = array<i64: 2, 3>} : tensor<1x5x9x9xf32> -> tensor<1x5xf32>
  return %v1 : tensor<1x5xf32>
}

func.func @ct_amin_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.amin %v0 {dims = array<i64: 3, 2>, keepdim = true} : tensor<1x5x9x9xf32> -> tensor<1x5x1x1xf32>
  return %v1 : tensor<1x5x1x1xf32>
}

func.func @ct_logsumexp_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.logsumexp %v0 {dims = array<i64: 2, 3>} : tensor<1x5x9x9xf32> -> tensor<1x5xf32>
  return %v1 : tensor<1x5xf32>
}

func.func @ct_sum_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.sum %v0 {dims = array<i64: 1, 2, 3>} : tensor<3x1x3x9xf32> -> tensor<3xf32>
  return %v1 : tensor<3xf32>
}

func.func @ct_mean_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3x1x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.mean %v0 {dims = array<i64: 3, 1, 2>, keepdim = true} : tensor<3x1x3x9xf32> -> tensor<3x1x1x1xf32>
  return %v1 : tensor<3x1x1x1xf32>
}

func.func @ct_amax_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3x1x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.amax %v0 {dims = array<i64: 1, 2, 3>, keepdim = true} : tensor<3x1x3x9xf32> -> tensor<3x1x1x1xf32>
  return %v1 : tensor<3x1x1x1xf32>
}

func.func @ct_amin_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.amin %v0 {dims = array<i64: 2, 3, 1>} : tensor<3x1x3x9xf32> -> tensor<3xf32>
  return %v1 : tensor<3xf32>
}

func.func @ct_logsumexp_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3x1x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.logsumexp %v0 {dims = array<i64: 1, 2, 3>, keepdim = true} : tensor<3x1x3x9xf32> -> tensor<3x1x1x1xf32>
  return %v1 : tensor<3x1x1x1xf32>
}

func.func @reduce_batch_dim(%x: tensor<3x5x7xf32>) -> tensor<1x5x7xf32> {
  %v0 = fuse.amax %x {dims = array<i64: 0>, keepdim = true} : tensor<3x5x7xf32> -> tensor<1x5x7xf32>
  %v1 = fuse.exp %v0 : tensor<1x5x7xf32>
  return %v1 : tensor<1x5x7xf32>
}

func.func @reduce_every_dim(%x: tensor<1x1x5x7xf32>) -> tensor<f32> {
  %v0 = fuse.logsumexp %x {dims = array<i64: 3, 0, 2, 1>} : tensor<1x1x5x7xf32> -> tensor<f32>
  return %v0 : tensor<f32>
}

func.func @kb2_78_pool_pool_sum(%x: tensor<3x3x3x5x5xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x1x1x2x2xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x3x5x5xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x9x9xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x5x9x9xf32> -> tensor<3x5x2x4x4xf32>
  %v2 = fuse.max_pool %v1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x2x4x4xf32> -> tensor<3x5x1x2x2xf32>
  %v3 = fuse.sum %v2 {dims = array<i64: 1>, keepdim = true} : tensor<3x5x1x2x2xf32> -> tensor<3x1x1x2x2xf32>
  return %v3 : tensor<3x1x1x2x2xf32>
}

func.func @kb2_44_mean_mean(%x: tensor<3x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x10x10xf32>
  %v1 = arith.constant dense<0.5> : tensor<f32>
  %v2 = fuse.mul %v0, %v1 : tensor<3x5x10x10xf32>, tensor<f32> -> tensor<3x5x10x10xf32>
  %v3 = fuse.mean %v2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x5x10x10xf32> -> tensor<3x5x1x1xf32>
  %v4 = fuse.mean %v3 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x5x1x1xf32> -> tensor<3x5x1x1xf32>
  return %v4 : tensor<3x5x1x1xf32>
}

func.func @prologue_pool_then_conv(%x: tensor<1x3x7x7xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x5x5xf32> {
  %v0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x3x7x7xf32> -> tensor<1x3x3x3xf32>
  %v1 = fuse.conv_transpose %v0, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x3x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x5x5xf32>
  %v2 = fuse.relu %v1 : tensor<1x5x5x5xf32>
  return %v2 : tensor<1x5x5x5xf32>
}

func.func @prologue_max_pool_ceil_then_conv(%x: tensor<3x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x5x5x5xf32> {
  %v0 = fuse.relu %x : tensor<3x3x5x5xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<3x3x5x5xf32> -> tensor<3x3x3x3xf32>
  %v2 = fuse.conv_transpose %v1, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x3x3x3xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x5xf32>
  return %v2 : tensor<3x5x5x5xf32>
}

func.func @kb2_38_reshape_softmax_reshape(%x: tensor<1x3x5x5x5xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x3x3x3xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5x5xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<1x5x7x7x7xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x5x7x7x7xf32> -> tensor<1x5x3x3x3xf32>
  %v2 = fuse.clamp %v1 {min = -0.5 : f64, max = 0.5 : f64} : tensor<1x5x3x3x3xf32>
  %v3 = fuse.reshape %v2 : tensor<1x5x3x3x3xf32> -> tensor<1x5x27xf32>
  %v4 = fuse.softmax %v3 {dim = 2 : i64} : tensor<1x5x27xf32>
  %v5 = fuse.reshape %v4 : tensor<1x5x27xf32> -> tensor<1x5x3x3x3xf32>
  %v6 = fuse.sigmoid %v5 : tensor<1x5x3x3x3xf32>
  return %v6 : tensor<1x5x3x3x3xf32>
}

func.func @reshape_softmax_reshape_3(%x: tensor<3x5x7xf32>) -> tensor<3x5x7xf32> {
  %v0 = fuse.reshape %x : tensor<3x5x7xf32> -> tensor<3x35xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x35xf32>
  %v2 = fuse.reshape %v1 : tensor<3x35xf32> -> tensor<3x5x7xf32>
  return %v2 : tensor<3x5x7xf32>
}

func.func @elementwise_around_windows(%x: tensor<3x5x5x5xf32>, %w: tensor<5x1x3x3xf32>, %b: tensor<1xf32>) -> tensor<3x5xf32> {
  %v0 = fuse.silu %x : tensor<3x5x5x5xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, count_include_pad = false} : tensor<3x5x5x5xf32> -> tensor<3x5x5x5xf32>
  %v2 = fuse.gelu %v1 : tensor<3x5x5x5xf32>
  %v3 = fuse.conv_transpose %v2, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x5xf32>, tensor<5x1x3x3xf32>, tensor<1xf32>) -> tensor<3x1x9x9xf32>
  %v4 = fuse.tanh %v3 : tensor<3x1x9x9xf32>
  %v5 = fuse.max_pool %v4 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = true} : tensor<3x1x9x9xf32> -> tensor<3x1x5x5xf32>
  %v6 = fuse.sum %v5 {dims = array<i64: 1, 3>} : tensor<3x1x5x5xf32> -> tensor<3x5xf32>
  %v7 = fuse.softplus %v6 : tensor<3x5xf32>
  return %v7 : tensor<3x5xf32>
}

func.func @adaptive_then_reduce(%x: tensor<1x3x5x5xf32>, %w: tensor<3x3x3x3xf32>) -> tensor<1x1x3x5xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x7x7xf32>
  %v1 = fuse.adaptive_max_pool %v0 : tensor<1x3x7x7xf32> -> tensor<1x3x3x5xf32>
  %v2 = fuse.logsumexp %v1 {dims = array<i64: 1>, keepdim = true} : tensor<1x3x3x5xf32> -> tensor<1x1x3x5xf32>
  return %v2 : tensor<1x1x3x5xf32>
}
