// RUN: fusecc-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the window ops' verifiers (PoolingOps.cpp, ReductionOps.cpp), at least
// once each, plus the ODS constraints they rely on.

//===----------------------------------------------------------------------===//
// ODS constraints
//===----------------------------------------------------------------------===//

func.func @pool_f64(%x: tensor<1x1x4xf64>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<1x1x4xf64>'}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x1x4xf64> -> tensor<1x1x2xf64>
  return
}

// -----

func.func @reduce_dynamic(%x: tensor<?x4xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float values, but got 'tensor<?x4xf32>'}}
  %0 = fuse.sum %x {dims = array<i64: 1>} : tensor<?x4xf32> -> tensor<?xf32>
  return
}

// -----

func.func @pool_missing_stride(%x: tensor<1x1x4xf32>) {
  // expected-error@+1 {{requires attribute 'stride'}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2>, padding = array<i64: 0>} : tensor<1x1x4xf32> -> tensor<1x1x2xf32>
  return
}

// -----

func.func @reduce_missing_dims(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{requires attribute 'dims'}}
  %0 = fuse.mean %x {keepdim = true} : tensor<2x4xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @divisor_override_i32(%x: tensor<1x1x4xf32>) {
  // expected-error@+1 {{attribute 'divisor_override' failed to satisfy constraint: 64-bit signless integer attribute}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>, divisor_override = 3 : i32} : tensor<1x1x4xf32> -> tensor<1x1x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// max_pool / avg_pool
//===----------------------------------------------------------------------===//

// -----

func.func @pool_no_spatial_dims(%x: tensor<1x1xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected 1 to 3 entries in 'kernel_size' (the spatial dims), got 0}}
  %0 = fuse.max_pool %x {kernel_size = array<i64>, stride = array<i64>, padding = array<i64>} : tensor<1x1xf32> -> tensor<1x1xf32>
  return
}

// -----

func.func @pool_4_spatial_dims(%x: tensor<1x1x2x2x2x2xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected 1 to 3 entries in 'kernel_size' (the spatial dims), got 4}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1, 1, 1>, padding = array<i64: 0, 0, 0, 0>} : tensor<1x1x2x2x2x2xf32> -> tensor<1x1x2x2x2x2xf32>
  return
}

// -----

func.func @pool_rank_mismatch(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected a rank-4 input [N, C, 2 spatial dims] for a kernel_size of 2 entries, got rank 3}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x3x8xf32> -> tensor<1x3x4xf32>
  return
}

// -----

func.func @pool_rank_mismatch_3d(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected a rank-5 input [N, C, 3 spatial dims] for a kernel_size of 3 entries, got rank 4}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_stride_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected 2 entries in 'stride' (one per kernel_size entry), got 1}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2>, padding = array<i64: 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_padding_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected 2 entries in 'padding' (one per kernel_size entry), got 3}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_dilation_length(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected 2 entries in 'dilation' (one per kernel_size entry), got 0}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, dilation = array<i64>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_kernel_zero(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected kernel_size, stride and dilation of at least 1 and padding of at least 0 in spatial dim 1, got kernel 0, stride 1, dilation 1, padding 0}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 0>, stride = array<i64: 2, 1>, padding = array<i64: 0, 0>} : tensor<1x3x8x8xf32> -> tensor<1x3x4x9xf32>
  return
}

// -----

func.func @pool_stride_zero(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected kernel_size, stride and dilation of at least 1 and padding of at least 0 in spatial dim 0, got kernel 2, stride 0, dilation 1, padding 0}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 0>, padding = array<i64: 0>} : tensor<1x3x8xf32> -> tensor<1x3x4xf32>
  return
}

// -----

func.func @pool_dilation_zero(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected kernel_size, stride and dilation of at least 1 and padding of at least 0 in spatial dim 0, got kernel 2, stride 2, dilation 0, padding 0}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>, dilation = array<i64: 0>} : tensor<1x3x8xf32> -> tensor<1x3x4xf32>
  return
}

// -----

func.func @pool_negative_padding(%x: tensor<1x3x8x8x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected kernel_size, stride and dilation of at least 1 and padding of at least 0 in spatial dim 2, got kernel 2, stride 2, dilation 1, padding -1}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, -1>} : tensor<1x3x8x8x8xf32> -> tensor<1x3x4x4x3xf32>
  return
}

// -----

// Padding 2 is more than half of kernel 3 (PyTorch: pad <= k / 2).
func.func @avg_pool_padding_too_large(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op padding 2 in spatial dim 0 exceeds half the kernel size 3 (PyTorch requires padding <= kernel_size / 2)}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 2>} : tensor<1x3x8xf32> -> tensor<1x3x10xf32>
  return
}

// -----

// The limit is half the kernel size, dilation aside (kernel 2: padding 1):
// a dilated window could otherwise lie wholly in the padding.
func.func @max_pool_padding_too_large_dilated(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op padding 3 in spatial dim 1 exceeds half the kernel size 2 (PyTorch requires padding <= kernel_size / 2)}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 1>, padding = array<i64: 0, 3>, dilation = array<i64: 1, 3>} : tensor<1x3x8x8xf32> -> tensor<1x3x7x11xf32>
  return
}

// -----

// The same limit for max_pool.
func.func @max_pool_padding_too_large(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op padding 2 in spatial dim 0 exceeds half the kernel size 2 (PyTorch requires padding <= kernel_size / 2)}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 1>, padding = array<i64: 2>} : tensor<1x3x8xf32> -> tensor<1x3x11xf32>
  return
}

// -----

// ceil_mode adds stride - 1 = INT64_MAX - 1 to in + 2 * padding - kernel = 2.
func.func @pool_output_size_overflow(%x: tensor<1x1x3xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op output size of spatial dim 0 overflows int64}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 1>, stride = array<i64: 9223372036854775807>, padding = array<i64: 0>, ceil_mode = true} : tensor<1x1x3xf32> -> tensor<1x1x1xf32>
  return
}

// -----

func.func @pool_window_does_not_fit(%x: tensor<1x3x2xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op the window does not fit in spatial dim 0 (input 2 with padding 0 against a dilated kernel of 5): the output would be empty}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 5>, stride = array<i64: 1>, padding = array<i64: 0>} : tensor<1x3x2xf32> -> tensor<1x3x0xf32>
  return
}

// -----

// Dilation 3 stretches kernel 3 to 7: it does not fit in 5 (+ 2 * 1).
func.func @max_pool_dilated_window_does_not_fit(%x: tensor<1x3x5x5xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op the window does not fit in spatial dim 1 (input 5 with padding 0 against a dilated kernel of 7): the output would be empty}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 0>, dilation = array<i64: 1, 3>} : tensor<1x3x5x5xf32> -> tensor<1x3x5x1xf32>
  return
}

// -----

func.func @max_pool_result_shape(%x: tensor<1x3x7x7xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected result shape [1,3,3,3], got [1,3,4,4]}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x3x7x7xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// ceil_mode would give 4, so 3 is wrong here.
func.func @max_pool_ceil_result_shape(%x: tensor<1x3x7x7xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op expected result shape [1,3,4,4], got [1,3,3,3]}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, ceil_mode = true} : tensor<1x3x7x7xf32> -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @avg_pool_result_keeps_n_c(%x: tensor<3x5x7xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected result shape [3,5,3], got [3,1,3]}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<3x5x7xf32> -> tensor<3x1x3xf32>
  return
}

// -----

// Two windows of 2^32 (padding 2^31 each side of a size-1 input): 2^64
// elements in all.
func.func @pool_window_volume_overflow(%x: tensor<1x1x1x1xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op the window's volume overflows int64}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 4294967296, 4294967296>, stride = array<i64: 1, 1>, padding = array<i64: 2147483648, 2147483648>} : tensor<1x1x1x1xf32> -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @avg_pool_divisor_override_zero(%x: tensor<1x3x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected a positive divisor_override, got 0}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>, divisor_override = 0 : i64} : tensor<1x3x8xf32> -> tensor<1x3x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// adaptive_avg_pool / adaptive_max_pool
//===----------------------------------------------------------------------===//

// -----

func.func @adaptive_rank2(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuse.adaptive_avg_pool' op expected an input [N, C, *spatial] with 1 to 3 spatial dims, got rank 2}}
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @adaptive_rank6(%x: tensor<1x1x2x2x2x2xf32>) {
  // expected-error@+1 {{'fuse.adaptive_max_pool' op expected an input [N, C, *spatial] with 1 to 3 spatial dims, got rank 6}}
  %0 = fuse.adaptive_max_pool %x : tensor<1x1x2x2x2x2xf32> -> tensor<1x1x1x1x1x1xf32>
  return
}

// -----

func.func @adaptive_result_rank(%x: tensor<2x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.adaptive_avg_pool' op expected a result of rank 4 (the input's), got 2}}
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3x8x8xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @adaptive_result_n(%x: tensor<2x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.adaptive_max_pool' op expected the result to keep N and C [2,3], got [1,3]}}
  %0 = fuse.adaptive_max_pool %x : tensor<2x3x8x8xf32> -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @adaptive_result_c(%x: tensor<2x3x8xf32>) {
  // expected-error@+1 {{'fuse.adaptive_avg_pool' op expected the result to keep N and C [2,3], got [2,6]}}
  %0 = fuse.adaptive_avg_pool %x : tensor<2x3x8xf32> -> tensor<2x6x4xf32>
  return
}

// -----

func.func @adaptive_empty_input(%x: tensor<1x3x4x0x4xf32>) {
  // expected-error@+1 {{'fuse.adaptive_avg_pool' op expected non-empty spatial dims, dim 3 has size 0}}
  %0 = fuse.adaptive_avg_pool %x : tensor<1x3x4x0x4xf32> -> tensor<1x3x2x2x2xf32>
  return
}

// -----

func.func @adaptive_empty_output(%x: tensor<1x3x4x4xf32>) {
  // expected-error@+1 {{'fuse.adaptive_max_pool' op expected output sizes of at least 1, dim 3 has size 0}}
  %0 = fuse.adaptive_max_pool %x : tensor<1x3x4x4xf32> -> tensor<1x3x2x0xf32>
  return
}

//===----------------------------------------------------------------------===//
// sum / mean / amax / amin / logsumexp
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_no_dims(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'fuse.sum' op expected at least one dim in 'dims'}}
  %0 = fuse.sum %x {dims = array<i64>} : tensor<2x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reduce_dim_too_large(%x: tensor<2x3x4x5xf32>) {
  // expected-error@+1 {{'fuse.mean' op dim 4 is out of range for a rank-4 tensor (expected 0..3)}}
  %0 = fuse.mean %x {dims = array<i64: 1, 4>} : tensor<2x3x4x5xf32> -> tensor<2x4xf32>
  return
}

// -----

// Negative dims (PyTorch's dim=-1) are not accepted: dims are normalised.
func.func @reduce_dim_negative(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuse.amax' op dim -1 is out of range for a rank-2 tensor (expected 0..1)}}
  %0 = fuse.amax %x {dims = array<i64: -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{'fuse.logsumexp' op dim 0 is out of range for a rank-0 tensor (expected 0..-1)}}
  %0 = fuse.logsumexp %x {dims = array<i64: 0>} : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @reduce_dim_twice(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'fuse.amin' op dim 2 appears twice in 'dims'}}
  %0 = fuse.amin %x {dims = array<i64: 2, 0, 2>} : tensor<2x3x4xf32> -> tensor<3xf32>
  return
}

// -----

func.func @reduce_empty_dim(%x: tensor<2x0x3xf32>) {
  // expected-error@+1 {{'fuse.amax' op reduces dim 1 of size 0 (an empty set)}}
  %0 = fuse.amax %x {dims = array<i64: 1>} : tensor<2x0x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @sum_keepdim_result_shape(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'fuse.sum' op expected result shape [2,1,4], got [2,4]}}
  %0 = fuse.sum %x {dims = array<i64: 1>, keepdim = true} : tensor<2x3x4xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @mean_no_keepdim_result_shape(%x: tensor<2x3x4x5xf32>) {
  // expected-error@+1 {{'fuse.mean' op expected result shape [2,3], got [2,3,1,1]}}
  %0 = fuse.mean %x {dims = array<i64: 3, 2>} : tensor<2x3x4x5xf32> -> tensor<2x3x1x1xf32>
  return
}

// -----

func.func @logsumexp_result_shape(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'fuse.logsumexp' op expected result shape [3], got [2]}}
  %0 = fuse.logsumexp %x {dims = array<i64: 0, 2>} : tensor<2x3x4xf32> -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'fuse.reshape' op expected a result with the input's 6 elements, got 8 (shape [2,4])}}
  %0 = fuse.reshape %x : tensor<2x3xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_to_rank0(%x: tensor<2xf32>) {
  // expected-error@+1 {{'fuse.reshape' op expected a result with the input's 2 elements, got 1 (shape [])}}
  %0 = fuse.reshape %x : tensor<2xf32> -> tensor<f32>
  return
}

// -----

// Regression: a negative divisor_override (read unsigned at first).
func.func @avg_pool_divisor_override_negative(%x: tensor<1x3x8x8xf32>) {
  // expected-error@+1 {{'fuse.avg_pool' op expected a positive divisor_override, got -4}}
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, divisor_override = -4 : i64} : tensor<1x3x8x8xf32> -> tensor<1x3x4x4xf32>
  return
}

// -----

// poolOutputSize rounds a negative numerator down with
// -((-num + s - 1) / s): here num = 1 - 2^62 - 1 = -2^62 and s = 2^62 + 1,
// so -num + s - 1 = 2^63 overflows (signed overflow, UB) and wraps to give
// an output size of 2 for a window of 2^62 + 1 positions over an input of 1.
// The right answer is floor(-2^62 / (2^62 + 1)) + 1 = 0: an empty output.
func.func @pool_negative_numerator_overflow(%x: tensor<1x1x1xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op the window does not fit in spatial dim 0 (input 1 with padding 0 against a dilated kernel of 4611686018427387905): the output would be empty}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 2>, stride = array<i64: 4611686018427387905>, padding = array<i64: 0>, dilation = array<i64: 4611686018427387904>} : tensor<1x1x1xf32> -> tensor<1x1x2xf32>
  return
}

// -----

// dilation * (kernel - 1) + 1 = 2^63 + 1 does not fit int64.
func.func @pool_dilated_kernel_overflow(%x: tensor<1x1x4xf32>) {
  // expected-error@+1 {{'fuse.max_pool' op the dilated kernel size of spatial dim 0 overflows int64}}
  %0 = fuse.max_pool %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 4611686018427387904>} : tensor<1x1x4xf32> -> tensor<1x1x1xf32>
  return
}
