// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-reduce-through-conv))' | FileCheck %s

// kb2_44's chain: * 0.5, a mean over (H, W) kept, a second mean (over the
// dims of size 1 the first kept: folded). The conv becomes box sums
// (scale 1 / (14 * 10)) and a conv of output size 1 pinned to FP32.
// CHECK-LABEL: func.func @kb2_44_chain
// CHECK-SAME: (%[[X:.*]]: tensor<3x5x7x5xf32>, %[[W:.*]]: tensor<5x7x3x3xf32>, %[[B:.*]]: tensor<7xf32>)
// CHECK: %[[H:.*]] = arith.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %[[X]] {dilation = array<i64: 1, 1>, kernel_size = array<i64: 3, 3>, output_size = array<i64: 14, 10>, padding = array<i64: 1, 1>, scale = 0.0071428571428571426 : f64, stride = array<i64: 2, 2>} : tensor<3x5x7x5xf32> -> tensor<3x5x3x3xf32>
// CHECK-NEXT: %[[M:.*]] = fuse.conv_transpose %[[T]], %[[W]], %[[B]] {dilation = array<i64: 1, 1>, fuse.precision = #fuse.conv_math<ieee>, output_padding = array<i64: 0, 0>, padding = array<i64: 2, 2>, stride = array<i64: 1, 1>} : (tensor<3x5x3x3xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = fuse.mul %[[M]], %[[H]] : tensor<3x7x1x1xf32>, tensor<f32> -> tensor<3x7x1x1xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: fuse.mean
func.func @kb2_44_chain(%x: tensor<3x5x7x5xf32>, %w: tensor<5x7x3x3xf32>, %b: tensor<7xf32>) -> tensor<3x7x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<3x5x7x5xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x14x10xf32>
  %1 = arith.constant dense<0.5> : tensor<f32>
  %2 = fuse.mul %0, %1 : tensor<3x7x14x10xf32>, tensor<f32> -> tensor<3x7x14x10xf32>
  %3 = fuse.mean %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x7x14x10xf32> -> tensor<3x7x1x1xf32>
  %4 = fuse.mean %3 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x7x1x1xf32> -> tensor<3x7x1x1xf32>
  return %4 : tensor<3x7x1x1xf32>
}

// -----

// No keepdim: the [N, C, 1, 1] mean reshaped to [N, C]; no bias.
// CHECK-LABEL: func.func @mean_no_keepdim
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0
// CHECK-SAME: scale = 0.02380952380952380
// CHECK: %[[M:.*]] = fuse.conv_transpose %[[T]], %arg1 {
// CHECK-SAME: -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = fuse.reshape %[[M]] : tensor<2x4x1x1xf32> -> tensor<2x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @mean_no_keepdim(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<2x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.mean %0 {dims = array<i64: 3, 2>} : tensor<2x4x7x6xf32> -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// -----

// A sum: the mean (bias included) times the 42 positions, after the
// affine chain (sum(x + c) = 42 mean(x) + 42 c).
// CHECK-LABEL: func.func @sum_kept
// CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<f32>
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0
// CHECK: %[[M:.*]] = fuse.conv_transpose %[[T]], %arg1, %arg2
// CHECK-NEXT: %[[A:.*]] = fuse.add %[[M]], %[[C]] : tensor<2x4x1x1xf32>, tensor<f32> -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[P:.*]] = arith.constant dense<4.200000e+01> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = fuse.mul %[[A]], %[[P]]
// CHECK-NEXT: return %[[S]]
func.func @sum_kept(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %c = arith.constant dense<2.0> : tensor<f32>
  %1 = fuse.add %0, %c : tensor<2x4x7x6xf32>, tensor<f32> -> tensor<2x4x7x6xf32>
  %2 = fuse.sum %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %2 : tensor<2x4x1x1xf32>
}

// -----

// Groups and dilation carry over to the box sums and the small conv;
// per-channel coefficients ([C, 1, 1] and [1, C, 1, 1]) broadcast
// against the [N, C, 1, 1] mean as against the conv's result.
// CHECK-LABEL: func.func @groups_dilation_per_channel
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 2, 2>, kernel_size = array<i64: 3, 3>, output_size = array<i64: 7, 7>, padding = array<i64: 1, 1>, {{.*}}stride = array<i64: 1, 1>} : tensor<1x4x5x5xf32> -> tensor<1x4x3x3xf32>
// CHECK: %[[M:.*]] = fuse.conv_transpose %[[T]], %arg1, %arg2 {dilation = array<i64: 1, 1>, fuse.precision = #fuse.conv_math<ieee>, groups = 2 : i64, output_padding = array<i64: 0, 0>, padding = array<i64: 2, 2>, stride = array<i64: 1, 1>}
// CHECK-NEXT: %[[S:.*]] = fuse.mul %arg3, %[[M]] : tensor<6x1x1xf32>, tensor<1x6x1x1xf32> -> tensor<1x6x1x1xf32>
// CHECK-NEXT: %[[D:.*]] = fuse.div %[[S]], %arg4 : tensor<1x6x1x1xf32>, tensor<1x6x1x1xf32> -> tensor<1x6x1x1xf32>
// CHECK-NEXT: %[[N:.*]] = fuse.neg %[[D]] : tensor<1x6x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = fuse.reshape %[[N]] : tensor<1x6x1x1xf32> -> tensor<1x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @groups_dilation_per_channel(%x: tensor<1x4x5x5xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<6xf32>, %s: tensor<6x1x1xf32>, %t: tensor<1x6x1x1xf32>) -> tensor<1x6xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x7xf32>
  %1 = fuse.mul %s, %0 : tensor<6x1x1xf32>, tensor<1x6x7x7xf32> -> tensor<1x6x7x7xf32>
  %2 = fuse.div %1, %t : tensor<1x6x7x7xf32>, tensor<1x6x1x1xf32> -> tensor<1x6x7x7xf32>
  %3 = fuse.neg %2 : tensor<1x6x7x7xf32>
  %4 = fuse.mean %3 {dims = array<i64: 2, 3>} : tensor<1x6x7x7xf32> -> tensor<1x6xf32>
  return %4 : tensor<1x6xf32>
}

// -----

// 3-D, through a sub from a per-sample-and-channel value ([N, C, 1, 1,
// 1]): the kernel sizes, strides, paddings and output sizes per dim.
// CHECK-LABEL: func.func @conv3d
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 1, 2, 1>, kernel_size = array<i64: 2, 3, 3>, output_size = array<i64: 7, 3, 15>, padding = array<i64: 0, 1, 1>, {{.*}}stride = array<i64: 2, 1, 3>} : tensor<3x2x3x1x5xf32> -> tensor<3x2x2x3x3xf32>
// CHECK: fuse.conv_transpose %[[T]], %arg1, %arg2 {{{.*}}padding = array<i64: 1, 2, 2>{{.*}}} : {{.*}} -> tensor<3x3x1x1x1xf32>
// CHECK-NEXT: fuse.sub %arg3, %{{.*}} : tensor<3x3x1x1x1xf32>, tensor<3x3x1x1x1xf32> -> tensor<3x3x1x1x1xf32>
func.func @conv3d(%x: tensor<3x2x3x1x5xf32>, %w: tensor<2x3x2x3x3xf32>, %b: tensor<3xf32>, %m: tensor<3x3x1x1x1xf32>) -> tensor<3x3x1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 1, 3>, padding = array<i64: 0, 1, 1>, output_padding = array<i64: 1, 0, 2>, dilation = array<i64: 1, 2, 1>} : (tensor<3x2x3x1x5xf32>, tensor<2x3x2x3x3xf32>, tensor<3xf32>) -> tensor<3x3x7x3x15xf32>
  %1 = fuse.sub %m, %0 : tensor<3x3x1x1x1xf32>, tensor<3x3x7x3x15xf32> -> tensor<3x3x7x3x15xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3, 4>, keepdim = true} : tensor<3x3x7x3x15xf32> -> tensor<3x3x1x1x1xf32>
  return %2 : tensor<3x3x1x1x1xf32>
}

// -----

// Global average pooling is a mean over the spatial dims too.
// CHECK-LABEL: func.func @global_avg_pool
// CHECK: fuse.conv_transpose_tap_sums
// CHECK-NOT: fuse.adaptive_avg_pool
func.func @global_avg_pool(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %1 : tensor<2x4x1x1xf32>
}

// -----

// An adaptive average pool to size 1 along H only (issue 37's rand37_7
// in small: 16 x 16 taps at stride 8): box sums along H, W kept (its tap
// sums are the input: 3 taps at stride 1, padding 2), and a conv of output
// height 1 that keeps W's stride and padding.
// CHECK-LABEL: func.func @partial_pool_h
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 1, 1>, kernel_size = array<i64: 16, 3>, output_size = array<i64: 64, 1>, padding = array<i64: 4, 2>, scale = 1.562500e-02 : f64, stride = array<i64: 8, 1>} : tensor<2x3x8x3xf32> -> tensor<2x3x16x3xf32>
// CHECK-NEXT: %[[M:.*]] = fuse.conv_transpose %[[T]], %arg1 {dilation = array<i64: 1, 1>, fuse.precision = #fuse.conv_math<ieee>, output_padding = array<i64: 0, 0>, padding = array<i64: 15, 4>, stride = array<i64: 1, 8>} : (tensor<2x3x16x3xf32>, tensor<3x4x16x16xf32>) -> tensor<2x4x1x24xf32>
// CHECK-NEXT: return %[[M]]
func.func @partial_pool_h(%x: tensor<2x3x8x3xf32>, %w: tensor<3x4x16x16xf32>) -> tensor<2x4x1x24xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x8x3xf32>, tensor<3x4x16x16xf32>) -> tensor<2x4x64x24xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<2x4x64x24xf32> -> tensor<2x4x1x24xf32>
  return %1 : tensor<2x4x1x24xf32>
}

// -----

// A sum over W only, not kept: the kept H keeps stride 2, padding 1 and
// output padding 1; the sum is the mean times W's 64 positions.
// CHECK-LABEL: func.func @partial_sum_w
// CHECK: %[[T:.*]] = fuse.conv_transpose_tap_sums %arg0 {dilation = array<i64: 1, 1>, kernel_size = array<i64: 5, 16>, output_size = array<i64: 1, 64>, padding = array<i64: 4, 4>, scale = 1.562500e-02 : f64, stride = array<i64: 1, 8>} : tensor<1x3x5x8xf32> -> tensor<1x3x5x16xf32>
// CHECK-NEXT: %[[M:.*]] = fuse.conv_transpose %[[T]], %arg1, %arg2 {dilation = array<i64: 1, 1>, fuse.precision = #fuse.conv_math<ieee>, output_padding = array<i64: 1, 0>, padding = array<i64: 1, 15>, stride = array<i64: 2, 1>} : (tensor<1x3x5x16xf32>, tensor<3x4x4x16xf32>, tensor<4xf32>) -> tensor<1x4x11x1xf32>
// CHECK-NEXT: %[[P:.*]] = arith.constant dense<6.400000e+01> : tensor<f32>
// CHECK-NEXT: %[[S:.*]] = fuse.mul %[[M]], %[[P]]
// CHECK-NEXT: %[[R:.*]] = fuse.reshape %[[S]] : tensor<1x4x11x1xf32> -> tensor<1x4x11xf32>
// CHECK-NEXT: return %[[R]]
func.func @partial_sum_w(%x: tensor<1x3x5x8xf32>, %w: tensor<3x4x4x16xf32>, %b: tensor<4xf32>) -> tensor<1x4x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 8>, padding = array<i64: 1, 4>, output_padding = array<i64: 1, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x5x8xf32>, tensor<3x4x4x16xf32>, tensor<4xf32>) -> tensor<1x4x11x64xf32>
  %1 = fuse.sum %0 {dims = array<i64: 3>} : tensor<1x4x11x64xf32> -> tensor<1x4x11xf32>
  return %1 : tensor<1x4x11xf32>
}

// -----

// Not rewritten: an adaptive pool that neither keeps nor reduces W.
// CHECK-LABEL: func.func @partial_pool_resized
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.adaptive_avg_pool
func.func @partial_pool_resized(%x: tensor<2x3x8x3xf32>, %w: tensor<3x4x16x16xf32>) -> tensor<2x4x1x12xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x8x3xf32>, tensor<3x4x16x16xf32>) -> tensor<2x4x64x24xf32>
  %1 = fuse.adaptive_avg_pool %0 : tensor<2x4x64x24xf32> -> tensor<2x4x1x12xf32>
  return %1 : tensor<2x4x1x12xf32>
}

// -----

// Not rewritten: a mean over some of the spatial dims whose small
// convolution would save less than 8x the products (H: 7 positions at
// stride 2), or whose box sums would read more than the convolution
// writes (W: 16 taps of a 2 x 40 input for 2 x 31 outputs).
// CHECK-LABEL: func.func @some_spatial_dims
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.mean
func.func @some_spatial_dims(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x6xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x6xf32>
  return %1 : tensor<2x4x1x6xf32>
}

// CHECK-LABEL: func.func @partial_reads_more
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.mean
func.func @partial_reads_more(%x: tensor<1x1x2x40xf32>, %w: tensor<1x1x1x16xf32>) -> tensor<1x1x2x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 12>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x1x2x40xf32>, tensor<1x1x1x16xf32>) -> tensor<1x1x2x31xf32>
  %1 = fuse.mean %0 {dims = array<i64: 3>, keepdim = true} : tensor<1x1x2x31xf32> -> tensor<1x1x2x1xf32>
  return %1 : tensor<1x1x2x1xf32>
}

// -----

// Not rewritten: a mean over the channels and spatial dims.
// CHECK-LABEL: func.func @channels_too
// CHECK-NOT: fuse.conv_transpose_tap_sums
func.func @channels_too(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.mean %0 {dims = array<i64: 1, 2, 3>} : tensor<2x4x7x6xf32> -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// Not rewritten: amax is not linear.
// CHECK-LABEL: func.func @amax
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.amax
func.func @amax(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.amax %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %1 : tensor<2x4x1x1xf32>
}

// -----

// Not rewritten: a relu on the path.
// CHECK-LABEL: func.func @relu_between
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.relu
func.func @relu_between(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.relu %0 : tensor<2x4x7x6xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %2 : tensor<2x4x1x1xf32>
}

// -----

// Not rewritten: the conv's result is also returned.
// CHECK-LABEL: func.func @conv_also_returned
// CHECK-NOT: fuse.conv_transpose_tap_sums
func.func @conv_also_returned(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> (tensor<2x4x1x1xf32>, tensor<2x4x7x6xf32>) {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %1, %0 : tensor<2x4x1x1xf32>, tensor<2x4x7x6xf32>
}

// -----

// Not rewritten: an intermediate of the path has another reader.
// CHECK-LABEL: func.func @intermediate_read
// CHECK-NOT: fuse.conv_transpose_tap_sums
func.func @intermediate_read(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> (tensor<2x4x1x1xf32>, tensor<2x4x7x6xf32>) {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.neg %0 : tensor<2x4x7x6xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %2, %1 : tensor<2x4x1x1xf32>, tensor<2x4x7x6xf32>
}

// -----

// Not rewritten: a coefficient that varies over the positions, the conv
// as a divisor (not affine), the conv added to itself.
// CHECK-LABEL: func.func @not_affine
// CHECK-NOT: fuse.conv_transpose_tap_sums
func.func @not_affine(%x: tensor<2x3x4x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>, %s: tensor<1x1x7x1xf32>) -> (tensor<2x4x1x1xf32>, tensor<2x4x1x1xf32>, tensor<2x4x1x1xf32>) {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %1 = fuse.mul %0, %s : tensor<2x4x7x6xf32>, tensor<1x1x7x1xf32> -> tensor<2x4x7x6xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  %3 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %c = arith.constant dense<2.0> : tensor<f32>
  %4 = fuse.div %c, %3 : tensor<f32>, tensor<2x4x7x6xf32> -> tensor<2x4x7x6xf32>
  %5 = fuse.mean %4 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  %6 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 1>} : (tensor<2x3x4x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x7x6xf32>
  %7 = fuse.add %6, %6 : tensor<2x4x7x6xf32>, tensor<2x4x7x6xf32> -> tensor<2x4x7x6xf32>
  %8 = fuse.mean %7 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x7x6xf32> -> tensor<2x4x1x1xf32>
  return %2, %5, %8 : tensor<2x4x1x1xf32>, tensor<2x4x1x1xf32>, tensor<2x4x1x1xf32>
}

// -----

// Not rewritten: a conv of one output position (its mean is itself); the
// mean over its dims of size 1 is left alone (only means over the value
// a rewrite built are folded).
// CHECK-LABEL: func.func @one_position
// CHECK-NOT: fuse.conv_transpose_tap_sums
// CHECK: fuse.mean
func.func @one_position(%x: tensor<2x3x3x3xf32>, %w: tensor<3x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 2, 2>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x3x3x3xf32>, tensor<3x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x1x1xf32>
  %1 = fuse.mean %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x1x1xf32> -> tensor<2x4x1x1xf32>
  return %1 : tensor<2x4x1x1xf32>
}
