// PTX of window-op kernels (pools, adaptive pools, reductions, reshape,
// alone and around transposed convolutions) at small, awkward shapes is
// accepted by ptxas in both precision modes: batch 1 and 3, channels 1/3/5,
// spatial sizes 1/5/7, 1-D, 2-D and 3-D windows, padding, dilation,
// ceil_mode, count_include_pad, divisor_override, logsumexp (libdevice exp
// and log), a pool on the graph input before a convolution.
// REQUIRES: ptxas

// RUN: fusecc %s --emit=ptx -o %t.ieee.ptx
// RUN: %ptxas -arch=sm_90 %t.ieee.ptx -o %t.ieee.cubin
// RUN: FileCheck %s < %t.ieee.ptx
// RUN: fusecc %s --emit=ptx --precision=tf32 -o %t.tf32.ptx
// RUN: %ptxas -arch=sm_90 %t.tf32.ptx -o %t.tf32.cubin
// RUN: FileCheck %s < %t.tf32.ptx

// Every function has kernels in the module.

// CHECK-DAG: .visible .entry ct_max_pool_pad_dil_ceil_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_avg_pool_2d_ceil_exclude_pad_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_avg_pool_3d_divisor_override_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_max_pool_3d_ceil_sp1_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_max_pool_1d_dilated_padding_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry adaptive_avg_non_divisible_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry adaptive_max_3d_mixed_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_adaptive_avg_3d_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_logsumexp_channels_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_amin_spatial_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry ct_mean_all_non_batch_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry kb2_78_pool_pool_sum_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry prologue_max_pool_ceil_then_conv_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry kb2_38_reshape_softmax_reshape_k{{[0-9]+}}(
// CHECK-DAG: .visible .entry elementwise_around_windows_k{{[0-9]+}}(

func.func @ct_max_pool_pad_dil_ceil(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x5x5xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 2>, ceil_mode = true} : tensor<1x5x9x9xf32> -> tensor<1x5x5x5xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x5x5x5xf32>
  return %v2 : tensor<1x5x5x5xf32>
}

func.func @ct_avg_pool_2d_ceil_exclude_pad(%x: tensor<1x5x5x7xf32>, %w: tensor<5x1x2x2xf32>) -> tensor<1x1x4x5xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x5x5x7xf32>, tensor<5x1x2x2xf32>) -> tensor<1x1x6x8xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = false} : tensor<1x1x6x8xf32> -> tensor<1x1x4x5xf32>
  return %v1 : tensor<1x1x4x5xf32>
}

func.func @ct_avg_pool_3d_divisor_override(%x: tensor<1x3x1x5x5xf32>, %w: tensor<3x3x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x4x4xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x3x1x5x5xf32>, tensor<3x3x3x3x3xf32>, tensor<3xf32>) -> tensor<1x3x3x7x7xf32>
  %v1 = fuse.avg_pool %v0 {kernel_size = array<i64: 2, 3, 3>, stride = array<i64: 1, 2, 2>, padding = array<i64: 1, 1, 1>, divisor_override = 5 : i64} : tensor<1x3x3x7x7xf32> -> tensor<1x3x4x4x4xf32>
  return %v1 : tensor<1x3x4x4x4xf32>
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

func.func @adaptive_avg_non_divisible(%x: tensor<3x5x7x5xf32>) -> tensor<3x5x3x2xf32> {
  %v0 = fuse.tanh %x : tensor<3x5x7x5xf32>
  %v1 = fuse.adaptive_avg_pool %v0 : tensor<3x5x7x5xf32> -> tensor<3x5x3x2xf32>
  return %v1 : tensor<3x5x3x2xf32>
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

func.func @ct_logsumexp_channels(%x: tensor<3x5x5x7xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<3x1x5x7xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x5x7xf32>, tensor<5x3x3x3xf32>, tensor<3xf32>) -> tensor<3x3x5x7xf32>
  %v1 = fuse.logsumexp %v0 {dims = array<i64: 1>, keepdim = true} : tensor<3x3x5x7xf32> -> tensor<3x1x5x7xf32>
  return %v1 : tensor<3x1x5x7xf32>
}

func.func @ct_amin_spatial(%x: tensor<1x3x5x5xf32>, %w: tensor<3x5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<3x5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x9x9xf32>
  %v1 = fuse.amin %v0 {dims = array<i64: 3, 2>, keepdim = true} : tensor<1x5x9x9xf32> -> tensor<1x5x1x1xf32>
  return %v1 : tensor<1x5x1x1xf32>
}

func.func @ct_mean_all_non_batch(%x: tensor<3x5x1x5xf32>, %w: tensor<5x1x3x3xf32>) -> tensor<3x1x1x1xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 2>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x1x5xf32>, tensor<5x1x3x3xf32>) -> tensor<3x1x3x9xf32>
  %v1 = fuse.mean %v0 {dims = array<i64: 3, 1, 2>, keepdim = true} : tensor<3x1x3x9xf32> -> tensor<3x1x1x1xf32>
  return %v1 : tensor<3x1x1x1xf32>
}

func.func @kb2_78_pool_pool_sum(%x: tensor<3x3x3x5x5xf32>, %w: tensor<3x5x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<3x1x1x2x2xf32> {
  %v0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<3x3x3x5x5xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x9x9xf32>
  %v1 = fuse.max_pool %v0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x5x9x9xf32> -> tensor<3x5x2x4x4xf32>
  %v2 = fuse.max_pool %v1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x2x4x4xf32> -> tensor<3x5x1x2x2xf32>
  %v3 = fuse.sum %v2 {dims = array<i64: 1>, keepdim = true} : tensor<3x5x1x2x2xf32> -> tensor<3x1x1x2x2xf32>
  return %v3 : tensor<3x1x1x2x2xf32>
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
