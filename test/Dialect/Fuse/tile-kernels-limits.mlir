// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels))'
// ieee on FP32 FMA only, and on the split-operand tensor cores wherever they
// fit (the default, auto, takes them for large grids).
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=never}))'
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=always}))'
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))'
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32 wgmma=1}))'
//
// Issue 17: limits of the kernel generator are checked (in both precisions
// and on every tensor-core path) before a plan loops, unrolls or multiplies
// over the geometry.

// A W stride of 2^61 (the output stays 1 wide): passed the ieee thread
// check, then wrapped the tf32 thread count (2^61 x 8 threads).
func.func @w_stride_2_61(%x: tensor<1x4x1xf32>, %w: tensor<4x8x1xf32>) -> tensor<1x8x1xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op stride 2305843009213693952 along the last dim needs more than 1024 threads per block (threads along W are a multiple of the stride)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2305843009213693952>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1xf32>, tensor<4x8x1xf32>) -> tensor<1x8x1xf32>
  return %0 : tensor<1x8x1xf32>
}

// -----

// An H stride of 2^31: LaunchPlan::get looped over the stride (over 60 s);
// it counts the row blocks in closed form now, and the grid is too large.
func.func @h_stride_2_31(%x: tensor<1x1x2x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x2147483649x1xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 2147483649 blocks, more than one launch can have (2147483647)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2147483648, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2147483649x1xf32>
  return %0 : tensor<1x1x2147483649x1xf32>
}

// -----

// A kernel size of 2^40 along W: its taps would be unrolled (stageWeights
// ran out of time and memory with 2^63 - 1).
func.func @kernel_size_w(%x: tensor<1x1x1xf32>, %w: tensor<1x1x1099511627776xf32>) -> tensor<1x1x1099511627776xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op kernel size 1099511627776 along spatial dim 0 exceeds 1024, the most the generated kernels unroll}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x1x1099511627776xf32>) -> tensor<1x1x1099511627776xf32>
  return %0 : tensor<1x1x1099511627776xf32>
}

// -----

// Along H too (its tap phases are selected by unrolled code).
func.func @kernel_size_h(%x: tensor<1x1x1x4xf32>, %w: tensor<1x1x1025x1xf32>) -> tensor<1x1x1025x4xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op kernel size 1025 along spatial dim 0 exceeds 1024}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x1x1x4xf32>, tensor<1x1x1025x1xf32>) -> tensor<1x1x1025x4xf32>
  return %0 : tensor<1x1x1025x4xf32>
}

// -----

// A batch of 2^40: the block count is checked without wrapping.
func.func @batch_2_40(%x: tensor<1099511627776x1x1xf32>, %w: tensor<1x1x1xf32>) -> tensor<1099511627776x1x1xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 1099511627776 blocks, more than one launch can have (2147483647)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1099511627776x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1099511627776x1x1xf32>
  return %0 : tensor<1099511627776x1x1xf32>
}

// -----

// 2^58 channels under a channel softmax: the tile and statistics sizes
// saturate instead of wrapping, and the shared memory check rejects them.
func.func @channels_2_58(%x: tensor<1x1x1xf32>, %w: tensor<1x288230376151711744x1xf32>) -> tensor<1x288230376151711744x1xf32> {
  // expected-error@+1 {{bytes of shared memory (at most 232448 per block on h200 (sm_90))}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x288230376151711744x1xf32>) -> tensor<1x288230376151711744x1xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x288230376151711744x1xf32>
  return %1 : tensor<1x288230376151711744x1xf32>
}

// -----

// A dilation of 2^50 along W with a 2-tap kernel: the staged input span
// saturates (it wrapped before), and the shared memory check rejects it.
func.func @dilation_2_50(%x: tensor<1x1x1xf32>, %w: tensor<1x1x2xf32>) -> tensor<1x1x1125899906842625xf32> {
  // expected-error@+1 {{bytes of shared memory (at most 232448 per block on h200 (sm_90))}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1125899906842624>}
       : (tensor<1x1x1xf32>, tensor<1x1x2xf32>) -> tensor<1x1x1125899906842625xf32>
  return %0 : tensor<1x1x1125899906842625xf32>
}
