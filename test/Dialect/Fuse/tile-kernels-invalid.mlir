// The FMA tiling's diagnostics: pinned to FMA, as the default (auto) may give
// large-grid kernels the split tensor-core tiling instead.
// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{ieee-tensor-cores=never}))'

// Kernels that one block per tile cannot compute: KernelAnalysis::analyze
// and the tiling cost model reject them with a located diagnostic. Kernels
// formed by fuse-form-kernels carry the convolution's location.

//===----------------------------------------------------------------------===//
// Reductions that span several tiles
//===----------------------------------------------------------------------===//

// fuse-form-kernels gives such a reduction a kernel of its own (see
// plan-kernels.mlir); a kernel formed by hand that holds one behind its
// convolution is rejected.
func.func @softmax_spatial_dim(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
           output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
    // expected-error@+1 {{'fuse.softmax' op reduces a set that spans several output tiles; only the channel dim (1) or the last dim is reduced inside a convolution kernel (fuse-form-kernels plans the others as kernels of their own)}}
    %s = fuse.softmax %c {dim = 2 : i64} : tensor<1x8x7x7xf32>
    fuse.yield %s : tensor<1x8x7x7xf32>
  }
  return %0 : tensor<1x8x7x7xf32>
}

// -----

func.func @group_norm_in_conv_kernel(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
           output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
    // expected-error@+1 {{'fuse.group_norm' op reduces a set that spans several output tiles}}
    %s = fuse.group_norm %c {num_groups = 2 : i64} : tensor<1x8x7x7xf32>
    fuse.yield %s : tensor<1x8x7x7xf32>
  }
  return %0 : tensor<1x8x7x7xf32>
}

// -----

// A last dim of 2000 with layer_norm: even 1024-thread blocks (64 channel
// lanes x 16 W lanes) leave 125 positions x 1 channel per thread. (A last
// dim of 300 fits 512-thread blocks: test/Reference/layernorm-gelu.mlir.)
func.func @too_many_accumulators(%x: tensor<1x4x1998xf32>, %w: tensor<4x64x3xf32>) -> tensor<1x64x2000xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 125 accumulators per thread for a last dim of 2000 (at most 64); a reduction over this row needs a multi-kernel plan}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1998xf32>, tensor<4x64x3xf32>) -> tensor<1x64x2000xf32>
  %1 = fuse.layer_norm %0 : tensor<1x64x2000xf32>
  return %1 : tensor<1x64x2000xf32>
}

// -----

// The same through a last-dim softmax.
func.func @too_many_accumulators_softmax(%x: tensor<1x4x1040xf32>, %w: tensor<4x8x1xf32>) -> tensor<1x8x1040xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 65 accumulators per thread for a last dim of 1040}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1040xf32>, tensor<4x8x1xf32>) -> tensor<1x8x1040xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<1x8x1040xf32>
  return %1 : tensor<1x8x1040xf32>
}

// -----

// A channel softmax over 1024 channels: 1024 x 65 floats per tile.
func.func @shared_memory(%x: tensor<1x4x62xf32>, %w: tensor<4x1024x3xf32>) -> tensor<1x1024x64xf32> {
  // expected-error@+1 {{bytes of shared memory (at most 232448 per block on h200 (sm_90))}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x62xf32>, tensor<4x1024x3xf32>) -> tensor<1x1024x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x1024x64xf32>
  return %1 : tensor<1x1024x64xf32>
}

// -----

// 2^20 batches x 4096 rows: more blocks than one launch can have. (The
// split tensor-core tiling, 4 rows per block, fits such a grid:
// tile-kernels-ieee-tensor-cores-limits.mlir.)
func.func @too_many_blocks(%x: tensor<1048576x1x4096x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1048576x1x4096x1xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 4294967296 blocks, more than one launch can have}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1048576x1x4096x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1048576x1x4096x1xf32>
  return %0 : tensor<1048576x1x4096x1xf32>
}

// -----

// threadsW must be a multiple of the W stride and the grid whole warps:
// 300 x 8 threads, more than the largest block tried (1024).
func.func @huge_stride(%x: tensor<1x4x2xf32>, %w: tensor<4x8x1xf32>) -> tensor<1x8x301xf32> {
  // expected-error@+1 {{'fuse.kernel' op stride 300 along the last dim needs 2400 threads per block for whole warps (at most 1024)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 300>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x2xf32>, tensor<4x8x1xf32>) -> tensor<1x8x301xf32>
  return %0 : tensor<1x8x301xf32>
}

// -----

// 2 groups of 3 output channels at W stride 33: a grouped sub-block cannot
// be padded with channels, so whole warps for the fused channel softmax's
// shuffles come from W alone, lcm(33, 32) = 1056 threads.
func.func @grouped_reduction_warps(%x: tensor<1x4x2xf32>, %w: tensor<4x3x1xf32>) -> tensor<1x6x34xf32> {
  // expected-error@+1 {{'fuse.kernel' op grouped convolution with stride 33 and a fused reduction needs 1056 threads along the last dim for whole warps (at most 1024)}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 33>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 2 : i64}
       : (tensor<1x4x2xf32>, tensor<4x3x1xf32>) -> tensor<1x6x34xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x6x34xf32>
  return %1 : tensor<1x6x34xf32>
}

// -----

// An op after a pooling that reads the convolution's value: the tile holds
// the pooled value after the window op (fuse-form-kernels ends the kernel
// at the pooling instead, see test/Reference/pooled-epilogue.mlir).
func.func @reads_before_window(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x1x1xf32>) -> tensor<1x8x5x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5x5xf32>, tensor<4x8x1x1xf32>) -> tensor<1x8x5x5xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %b: tensor<4x8x1x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
           output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x5x5xf32>, tensor<4x8x1x1xf32>) -> tensor<1x8x5x5xf32>
    %p = fuse.max_pool %c {kernel_size = array<i64: 1, 1>, stride = array<i64: 1, 1>,
           padding = array<i64: 0, 0>} : tensor<1x8x5x5xf32> -> tensor<1x8x5x5xf32>
    // expected-error@+1 {{'fuse.add' op reads a value from before the kernel's window op; after it, an epilogue reads the pooled or reduced value}}
    %s = fuse.add %p, %c : tensor<1x8x5x5xf32>, tensor<1x8x5x5xf32> -> tensor<1x8x5x5xf32>
    fuse.yield %s : tensor<1x8x5x5xf32>
  }
  return %0 : tensor<1x8x5x5xf32>
}

//===----------------------------------------------------------------------===//
// Epilogues that change the shape
//===----------------------------------------------------------------------===//

// -----

// The add broadcasts the convolution output up to a larger tensor; it is an
// elementwise op reading the convolution, so it is fused, but the kernel
// cannot compute it.
func.func @epilogue_grows_shape(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>,
                                %b: tensor<2x1x1xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  // expected-error@+1 {{'fuse.add' op result shape differs from the convolution output; the fused epilogue must keep it}}
  %1 = fuse.add %0, %b : tensor<1x8x7xf32>, tensor<2x1x1xf32> -> tensor<2x8x7xf32>
  return %1 : tensor<2x8x7xf32>
}

//===----------------------------------------------------------------------===//
// Hand-written kernels
//===----------------------------------------------------------------------===//

// -----

// A kernel computes one convolution, and at most one channel contraction
// (a 1x1 convolution of its epilogue's value) after it.
func.func @three_convolutions(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  // expected-error@+1 {{'fuse.kernel' op has more than one convolution after its first; an epilogue contracts the channels at most once}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %d = fuse.conv_transpose %c, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %e = fuse.conv_transpose %d, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    fuse.yield %e : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @second_conv_not_contraction(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>, %w3: tensor<4x4x3xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w, %w3 : tensor<1x4x5xf32>, tensor<4x4x1xf32>, tensor<4x4x3xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>, %b3: tensor<4x4x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    // expected-error@+1 {{'fuse.conv_transpose' op is a second convolution in a kernel but no channel contraction of the epilogue's value (expected kernel size 1, stride 1, no padding, one group and at most 23 output channels on}}
    %d = fuse.conv_transpose %c, %b3 {stride = array<i64: 1>, padding = array<i64: 1>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x3xf32>) -> tensor<1x4x5xf32>
    fuse.yield %d : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @contraction_after_pool(%x: tensor<1x4x6xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x3xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x6xf32>, tensor<4x4x1xf32>) -> tensor<1x4x3xf32> {
  ^bb0(%a: tensor<1x4x6xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x6xf32>, tensor<4x4x1xf32>) -> tensor<1x4x6xf32>
    %p = fuse.max_pool %c {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x4x6xf32> -> tensor<1x4x3xf32>
    // expected-error@+1 {{'fuse.conv_transpose' op contracts a pooled, reduced or normalised value; a channel contraction in an epilogue follows elementwise ops only}}
    %d = fuse.conv_transpose %p, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x3xf32>, tensor<4x4x1xf32>) -> tensor<1x4x3xf32>
    fuse.yield %d : tensor<1x4x3xf32>
  }
  return %0 : tensor<1x4x3xf32>
}

// -----

// A prologue (the ops computing the convolution's input) holds elementwise
// and window ops only.
func.func @prologue_normalization(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    // expected-error@+1 {{'fuse.softmax' op before the convolution of a fused kernel is neither an elementwise nor a window op; a prologue computes the convolution's input from those}}
    %r = fuse.softmax %a {dim = 1 : i64} : tensor<1x4x5xf32>
    %c = fuse.conv_transpose %r, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    fuse.yield %c : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

// A prologue's value feeds the convolution's input alone.
func.func @prologue_read_after(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    // expected-error@+1 {{'fuse.relu' op is a prologue op whose value is read after the convolution; a prologue computes only the convolution's input}}
    %r = fuse.relu %a : tensor<1x4x5xf32>
    %c = fuse.conv_transpose %r, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %s = fuse.add %c, %r : tensor<1x4x5xf32>, tensor<1x4x5xf32> -> tensor<1x4x5xf32>
    fuse.yield %s : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

// Constants may precede the convolution, but its operands must still be
// kernel inputs.
func.func @constant_weight(%x: tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x : tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>):
    %w = arith.constant dense<1.0> : tensor<4x4x1xf32>
    // expected-error@+1 {{'fuse.conv_transpose' op operands of a fused convolution must be kernel inputs}}
    %c = fuse.conv_transpose %a, %w {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    fuse.yield %c : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @not_an_epilogue_op(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    // expected-error@+1 {{'arith.addf' op cannot be part of a fused epilogue}}
    %d = arith.addf %c, %c : tensor<1x4x5xf32>
    fuse.yield %d : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

// The first failing kernel stops the pass; a later kernel is not analysed.
func.func @first_failure_stops(%x: tensor<1x4x1998xf32>, %w: tensor<4x64x3xf32>) -> tensor<1x64x2000xf32> {
  // expected-error@+1 {{'fuse.kernel' op needs 125 accumulators per thread}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1998xf32>, tensor<4x64x3xf32>) -> tensor<1x64x2000xf32>
  %1 = fuse.layer_norm %0 : tensor<1x64x2000xf32>
  %2 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1998xf32>, tensor<4x64x3xf32>) -> tensor<1x64x2000xf32>
  %3 = fuse.layer_norm %2 : tensor<1x64x2000xf32>
  %4 = fuse.add %1, %3 : tensor<1x64x2000xf32>, tensor<1x64x2000xf32> -> tensor<1x64x2000xf32>
  return %4 : tensor<1x64x2000xf32>
}

//===----------------------------------------------------------------------===//
// Pooled epilogues that a kernel cannot compute
//===----------------------------------------------------------------------===//

// -----

func.func @pool_with_padding(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x6xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x6xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    // expected-error@+1 {{'fuse.max_pool' op cannot be applied in a convolution epilogue (expected a pooling of the convolution's shape with no padding, whose windows span at most 256 positions along W and take at most 64 main-loop passes)}}
    %p = fuse.max_pool %c {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 1>} : tensor<1x8x10xf32> -> tensor<1x8x6xf32>
    fuse.yield %p : tensor<1x8x6xf32>
  }
  return %0 : tensor<1x8x6xf32>
}

// -----

func.func @two_pools(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x2xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x2xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    %p = fuse.max_pool %c {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
    // expected-error@+1 {{'fuse.avg_pool' op is a second window op in a convolution kernel; its epilogue pools, reduces over the channels, or pools and then reduces over the channels}}
    %q = fuse.avg_pool %p {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 0>} : tensor<1x8x5xf32> -> tensor<1x8x2xf32>
    fuse.yield %q : tensor<1x8x2xf32>
  }
  return %0 : tensor<1x8x2xf32>
}

// -----

func.func @reduce_after_channel_reduction(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x1x10xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x1x10xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    %s = fuse.sum %c {dims = array<i64: 1>, keepdim = true} : tensor<1x8x10xf32> -> tensor<1x1x10xf32>
    // expected-error@+1 {{'fuse.amax' op is a second window op in a convolution kernel; its epilogue pools, reduces over the channels, or pools and then reduces over the channels}}
    %m = fuse.amax %s {dims = array<i64: 1>, keepdim = true} : tensor<1x1x10xf32> -> tensor<1x1x10xf32>
    fuse.yield %m : tensor<1x1x10xf32>
  }
  return %0 : tensor<1x1x10xf32>
}

// -----

func.func @pool_after_softmax(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    %s = fuse.softmax %c {dim = 1 : i64} : tensor<1x8x10xf32>
    // expected-error@+1 {{'fuse.max_pool' op pools or reduces the result of a normalisation; a window epilogue takes elementwise ops only}}
    %p = fuse.max_pool %s {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
    fuse.yield %p : tensor<1x8x5xf32>
  }
  return %0 : tensor<1x8x5xf32>
}

// -----

func.func @softmax_after_pool(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    %p = fuse.max_pool %c {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
    // expected-error@+1 {{'fuse.softmax' op follows a window epilogue; a normalisation after pooling or a reduction gets a kernel of its own}}
    %s = fuse.softmax %p {dim = 1 : i64} : tensor<1x8x5xf32>
    fuse.yield %s : tensor<1x8x5xf32>
  }
  return %0 : tensor<1x8x5xf32>
}

// -----

func.func @yield_before_pool(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x10xf32> {
  // expected-error@+1 {{'fuse.kernel' op yields a value from before its window op; a window epilogue's result is the pooled or reduced one}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x2xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
    %p = fuse.max_pool %c {kernel_size = array<i64: 2>, stride = array<i64: 2>,
           padding = array<i64: 0>} : tensor<1x8x10xf32> -> tensor<1x8x5xf32>
    fuse.yield %c : tensor<1x8x10xf32>
  }
  return %0 : tensor<1x8x10xf32>
}

// -----

// fuse.precision pins a convolution to FP32 FMA (#fuse.conv_math<ieee>); no
// other value.
func.func @pinned_precision_tf32(%x: tensor<1x4x5xf32>, %w: tensor<4x8x2xf32>) -> tensor<1x8x10xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op expected 'fuse.precision' to be #fuse.conv_math<ieee> (the convolution pinned to FP32 FMA), got #fuse.conv_math<tf32>}}
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>, fuse.precision = #fuse.conv_math<tf32>}
       : (tensor<1x4x5xf32>, tensor<4x8x2xf32>) -> tensor<1x8x10xf32>
  return %c : tensor<1x8x10xf32>
}

// -----

// A parameter op (reading kernel inputs only, after the convolution) must
// be an elementwise op or a view: the epilogue evaluates it per element.
func.func @parameter_op_window(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>, %p: tensor<1x8x9x9xf32>) -> tensor<1x8x7x7xf32> {
  %0 = fuse.kernel "k" ins(%x, %w, %p : tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>, tensor<1x8x9x9xf32>) -> tensor<1x8x7x7xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %b: tensor<4x8x3x3xf32>, %q: tensor<1x8x9x9xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
           output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
    // expected-error@+1 {{'fuse.max_pool' op reads no value of the convolution but is neither an elementwise op nor a view; a convolution kernel's parameter ops compute per-element values from its inputs}}
    %m = fuse.max_pool %q {kernel_size = array<i64: 3, 3>, stride = array<i64: 1, 1>,
           padding = array<i64: 0, 0>} : tensor<1x8x9x9xf32> -> tensor<1x8x7x7xf32>
    %s = fuse.add %c, %m : tensor<1x8x7x7xf32>, tensor<1x8x7x7xf32> -> tensor<1x8x7x7xf32>
    fuse.yield %s : tensor<1x8x7x7xf32>
  }
  return %0 : tensor<1x8x7x7xf32>
}

// -----

func.func @two_contractions(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  // expected-error@+1 {{'fuse.kernel' op has more than one convolution after its first; an epilogue contracts the channels at most once}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %d = fuse.conv_transpose %c, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %e = fuse.conv_transpose %d, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    fuse.yield %e : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @contraction_weight_computed(%x: tensor<1x4x5xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    %n = fuse.neg %b : tensor<4x4x1xf32>
    // expected-error@+1 {{'fuse.conv_transpose' op weight and bias of a channel contraction must be kernel inputs}}
    %d = fuse.conv_transpose %c, %n {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x4x1xf32>) -> tensor<1x4x5xf32>
    fuse.yield %d : tensor<1x4x5xf32>
  }
  return %0 : tensor<1x4x5xf32>
}

// -----

func.func @pool_after_contraction(%x: tensor<1x4x6xf32>, %w: tensor<4x4x1xf32>) -> tensor<1x4x3xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x6xf32>, tensor<4x4x1xf32>) -> tensor<1x4x3xf32> {
  ^bb0(%a: tensor<1x4x6xf32>, %b: tensor<4x4x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x6xf32>, tensor<4x4x1xf32>) -> tensor<1x4x6xf32>
    %d = fuse.conv_transpose %c, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x6xf32>, tensor<4x4x1xf32>) -> tensor<1x4x6xf32>
    // expected-error@+1 {{'fuse.max_pool' op follows a channel contraction; its epilogue takes elementwise ops only}}
    %p = fuse.max_pool %d {kernel_size = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0>} : tensor<1x4x6xf32> -> tensor<1x4x3xf32>
    fuse.yield %p : tensor<1x4x3xf32>
  }
  return %0 : tensor<1x4x3xf32>
}
