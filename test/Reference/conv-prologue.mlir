// RUN: fusecc-check --plan-prologue=always --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=tf32 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --plan-prologue=always --precision=bf16 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc %s --plan-prologue=always --precision=tf32 --emit=plan | FileCheck %s --check-prefix=ALWAYS
// RUN: fusecc %s --precision=tf32 --emit=plan | FileCheck %s --check-prefix=AUTO
// A prologue folded into the convolution's input staging: the simulator
// runs the conv kernels, which evaluate the prologue per staged input
// element, on every main loop (FMA, split-operand and TF32 mma.sync,
// wgmma) against the float64 reference. Elementwise prologues whose value
// at 0 is not 0 (sigmoid, an affine shift) check that the convolution's
// zero padding stays 0; pooling prologues with padding, ceil_mode,
// dilation and strides other than the kernel, in 1-D, 2-D and 3-D, with
// pooled rows 4 or 8 long (which without a prologue take the 16-byte
// vector staging); batch 1, 2 and 3, channel counts that fit no tile,
// groups, epilogues (bias, channel softmax, a max pool, a channel sum)
// after the convolution, and
// kb2_38's graph, whose tf32 convolution is recomputed: two convolution
// kernels fold a copy of the pool.

// CHECK: @relu_bias_2d: PASS
// CHECK: @sigmoid_affine_3d: PASS
// CHECK: @avg2d_pad_ceil: PASS
// CHECK: @max3d_pad: PASS
// CHECK: @max1d_dilated: PASS
// CHECK: @avg3d_channel_softmax: PASS
// CHECK: @avg2d_wide_channels: PASS
// CHECK: @gelu_groups_16: PASS
// CHECK: @leaky_groups: PASS
// CHECK: @kb2_38_small: PASS
// CHECK: @relu_rows_of_8: PASS
// CHECK: @prologue_pooled_epilogue: PASS
// CHECK: @prologue_channel_sum: PASS
// CHECK: @affine_rows_of_4: PASS
// CHECK-NOT: FAIL

// Forced on, every convolution kernel holds its prologue: no other kernel
// reads a graph input first.
// ALWAYS: step 0 relu_bias_2d_k0 (convolution, prologue: relu folded into input staging (forced on))
// ALWAYS-NEXT: reads x w b e
// ALWAYS: step 0 sigmoid_affine_3d_k0 (convolution, prologue: mul -> add -> sigmoid folded into input staging (forced on))
// ALWAYS-NEXT: reads x s t w
// ALWAYS: step 0 avg2d_pad_ceil_k0 (convolution, prologue: avg_pool folded into input staging (forced on))
// ALWAYS: step 0 max3d_pad_k0 (convolution, prologue: max_pool folded into input staging (forced on))
// ALWAYS: step 0 max1d_dilated_k0 (convolution, prologue: tanh -> max_pool folded into input staging (forced on))
// ALWAYS: step 0 avg3d_channel_softmax_k0 (convolution, prologue: avg_pool folded into input staging (forced on))
// ALWAYS: step 0 avg2d_wide_channels_k0 (convolution, prologue: avg_pool folded into input staging (forced on))
// ALWAYS: step 0 gelu_groups_16_k0 (convolution, prologue: gelu folded into input staging (forced on))
// ALWAYS: step 0 leaky_groups_k0 (convolution, prologue: leaky_relu folded into input staging (forced on))
// ALWAYS: plan @kb2_38_small: 3 kernels
// ALWAYS: step 0 kb2_38_small_k0 (convolution, prologue: avg_pool folded into input staging (forced on))
// ALWAYS-NEXT: reads x weight conv_bias
// ALWAYS: step 2 kb2_38_small_k1 (convolution, prologue: avg_pool folded into input staging (forced on))
// ALWAYS-NEXT: reads x weight conv_bias
// ALWAYS: step 0 relu_rows_of_8_k0 (convolution, prologue: relu folded into input staging (forced on))

// The cost rule: elementwise prologues fold; pools fold where their reads
// times the stagings stay within the saved traffic (the 1-D convolution:
// 2 x 1 = 2 <= 2 + 1 + 1), and not where a 3 x 3 or 2 x 2 x 2 window is
// staged several times (kb2_38: 8 reads x 9 stagings, twice).
// AUTO: step 0 relu_bias_2d_k0 (convolution, prologue: relu folded into input staging (reads V x stagings S = 1 x 3 = 3 <= V + 1 + S = 5))
// AUTO: sigmoid_affine_3d_k0 (convolution, prologue: mul -> add -> sigmoid folded into input staging (reads V x stagings S = 1 x 6 = 6 <= V + 1 + S = 8))
// AUTO: avg2d_pad_ceil_k0 (convolution, prologue: avg_pool kept in a kernel of its own (reads V x stagings S = 9 x 3 = 27 > V + 1 + S = 13))
// AUTO: max3d_pad_k0 (convolution, prologue: max_pool kept in a kernel of its own (reads V x stagings S = 27 x 4 = 108 > V + 1 + S = 32))
// AUTO: max1d_dilated_k0 (convolution, prologue: tanh -> max_pool folded into input staging (reads V x stagings S = 2 x 1 = 2 <= V + 1 + S = 4))
// AUTO: avg3d_channel_softmax_k0 (convolution, prologue: avg_pool kept in a kernel of its own (reads V x stagings S = 8 x 9 = 72 > V + 1 + S = 18))
// AUTO: avg2d_wide_channels_k0 (convolution, prologue: avg_pool kept in a kernel of its own (reads V x stagings S = 4 x 4 = 16 > V + 1 + S = 9))
// AUTO: leaky_groups_k0 (convolution, prologue: leaky_relu folded into input staging
// AUTO: step 1 kb2_38_small_k0 (convolution, prologue: avg_pool kept in a kernel of its own (reads V x stagings S = 8 x 18 = 144 > V + 1 + S = 27))

// relu, then the convolution with a bias and a per-channel epilogue add:
// batch 3, 5 -> 7 channels, odd rows (5 x 7 input); W stride 1, so the
// edge outputs' taps read zero padding.
func.func @relu_bias_2d(%x: tensor<3x5x5x7xf32> {fuse.name = "x"}, %w: tensor<5x7x3x3xf32> {fuse.name = "w"}, %b: tensor<7xf32> {fuse.name = "b"}, %e: tensor<7x1x1xf32> {fuse.name = "e"}) -> tensor<3x7x9x9xf32> {
  %r = fuse.relu %x : tensor<3x5x5x7xf32>
  %c = fuse.conv_transpose %r, %w, %b {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x5x5x7xf32>, tensor<5x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x9x9xf32>
  %a = fuse.add %c, %e : tensor<3x7x9x9xf32>, tensor<7x1x1xf32> -> tensor<3x7x9x9xf32>
  return %a : tensor<3x7x9x9xf32>
}

// sigmoid(x * scale + shift), a per-channel scale and a scalar graph input
// shift: the prologue of 0 is not 0, the padding must stay 0. Rows 5 long.
func.func @sigmoid_affine_3d(%x: tensor<1x4x3x4x5xf32> {fuse.name = "x"}, %s: tensor<4x1x1x1xf32> {fuse.name = "s"}, %t: tensor<f32> {fuse.name = "t"}, %w: tensor<4x6x2x3x3xf32> {fuse.name = "w"}) -> tensor<1x6x4x7x7xf32> {
  %m = fuse.mul %x, %s : tensor<1x4x3x4x5xf32>, tensor<4x1x1x1xf32> -> tensor<1x4x3x4x5xf32>
  %a = fuse.add %m, %t : tensor<1x4x3x4x5xf32>, tensor<f32> -> tensor<1x4x3x4x5xf32>
  %g = fuse.sigmoid %a : tensor<1x4x3x4x5xf32>
  %c = fuse.conv_transpose %g, %w {stride = array<i64: 1, 2, 1>, padding = array<i64: 0, 1, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x4x3x4x5xf32>, tensor<4x6x2x3x3xf32>) -> tensor<1x6x4x7x7xf32>
  return %c : tensor<1x6x4x7x7xf32>
}

// 3 x 3 average windows at stride 2 with padding 1 (not counted) and
// ceil_mode.
func.func @avg2d_pad_ceil(%x: tensor<3x3x9x8xf32> {fuse.name = "x"}, %w: tensor<3x5x3x3xf32> {fuse.name = "w"}) -> tensor<3x5x11x11xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = false} : tensor<3x3x9x8xf32> -> tensor<3x3x5x5xf32>
  %c = fuse.conv_transpose %p, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x3x5x5xf32>, tensor<3x5x3x3xf32>) -> tensor<3x5x11x11xf32>
  return %c : tensor<3x5x11x11xf32>
}

// A 3-D max pool with padding (windows at the edges see -inf padding);
// its rows are 4 long.
func.func @max3d_pad(%x: tensor<1x2x5x6x7xf32> {fuse.name = "x"}, %w: tensor<2x3x2x2x2xf32> {fuse.name = "w"}, %b: tensor<3xf32> {fuse.name = "b"}) -> tensor<1x3x6x6x8xf32> {
  %p = fuse.max_pool %x {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>} : tensor<1x2x5x6x7xf32> -> tensor<1x2x3x3x4xf32>
  %c = fuse.conv_transpose %p, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x2x3x3x4xf32>, tensor<2x3x2x2x2xf32>, tensor<3xf32>) -> tensor<1x3x6x6x8xf32>
  return %c : tensor<1x3x6x6x8xf32>
}

// tanh, then a dilated 1-D max pool with padding and ceil_mode; 9 output
// channels.
func.func @max1d_dilated(%x: tensor<3x4x11xf32> {fuse.name = "x"}, %w: tensor<4x9x3xf32> {fuse.name = "w"}) -> tensor<3x9x4xf32> {
  %t = fuse.tanh %x : tensor<3x4x11xf32>
  %p = fuse.max_pool %t {kernel_size = array<i64: 2>, stride = array<i64: 3>, padding = array<i64: 1>, dilation = array<i64: 2>, ceil_mode = true} : tensor<3x4x11xf32> -> tensor<3x4x4xf32>
  %c = fuse.conv_transpose %p, %w {stride = array<i64: 1>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x4x4xf32>, tensor<4x9x3xf32>) -> tensor<3x9x4xf32>
  return %c : tensor<3x9x4xf32>
}

// A 2 x 2 x 2 average pool, then the convolution and a channel softmax
// and a scale in its epilogue.
func.func @avg3d_channel_softmax(%x: tensor<2x3x4x4x6xf32> {fuse.name = "x"}, %w: tensor<3x5x3x3x3xf32> {fuse.name = "w"}, %b: tensor<5xf32> {fuse.name = "b"}, %sc: tensor<5x1x1x1xf32> {fuse.name = "sc"}) -> tensor<2x5x4x4x6xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<2x3x4x4x6xf32> -> tensor<2x3x2x2x3xf32>
  %c = fuse.conv_transpose %p, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<2x3x2x2x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x4x4x6xf32>
  %s = fuse.softmax %c {dim = 1 : i64} : tensor<2x5x4x4x6xf32>
  %m = fuse.mul %s, %sc : tensor<2x5x4x4x6xf32>, tensor<5x1x1x1xf32> -> tensor<2x5x4x4x6xf32>
  return %m : tensor<2x5x4x4x6xf32>
}

// 37 input and 70 output channels (no channel chunk or tile divides them)
// after an overlapping average pool (stride 1 < kernel 2); pooled rows 8
// long.
func.func @avg2d_wide_channels(%x: tensor<1x37x4x9xf32> {fuse.name = "x"}, %w: tensor<37x70x2x2xf32> {fuse.name = "w"}) -> tensor<1x70x4x9xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0>} : tensor<1x37x4x9xf32> -> tensor<1x37x3x8xf32>
  %c = fuse.conv_transpose %p, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x37x3x8xf32>, tensor<37x70x2x2xf32>) -> tensor<1x70x4x9xf32>
  return %c : tensor<1x70x4x9xf32>
}

// Grouped convolutions (2 groups): the prologue is evaluated at each
// group's input channels; 3 channels per group run FMA, 16 the tensor
// cores.
func.func @gelu_groups_16(%x: tensor<1x32x2x3xf32> {fuse.name = "x"}, %w: tensor<32x16x2x2xf32> {fuse.name = "w"}) -> tensor<1x32x3x4xf32> {
  %l = fuse.gelu %x : tensor<1x32x2x3xf32>
  %c = fuse.conv_transpose %l, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x32x2x3xf32>, tensor<32x16x2x2xf32>) -> tensor<1x32x3x4xf32>
  return %c : tensor<1x32x3x4xf32>
}

func.func @leaky_groups(%x: tensor<2x4x3x3xf32> {fuse.name = "x"}, %w: tensor<4x3x3x3xf32> {fuse.name = "w"}) -> tensor<2x6x7x7xf32> {
  %l = fuse.leaky_relu %x {slope = 0.3 : f64} : tensor<2x4x3x3xf32>
  %c = fuse.conv_transpose %l, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x6x7x7xf32>
  return %c : tensor<2x6x7x7xf32>
}

// kb2_38 at small shapes: in tf32 the convolution is recomputed for the
// spatial softmax (fuse-recompute-conv), so two convolution kernels read
// the pooled input.
func.func @kb2_38_small(%x: tensor<2x3x2x4x6xf32> {fuse.name = "x"}, %weight: tensor<3x5x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<5xf32> {fuse.name = "conv_bias"}, %scale: tensor<1x5x1x1x1xf32> {fuse.name = "scale"}) -> tensor<2x5x2x4x6xf32> {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<2x3x2x4x6xf32> -> tensor<2x3x1x2x3xf32>
  %1 = fuse.conv_transpose %0, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x3x1x2x3xf32>, tensor<3x5x3x3x3xf32>, tensor<5xf32>) -> tensor<2x5x2x4x6xf32>
  %2 = fuse.clamp %1 {min = 0.0 : f64, max = 1.0 : f64} : tensor<2x5x2x4x6xf32>
  %3 = fuse.reshape %2 : tensor<2x5x2x4x6xf32> -> tensor<2x5x48xf32>
  %4 = fuse.softmax %3 {dim = 2 : i64} : tensor<2x5x48xf32>
  %5 = fuse.reshape %4 : tensor<2x5x48xf32> -> tensor<2x5x2x4x6xf32>
  %6 = fuse.mul %5, %scale : tensor<2x5x2x4x6xf32>, tensor<1x5x1x1x1xf32> -> tensor<2x5x2x4x6xf32>
  return %6 : tensor<2x5x2x4x6xf32>
}

// Input rows of 8 and an output 64x the input: without a prologue, wgmma
// re-lays the input out (`_ipack`); with one, it stages 16-byte loads of x
// and evaluates the relu per lane, as the other paths do.
func.func @relu_rows_of_8(%x: tensor<1x16x2x8xf32> {fuse.name = "x"}, %w: tensor<16x64x4x4xf32> {fuse.name = "w"}) -> tensor<1x64x8x32xf32> {
  %r = fuse.relu %x : tensor<1x16x2x8xf32>
  %c = fuse.conv_transpose %r, %w {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x2x8xf32>, tensor<16x64x4x4xf32>) -> tensor<1x64x8x32xf32>
  return %c : tensor<1x64x8x32xf32>
}

// A prologue and a pooled epilogue in one kernel: every main-loop pass
// stages (and evaluates) its input rows.
func.func @prologue_pooled_epilogue(%x: tensor<3x3x4x5xf32> {fuse.name = "x"}, %w: tensor<3x4x3x3xf32> {fuse.name = "w"}) -> tensor<3x4x4x5xf32> {
  %e = fuse.exp %x : tensor<3x3x4x5xf32>
  %c = fuse.conv_transpose %e, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x3x4x5xf32>, tensor<3x4x3x3xf32>) -> tensor<3x4x9x11xf32>
  %p = fuse.max_pool %c {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<3x4x9x11xf32> -> tensor<3x4x4x5xf32>
  return %p : tensor<3x4x4x5xf32>
}

// A pooled prologue and a channel reduction in the epilogue.
func.func @prologue_channel_sum(%x: tensor<2x5x6x7xf32> {fuse.name = "x"}, %w: tensor<5x6x2x2xf32> {fuse.name = "w"}, %b: tensor<6xf32> {fuse.name = "b"}) -> tensor<2x1x4x6xf32> {
  %p = fuse.avg_pool %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x5x6x7xf32> -> tensor<2x5x2x3xf32>
  %c = fuse.conv_transpose %p, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x5x2x3xf32>, tensor<5x6x2x2xf32>, tensor<6xf32>) -> tensor<2x6x4x6xf32>
  %s = fuse.sum %c {dims = array<i64: 1>, keepdim = true} : tensor<2x6x4x6xf32> -> tensor<2x1x4x6xf32>
  return %s : tensor<2x1x4x6xf32>
}

// Rows of 4 (16-byte staging) with two full-size inputs (x and y, loaded
// as vectors), a per-column parameter (broadcast along N, C, H: loaded
// per lane) and a sigmoid (not 0 at 0: the padding columns must be 0).
func.func @affine_rows_of_4(%x: tensor<2x3x3x4xf32> {fuse.name = "x"}, %y: tensor<2x3x3x4xf32> {fuse.name = "y"}, %s: tensor<4xf32> {fuse.name = "s"}, %w: tensor<3x5x2x3xf32> {fuse.name = "w"}) -> tensor<2x5x4x6xf32> {
  %m = fuse.mul %x, %s : tensor<2x3x3x4xf32>, tensor<4xf32> -> tensor<2x3x3x4xf32>
  %a = fuse.add %m, %y : tensor<2x3x3x4xf32>, tensor<2x3x3x4xf32> -> tensor<2x3x3x4xf32>
  %e = fuse.sigmoid %a : tensor<2x3x3x4xf32>
  %c = fuse.conv_transpose %e, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x3x3x4xf32>, tensor<3x5x2x3xf32>) -> tensor<2x5x4x6xf32>
  return %c : tensor<2x5x4x6xf32>
}
