// RUN: fusecc-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of fuse.conv_transpose_tap_sums's verifier (TapSumsOp.cpp).

func.func @rank(%x: tensor<4x4xf32>) {
  // expected-error@+1 {{expected an input of rank 3, 4 or 5 ([N, C, *spatial] with 1 to 3 spatial dims), got rank 2}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64>, stride = array<i64>, padding = array<i64>, dilation = array<i64>, output_size = array<i64>} : tensor<4x4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @entries(%x: tensor<1x2x5x5xf32>) {
  // expected-error@+1 {{expected 'stride' to have 2 entries (one per spatial dim), got 1}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, output_size = array<i64: 9, 9>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @kernel_size_zero(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{expected every 'kernel_size' entry >= 1, got 0}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 0>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, output_size = array<i64: 4>} : tensor<1x2x5xf32> -> tensor<1x2x0xf32>
  return
}

// -----

func.func @negative_padding(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{expected every 'padding' entry >= 0, got -1}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: -1>, dilation = array<i64: 1>, output_size = array<i64: 9>} : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @output_size_zero(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{expected every 'output_size' entry >= 1, got 0}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, output_size = array<i64: 0>} : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @scale_inf(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{expected a finite 'scale', got INF}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, output_size = array<i64: 7>, scale = 0x7FF0000000000000 : f64} : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @dilation_overflow(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{the tap intervals of spatial dim 0 (kernel_size 3, dilation 4611686018427387904, padding 0, stride 1, output_size 7) overflow int64}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 4611686018427387904>, output_size = array<i64: 7>} : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @output_size_overflow(%x: tensor<1x2x5xf32>) {
  // expected-error@+1 {{the tap intervals of spatial dim 0 (kernel_size 3, dilation 1, padding 1, stride 1, output_size 9223372036854775807) overflow int64}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3>, stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, output_size = array<i64: 9223372036854775807>} : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return
}

// -----

func.func @result_shape(%x: tensor<1x2x5x5xf32>) {
  // expected-error@+1 {{expected result shape [1,2,3,2] ([N, C, *kernel_size]), got [1,2,3,3]}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 3, 2>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, output_size = array<i64: 7, 6>} : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return
}

// -----

// Issue 38: the box sums loop over the taps (this one hung fusecc).
func.func @kernel_size_2_34(%x: tensor<1x1x4xf32>) {
  // expected-error@+1 {{kernel size 17179869184 exceeds 1024, the most the generated kernels unroll}}
  %0 = fuse.conv_transpose_tap_sums %x {kernel_size = array<i64: 17179869184>, stride = array<i64: 1>, padding = array<i64: 0>, dilation = array<i64: 1>, output_size = array<i64: 17179869187>} : tensor<1x1x4xf32> -> tensor<1x1x17179869184xf32>
  return
}
