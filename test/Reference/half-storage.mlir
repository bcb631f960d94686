// RUN: fusecc-check %s --precision=ieee | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --tile-rows=1 --chip=sm_90a | FileCheck %s
// RUN: fusecc-check %s --plan-prologue=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=TYPES
// RUN: fusecc %s --emit=fused --plan-prologue=always | FileCheck %s --check-prefix=PROLOGUE
// bf16/f16 graphs (docs/design/types.md): half inputs, weights and results,
// f32 arithmetic between them (fuse-widen-half), every half result rounded
// once at its store; each checked against float64 on the same half values
// with the half storage rule (Compare.h), for each epilogue family. Each
// convolution reads its half input, weight and bias itself (operand casts,
// 2-byte loads widened; 8-byte vector loads of 4 elements where rows and
// W taps are multiples of 4) and multiplies them on the tensor cores with
// operands of the graph's type (mma.sync m16n8k16, f32 accumulation),
// whatever --precision says: the rounding to the operand type is exact;
// with at most 8 input channels in TF32, which holds every half value
// exactly (tensorCoreMath; test/Reference/half-few-channels.mlir).
// The mixed-precision export (f32 weights) stays an f32 convolution.

// TYPES-LABEL: func.func @bf16_conv_gelu
// TYPES: fuse.kernel "bf16_conv_gelu_k0" ins(%arg0, %arg1, %arg2 : tensor<2x4x3x3xbf16>, tensor<4x6x3x3xbf16>, tensor<6xbf16>) {config = #fuse.tile<{{.*}}types = <tf32, storage = bf16, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC
// TYPES-LABEL: func.func @f16_conv_softmax
// TYPES: types = <tf32, storage = f16, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC
// TYPES-LABEL: func.func @mixed_cast
// TYPES: types = <ieee, storage = f32, operand = f32,
// TYPES-LABEL: func.func @bf16_vector_staging
// TYPES: fuse.kernel "bf16_vector_staging_k0" ins(%arg0, %arg1, %arg2 : tensor<2x16x4x8xbf16>, tensor<16x32x4x4xbf16>, tensor<32xbf16>) {{.*}}types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC
// TYPES-LABEL: func.func @f16_grouped_3d
// TYPES: types = <f16, storage = f16, operand = f16, accumulator = f32, statistics = f32>, mmaWarpsC

// CHECK: @bf16_conv_gelu: PASS {{.*}} storage bf16
// CHECK: @f16_conv_softmax: PASS {{.*}} storage f16
// CHECK: @bf16_conv_layernorm_f32_affine: PASS {{.*}} storage bf16
// CHECK: @f16_conv_groupnorm: PASS {{.*}} storage f16
// CHECK: @bf16_conv_maxpool: PASS {{.*}} storage bf16
// CHECK: @f16_conv_mean: PASS {{.*}} storage f16
// CHECK: @bf16_elementwise: PASS {{.*}} storage bf16
// CHECK: @f16_batchnorm_training: PASS {{.*}} storage f16
// CHECK: @f16_overflow: PASS {{.*}} storage f16
// CHECK: @mixed_cast: PASS
// CHECK: @bf16_weight_constant: PASS {{.*}} storage bf16
// CHECK: @bf16_vector_staging: PASS {{.*}} bf16-operands rel-L2 {{.*}} storage bf16
// CHECK: @f16_grouped_3d: PASS {{.*}} f16-operands rel-L2 {{.*}} storage f16
// CHECK: @bf16_log_softmax_channels: PASS {{.*}} bf16-operands rel-L2 {{.*}} storage bf16
// CHECK: @bf16_prologue: PASS {{.*}} bf16-operands rel-L2 {{.*}} storage bf16
// CHECK: @bf16_decoder_block: PASS {{.*}} storage bf16
// CHECK: @f16_upsample_conv: PASS {{.*}} storage f16
// CHECK-NOT: FAIL
// PROLOGUE: fuse.kernel "bf16_prologue_k0" ins(%arg1, %arg0 : tensor<8x16x3x3xbf16>, tensor<2x8x4x4xbf16>) {{.*}}types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC

func.func @bf16_conv_gelu(%x: tensor<2x4x3x3xbf16>, %w: tensor<4x6x3x3xbf16>, %b: tensor<6xbf16>) -> tensor<2x6x5x5xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x3x3xbf16>, tensor<4x6x3x3xbf16>, tensor<6xbf16>) -> tensor<2x6x5x5xbf16>
  %g = fuse.gelu %y : tensor<2x6x5x5xbf16>
  return %g : tensor<2x6x5x5xbf16>
}

func.func @f16_conv_softmax(%x: tensor<1x3x4x4xf16>, %w: tensor<3x8x2x2xf16>, %b: tensor<8xf16>) -> tensor<1x8x5x5xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x4x4xf16>, tensor<3x8x2x2xf16>, tensor<8xf16>) -> tensor<1x8x5x5xf16>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x8x5x5xf16>
  return %s : tensor<1x8x5x5xf16>
}

func.func @bf16_conv_layernorm_f32_affine(%x: tensor<1x3x3x3xbf16>, %w: tensor<3x5x3x3xbf16>, %b: tensor<5xbf16>, %g: tensor<5xf32>, %beta: tensor<5xf32>) -> tensor<1x5x5x5xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x3x3xbf16>, tensor<3x5x3x3xbf16>, tensor<5xbf16>) -> tensor<1x5x5x5xbf16>
  %l = fuse.layer_norm %y weight(%g : tensor<5xf32>) bias(%beta : tensor<5xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x5x5x5xbf16>
  return %l : tensor<1x5x5x5xbf16>
}

func.func @f16_conv_groupnorm(%x: tensor<2x4x3x3x3xf16>, %w: tensor<4x8x2x2x2xf16>, %b: tensor<8xf16>, %g: tensor<8xf16>, %beta: tensor<8xf16>) -> tensor<2x8x6x6x6xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x4x3x3x3xf16>, tensor<4x8x2x2x2xf16>, tensor<8xf16>) -> tensor<2x8x6x6x6xf16>
  %n = fuse.group_norm %y weight(%g : tensor<8xf16>) bias(%beta : tensor<8xf16>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x6x6x6xf16>
  %r = fuse.relu %n : tensor<2x8x6x6x6xf16>
  return %r : tensor<2x8x6x6x6xf16>
}

func.func @bf16_conv_maxpool(%x: tensor<1x4x4x4xbf16>, %w: tensor<4x4x2x2xbf16>, %b: tensor<4xbf16>) -> tensor<1x4x4x4xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x4x4xbf16>, tensor<4x4x2x2xbf16>, tensor<4xbf16>) -> tensor<1x4x8x8xbf16>
  %p = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x4x8x8xbf16> -> tensor<1x4x4x4xbf16>
  %s = fuse.sigmoid %p : tensor<1x4x4x4xbf16>
  return %s : tensor<1x4x4x4xbf16>
}

func.func @f16_conv_mean(%x: tensor<2x3x4x4xf16>, %w: tensor<3x6x3x3xf16>, %b: tensor<6xf16>) -> tensor<2x6x1x1xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x4x4xf16>, tensor<3x6x3x3xf16>, tensor<6xf16>) -> tensor<2x6x4x4xf16>
  %t = fuse.tanh %y : tensor<2x6x4x4xf16>
  %m = fuse.mean %t {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x6x4x4xf16> -> tensor<2x6x1x1xf16>
  return %m : tensor<2x6x1x1xf16>
}

func.func @bf16_elementwise(%x: tensor<3x7x5xbf16>, %y: tensor<7x1xbf16>) -> tensor<3x7x1xbf16> {
  %a = fuse.mul %x, %y : tensor<3x7x5xbf16>, tensor<7x1xbf16> -> tensor<3x7x5xbf16>
  %r = fuse.silu %a : tensor<3x7x5xbf16>
  %s = fuse.amax %r {dims = array<i64: 2>, keepdim = true} : tensor<3x7x5xbf16> -> tensor<3x7x1xbf16>
  return %s : tensor<3x7x1xbf16>
}

func.func @f16_batchnorm_training(%x: tensor<2x3x4x4xf16>, %w: tensor<3x4x2x2xf16>, %rm: tensor<4xf32>, %rv: tensor<4xf32>) -> tensor<2x4x5x5xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x3x4x4xf16>, tensor<3x4x2x2xf16>) -> tensor<2x4x5x5xf16>
  %n = fuse.batch_norm %y, %rm, %rv {training = true} : (tensor<2x4x5x5xf16>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x5x5xf16>
  return %n : tensor<2x4x5x5xf16>
}

// Values above 65504 (from 65520 up, rounding included) are inf in f16,
// as PyTorch's own rounding gives: the check expects inf exactly there.
func.func @f16_overflow(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  %c = arith.constant dense<40000.0> : tensor<f16>
  %y = fuse.mul %x, %c : tensor<4x16xf16>, tensor<f16> -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}

// A mixed-precision export: f32 graph, its convolution's input rounded to
// f16 by a cast (the rounding is part of the graph), the result f32.
func.func @mixed_cast(%x: tensor<1x3x4x4xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %h = fuse.cast %x : tensor<1x3x4x4xf32> -> tensor<1x3x4x4xf16>
  %xf = fuse.cast %h : tensor<1x3x4x4xf16> -> tensor<1x3x4x4xf32>
  %y = fuse.conv_transpose %xf, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %e = fuse.exp %y : tensor<1x4x6x6xf32>
  return %e : tensor<1x4x6x6xf32>
}

// A bf16 weight held as a module constant (2 bytes per element in a bundle).
func.func @bf16_weight_constant(%x: tensor<1x2x3xbf16>) -> tensor<1x2x5xbf16> {
  %w = arith.constant dense<[[[0.5, -0.25, 0.125], [1.0, 0.75, -0.5]], [[-1.0, 0.375, 0.0625], [0.25, -0.75, 2.0]]]> : tensor<2x2x3xbf16>
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x2x3xbf16>, tensor<2x2x3xbf16>) -> tensor<1x2x5xbf16>
  return %y : tensor<1x2x5xbf16>
}

// Rows of 8 and 4 W taps: the input and the weights staged from 8-byte
// loads of 4 bf16 elements each, widened.
func.func @bf16_vector_staging(%x: tensor<2x16x4x8xbf16>, %w: tensor<16x32x4x4xbf16>, %b: tensor<32xbf16>) -> tensor<2x32x8x16xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x8xbf16>, tensor<16x32x4x4xbf16>, tensor<32xbf16>) -> tensor<2x32x8x16xbf16>
  %g = fuse.gelu %y : tensor<2x32x8x16xbf16>
  return %g : tensor<2x32x8x16xbf16>
}

// Two groups of 16 channels, 3-D, dilation 2.
func.func @f16_grouped_3d(%x: tensor<1x32x2x3x4xf16>, %w: tensor<32x16x3x3x3xf16>, %b: tensor<32xf16>) -> tensor<1x32x6x7x8xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 2 : i64} : (tensor<1x32x2x3x4xf16>, tensor<32x16x3x3x3xf16>, tensor<32xf16>) -> tensor<1x32x6x7x8xf16>
  %s = fuse.sigmoid %y : tensor<1x32x6x7x8xf16>
  return %s : tensor<1x32x6x7x8xf16>
}

// A channel log_softmax in the epilogue, 20 input channels (a chunk of 16
// and one padded with zeros).
func.func @bf16_log_softmax_channels(%x: tensor<3x20x5x5xbf16>, %w: tensor<20x24x3x3xbf16>) -> tensor<3x24x7x7xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x20x5x5xbf16>, tensor<20x24x3x3xbf16>) -> tensor<3x24x7x7xbf16>
  %l = fuse.log_softmax %y {dim = 1 : i64} : tensor<3x24x7x7xbf16>
  return %l : tensor<3x24x7x7xbf16>
}

// A prologue folded into the input staging (relu of the bf16 input,
// computed in f32; the staging reads the bf16 input itself through its
// operand cast): the convolution's input, an intermediate of the bf16
// graph, is rounded to bf16 once in registers (as PyTorch stores it) and
// multiplied with the bf16 weights read directly.
func.func @bf16_prologue(%x: tensor<2x8x4x4xbf16>, %w: tensor<8x16x3x3xbf16>) -> tensor<2x16x6x6xbf16> {
  %a = fuse.relu %x : tensor<2x8x4x4xbf16>
  %y = fuse.conv_transpose %a, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x4x4xbf16>, tensor<8x16x3x3xbf16>) -> tensor<2x16x6x6xbf16>
  return %y : tensor<2x16x6x6xbf16>
}

// The decoder ops (issue 36) on half storage: a skip concatenation and a
// forward 3x3 convolution (the concat folded into its staging), and a
// bilinear upsample in front of a forward convolution.
func.func @bf16_decoder_block(%x: tensor<1x4x4x4xbf16>, %s: tensor<1x2x4x4xbf16>, %w: tensor<3x6x3x3xbf16>, %b: tensor<3xbf16>) -> tensor<1x3x4x4xbf16> {
  %c = fuse.concat %x, %s {dim = 1 : i64} : (tensor<1x4x4x4xbf16>, tensor<1x2x4x4xbf16>) -> tensor<1x6x4x4xbf16>
  %y = fuse.conv %c, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x6x4x4xbf16>, tensor<3x6x3x3xbf16>, tensor<3xbf16>) -> tensor<1x3x4x4xbf16>
  %r = fuse.relu %y : tensor<1x3x4x4xbf16>
  return %r : tensor<1x3x4x4xbf16>
}

func.func @f16_upsample_conv(%x: tensor<1x3x3x3xf16>, %w: tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16> {
  %u = fuse.upsample %x {linear, scales = array<f64: 2.0, 2.0>} : tensor<1x3x3x3xf16> -> tensor<1x3x6x6xf16>
  %y = fuse.conv %u, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x6x6xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf16>
  return %y : tensor<1x4x6x6xf16>
}
