// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(fuse-plan-kernels),fuse-convert-to-gpu)'

// fuse-convert-to-gpu needs every graph op inside a tiled kernel whose
// inputs are function arguments and whose result is returned.

func.func @no_config(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  // expected-error@+1 {{'fuse.kernel' op has no tile config; run fuse-tile-kernels before fuse-convert-to-gpu}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    fuse.yield %c : tensor<1x8x7xf32>
  }
  return %0 : tensor<1x8x7xf32>
}

// -----

func.func @op_outside_kernel(%x: tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  // expected-error@+1 {{'fuse.relu' op is not part of a fused kernel; run fuse-form-kernels first}}
  %0 = fuse.relu %x : tensor<1x4x5xf32>
  return %0 : tensor<1x4x5xf32>
}

// -----

// A convolution left out of kernels (fuse-form-kernels was not run).
func.func @bare_conv(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  // expected-error@+1 {{'fuse.conv_transpose' op is not part of a fused kernel}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  return %0 : tensor<1x8x7xf32>
}

// -----

// A tensor constant read by a kernel becomes a module global (a bundle
// constant, test/fusecc/constants.test): no error.
func.func @used_constant(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %unused = arith.constant dense<1.0> : tensor<f32>
  %cst = arith.constant dense<2.0> : tensor<1x8x7xf32>
  %0 = fuse.kernel "k" ins(%x, %w, %cst : tensor<1x4x5xf32>, tensor<4x8x3xf32>, tensor<1x8x7xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>, %d: tensor<1x8x7xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    %m = fuse.mul %c, %d : tensor<1x8x7xf32>, tensor<1x8x7xf32> -> tensor<1x8x7xf32>
    fuse.yield %m : tensor<1x8x7xf32>
  }
  return %0 : tensor<1x8x7xf32>
}

// -----

func.func @returns_input(%x: tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  // expected-error@+1 {{'func.return' op returns a value that no kernel computes (a function argument or a constant)}}
  return %x : tensor<1x4x5xf32>
}

// -----

// One kernel reading another's result that the function also returns: the
// reader takes it from the output argument (no error; the plan-based
// lowering is checked in convert-to-gpu.mlir).
func.func @chained_kernels(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>, %w2: tensor<8x2x1xf32>)
    -> (tensor<1x8x7xf32>, tensor<1x2x7xf32>) {
  %0 = fuse.kernel "k0" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    fuse.yield %c : tensor<1x8x7xf32>
  }
  %1 = fuse.kernel "k1" ins(%0, %w2 : tensor<1x8x7xf32>, tensor<8x2x1xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 2, threadsW = 16, threadsC = 2, chanPerThread = 1, ciChunk = 8, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x2x7xf32> {
  ^bb0(%a: tensor<1x8x7xf32>, %b: tensor<8x2x1xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x8x7xf32>, tensor<8x2x1xf32>) -> tensor<1x2x7xf32>
    fuse.yield %c : tensor<1x2x7xf32>
  }
  return %0, %1 : tensor<1x8x7xf32>, tensor<1x2x7xf32>
}

// -----

// A kernel whose epilogue the tiling could not have accepted is analysed
// again here.
func.func @bad_epilogue(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7x7xf32> {
  ^bb0(%a: tensor<1x4x5x5xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
           output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
    // expected-error@+1 {{'fuse.softmax' op reduces a set that spans several output tiles}}
    %s = fuse.softmax %c {dim = 2 : i64} : tensor<1x8x7x7xf32>
    fuse.yield %s : tensor<1x8x7x7xf32>
  }
  return %0 : tensor<1x8x7x7xf32>
}

// -----

// A layer_norm weight that is a splat constant gets cloned into the kernel
// by fuse-form-kernels; the kernel builder needs it as an input.
func.func @layer_norm_constant_weight(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    %g = arith.constant dense<2.0> : tensor<7xf32>
    // expected-error@+1 {{'fuse.layer_norm' op weight and bias must be kernel inputs}}
    %n = fuse.layer_norm %c weight(%g : tensor<7xf32>) : tensor<1x8x7xf32>
    fuse.yield %n : tensor<1x8x7xf32>
  }
  return %0 : tensor<1x8x7xf32>
}

// -----

// Kernel names become gpu.func symbols: two kernels of one name clash.
func.func @duplicate_names(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>)
    -> (tensor<1x8x7xf32>, tensor<1x8x7xf32>) {
  // expected-note@+1 {{see existing symbol definition here}}
  %0 = fuse.kernel "same" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    fuse.yield %c : tensor<1x8x7xf32>
  }
  // expected-error@+1 {{redefinition of symbol named 'same'}}
  %1 = fuse.kernel "same" ins(%x, %w : tensor<1x4x5xf32>, tensor<4x8x3xf32>)
         {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>}
         -> tensor<1x8x7xf32> {
  ^bb0(%a: tensor<1x4x5xf32>, %b: tensor<4x8x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1>, padding = array<i64: 0>,
           output_padding = array<i64: 0>, dilation = array<i64: 1>}
         : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
    %r = fuse.relu %c : tensor<1x8x7xf32>
    fuse.yield %r : tensor<1x8x7xf32>
  }
  return %0, %1 : tensor<1x8x7xf32>, tensor<1x8x7xf32>
}

// -----

// A graph function with several blocks.
// expected-error@+1 {{'func.func' op graph functions must have a single block}}
func.func @two_blocks(%x: tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  cf.br ^bb1
^bb1:
  return %x : tensor<1x4x5xf32>
}

// -----

// A graph function whose block does not end with func.return.
// expected-error@+1 {{'func.func' op graph functions must end with func.return}}
func.func @no_return(%x: tensor<1x4x5xf32>) -> tensor<1x4x5xf32> {
  llvm.unreachable
}

// -----

// A channel softmax needs all channels of a position in one block or in
// one cluster of blocks.
func.func @softmax_channels_split(%x: tensor<1x4x2x8xf32>, %w: tensor<4x128x4x4xf32>) -> tensor<1x128x5x17xf32> {
  // expected-error@+1 {{'fuse.kernel' op tile config holds 64 x 1 channels (tileC x clusterC); its channel epilogue needs all 128 in one block or cluster}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x2x8xf32>, tensor<4x128x4x4xf32>) {config = #fuse.tile<tileW = 32, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 16, wgmmaGroups = 1>} -> tensor<1x128x5x17xf32> {
  ^bb0(%a: tensor<1x4x2x8xf32>, %b: tensor<4x128x4x4xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
           output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x2x8xf32>, tensor<4x128x4x4xf32>) -> tensor<1x128x5x17xf32>
    %s = fuse.softmax %c {dim = 1 : i64} : tensor<1x128x5x17xf32>
    fuse.yield %s : tensor<1x128x5x17xf32>
  }
  return %0 : tensor<1x128x5x17xf32>
}

// -----

// A cluster holds exactly the channel tiles (here 2 tiles of 64, not 4).
func.func @cluster_larger_than_tiles(%x: tensor<1x4x2x8xf32>, %w: tensor<4x128x4x4xf32>) -> tensor<1x128x5x17xf32> {
  // expected-error@+1 {{'fuse.kernel' op tile config has clusterC = 4 but 2 channel tiles; a cluster must hold exactly the channel tiles of a channel softmax}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<1x4x2x8xf32>, tensor<4x128x4x4xf32>) {config = #fuse.tile<tileW = 32, tileC = 64, threadsW = 8, threadsC = 16, chanPerThread = 1, ciChunk = 8, types = <tf32, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 16, wgmmaGroups = 1, clusterC = 4>} -> tensor<1x128x5x17xf32> {
  ^bb0(%a: tensor<1x4x2x8xf32>, %b: tensor<4x128x4x4xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
           output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
         : (tensor<1x4x2x8xf32>, tensor<4x128x4x4xf32>) -> tensor<1x128x5x17xf32>
    %s = fuse.softmax %c {dim = 1 : i64} : tensor<1x128x5x17xf32>
    fuse.yield %s : tensor<1x128x5x17xf32>
  }
  return %0 : tensor<1x128x5x17xf32>
}
