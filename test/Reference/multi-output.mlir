// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 | FileCheck %s
// Graphs with several outputs in the simulator, each output checked on its
// own: two convolutions (a U-Net block's skip and output), a returned value
// that a later kernel also reads (from the output argument), a value
// returned twice and a graph input returned as it is (copy kernels), and
// batch_norm's updated running statistics next to a later use of them.

// CHECK: @skip_and_out#0: PASS
// CHECK: @skip_and_out#1: PASS
// CHECK: @returned_and_read#0: PASS
// CHECK: @returned_and_read#1: PASS
// CHECK: @returned_twice#0: PASS
// CHECK: @returned_twice#1: PASS
// CHECK: @returned_twice#2: PASS
// CHECK: @input_returned#0: PASS
// CHECK: @input_returned#1: PASS
// CHECK: @bn_stats_read#0: PASS
// CHECK: @bn_stats_read#1: PASS
// CHECK: @bn_stats_read#2: PASS

func.func @skip_and_out(%x: tensor<2x4x5xf32>, %w: tensor<4x6x3xf32>, %w2: tensor<6x3x2xf32>) -> (tensor<2x6x7xf32>, tensor<2x3x8xf32>) {
  %s = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<4x6x3xf32>) -> tensor<2x6x7xf32>
  %r = fuse.relu %s : tensor<2x6x7xf32>
  %o = fuse.conv_transpose %r, %w2 {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x6x7xf32>, tensor<6x3x2xf32>) -> tensor<2x3x8xf32>
  return %r, %o : tensor<2x6x7xf32>, tensor<2x3x8xf32>
}

func.func @returned_and_read(%x: tensor<2x4x5xf32>, %w: tensor<4x6x3xf32>) -> (tensor<2x6x7xf32>, tensor<2x6x7xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<4x6x3xf32>) -> tensor<2x6x7xf32>
  %n = fuse.group_norm %c {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x6x7xf32>
  return %c, %n : tensor<2x6x7xf32>, tensor<2x6x7xf32>
}

func.func @returned_twice(%x: tensor<2x4x5xf32>, %w: tensor<4x6x3xf32>) -> (tensor<2x6x7xf32>, tensor<2x6x7xf32>, tensor<2x6x7xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<4x6x3xf32>) -> tensor<2x6x7xf32>
  %t = fuse.tanh %c : tensor<2x6x7xf32>
  return %t, %c, %t : tensor<2x6x7xf32>, tensor<2x6x7xf32>, tensor<2x6x7xf32>
}

func.func @input_returned(%x: tensor<2x4x5xf32>, %w: tensor<4x6x3xf32>) -> (tensor<2x6x7xf32>, tensor<2x4x5xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x4x5xf32>, tensor<4x6x3xf32>) -> tensor<2x6x7xf32>
  return %c, %x : tensor<2x6x7xf32>, tensor<2x4x5xf32>
}

func.func @bn_stats_read(%x: tensor<3x4x4xf32>, %w: tensor<4x5x3xf32>, %rm: tensor<5xf32>, %rv: tensor<5xf32> {fuse.check.mean = 4.0 : f64}) -> (tensor<3x5x7xf32>, tensor<5xf32>, tensor<3x5x7xf32>) {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x4x4xf32>, tensor<4x5x3xf32>) -> tensor<3x5x7xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv {training = true, momentum = 0.25 : f64} : (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>) -> (tensor<3x5x7xf32>, tensor<5xf32>, tensor<5xf32>)
  %v = fuse.reshape %y#2 : tensor<5xf32> -> tensor<5x1xf32>
  %z = fuse.mul %y#0, %v : tensor<3x5x7xf32>, tensor<5x1xf32> -> tensor<3x5x7xf32>
  return %y#0, %y#1, %z : tensor<3x5x7xf32>, tensor<5xf32>, tensor<3x5x7xf32>
}
