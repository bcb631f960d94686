// RUN: fusecc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(fuse-convert-to-gpu)'

// A recorded plan that does not hold together is rejected with the plan's
// location (KernelPlan::read).

// expected-error@+1 {{'func.func' op has a malformed plan buffer {elements = 0 : i64, first = 0 : i64, last = 0 : i64, role = "intermediate", type = f32}}}
func.func @empty_buffer(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = [{elements = 0 : i64, first = 0 : i64, last = 0 : i64, role = "intermediate", type = f32}]} {
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %0 : tensor<2x4x5xf32>
}

// -----

func.func @buffer_out_of_range(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op names plan buffer 3 of 0}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) {fuse.plan.result = 3 : i64} -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  %1 = fuse.kernel "k2" ins(%0 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.tanh %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %1 : tensor<2x4x5xf32>
}

// -----

func.func @intermediate_without_buffer(%x: tensor<2x4x5xf32>) -> tensor<2x4x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op result has no buffer in the plan}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.relu %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  %1 = fuse.kernel "k2" ins(%0 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32> {
  ^bb0(%a: tensor<2x4x5xf32>):
    %r = fuse.tanh %a : tensor<2x4x5xf32>
    fuse.yield %r : tensor<2x4x5xf32>
  }
  return %1 : tensor<2x4x5xf32>
}

// -----

// Statistics from a producer's epilogue need a convolution kernel's result
// as the normalisation's input (NormLayout::get).
func.func @epilogue_stats_without_conv(%x: tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op takes its statistics from a convolution kernel's epilogue, but its input is not such a kernel's result reduced over whole channel groups of each sample}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x3x3xf32>) {fuse.plan.epilogue_stats} -> tensor<2x4x3x3xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>):
    %n = fuse.group_norm %a {num_groups = 2 : i64} : tensor<2x4x3x3xf32>
    fuse.yield %n : tensor<2x4x3x3xf32>
  }
  return %0 : tensor<2x4x3x3xf32>
}

// -----

// A convolution kernel that writes statistics needs their workspace.
func.func @stats_without_partials(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op writes partial statistics but has no partials workspace in the plan}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, fuse.plan.stats_groups = 4 : i64} -> tensor<2x8x5x5xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
    fuse.yield %c : tensor<2x8x5x5xf32>
  }
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// A convolution kept on chip (statistics only) must write statistics.
func.func @stats_only_without_stats(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op keeps its result on chip but writes no partial statistics}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, fuse.plan.stats_only} -> tensor<2x8x5x5xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
    fuse.yield %c : tensor<2x8x5x5xf32>
  }
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// The kind of the records a convolution's epilogue writes must be one the
// plan knows.
func.func @stats_kind_malformed(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op has a malformed fuse.plan.stats_kind "variance"; expected "moments", "max_sum_exp", "max" or "min"}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, fuse.plan.stats_groups = 4 : i64, fuse.plan.stats_kind = "variance"} -> tensor<2x8x5x5xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
    fuse.yield %c : tensor<2x8x5x5xf32>
  }
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// Statistics groups must divide the channels.
func.func @stats_groups_not_divisor(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32> attributes {fuse.plan.buffers = []} {
  // expected-error@+1 {{'fuse.kernel' op writes epilogue statistics of 3 channel groups; expected a tiled f32 convolution kernel and a divisor of its 8 channels}}
  %0 = fuse.kernel "k" ins(%x, %w : tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, fuse.plan.stats_groups = 3 : i64, fuse.plan.stats_kind = "max"} -> tensor<2x8x5x5xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
    fuse.yield %c : tensor<2x8x5x5xf32>
  }
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// A reader of epilogue statistics needs records of its own kind: a
// logsumexp cannot merge moments.
func.func @stats_kind_mismatch(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<2x8x1x1xf32> attributes {fuse.plan.buffers = [{role = "partials", type = f32, elements = 64 : i64, first = 0 : i64, last = 1 : i64}]} {
  %0 = fuse.kernel "k0" ins(%x, %w : tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) {config = #fuse.tile<tileW = 16, tileC = 8, threadsW = 16, threadsC = 8, chanPerThread = 1, ciChunk = 4, types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>>, fuse.plan.partials = 0 : i64, fuse.plan.stats_groups = 8 : i64, fuse.plan.stats_only} -> tensor<2x8x5x5xf32> {
  ^bb0(%a: tensor<2x4x3x3xf32>, %b: tensor<4x8x3x3xf32>):
    %c = fuse.conv_transpose %a, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x3x3xf32>) -> tensor<2x8x5x5xf32>
    fuse.yield %c : tensor<2x8x5x5xf32>
  }
  // expected-error@+1 {{'fuse.kernel' op takes max_sum_exp statistics of 8 groups per sample from k0's epilogue, which writes moments statistics of 8 groups}}
  %1 = fuse.kernel "k1" ins(%0 : tensor<2x8x5x5xf32>) {fuse.plan.epilogue_stats, fuse.plan.partials = 0 : i64} -> tensor<2x8x1x1xf32> {
  ^bb0(%a: tensor<2x8x5x5xf32>):
    %l = fuse.logsumexp %a {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x8x5x5xf32> -> tensor<2x8x1x1xf32>
    fuse.yield %l : tensor<2x8x1x1xf32>
  }
  return %1 : tensor<2x8x1x1xf32>
}

// -----

// A partials workspace smaller than what a launch indexes: 8 sets of 50
// split into chunks of 12 need 8 x 5 partials of 2 values.
func.func @partials_too_small(%x: tensor<2x4x50xf32>) -> tensor<2x4x50xf32> attributes {fuse.plan.buffers = [{elements = 8 : i64, first = 0 : i64, last = 0 : i64, role = "partials", type = f32}]} {
  // expected-error@+1 {{'fuse.kernel' op partials workspace b0 holds 8 values; launch k_stats needs 80}}
  %0 = fuse.kernel "k" ins(%x : tensor<2x4x50xf32>) {fuse.plan.partials = 0 : i64, fuse.plan.warp_set_limit = 8 : i64, fuse.plan.split_chunk = 12 : i64} -> tensor<2x4x50xf32> {
  ^bb0(%a: tensor<2x4x50xf32>):
    %s = fuse.softmax %a {dim = 2 : i64} : tensor<2x4x50xf32>
    fuse.yield %s : tensor<2x4x50xf32>
  }
  return %0 : tensor<2x4x50xf32>
}
