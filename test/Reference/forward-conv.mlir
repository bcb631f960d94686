// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// Forward convolutions (fuse.conv), run as the stride-1 transposed
// convolution that is the same gather, the weight staged in its forward
// layout with the taps reversed (FMA, mma.sync and the wgmma re-layout), and
// checked against fuse.conv's own direct reference.

// CHECK: @same_3x3_relu: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @asym_k4: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @conv1d_dilated_grouped: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @conv3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @depthwise: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @strided: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @head_1x1: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @vae_block: PASS rel-L2 {{[0-9.e+-]+}} max-abs

func.func @same_3x3_relu(%x: tensor<2x16x6x8xf32>, %w: tensor<32x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<2x32x6x8xf32> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x16x6x8xf32>, tensor<32x16x3x3xf32>, tensor<32xf32>) -> tensor<2x32x6x8xf32>
  %y = fuse.relu %c : tensor<2x32x6x8xf32>
  return %y : tensor<2x32x6x8xf32>
}

// A W kernel of 4 (16-byte weight loads, reversed), asymmetric padding.
func.func @asym_k4(%x: tensor<1x4x7x8xf32>, %w: tensor<8x4x4x4xf32>) -> tensor<1x8x7x8xf32> {
  %c = fuse.conv %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, padding_end = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<1x4x7x8xf32>, tensor<8x4x4x4xf32>) -> tensor<1x8x7x8xf32>
  return %c : tensor<1x8x7x8xf32>
}

func.func @conv1d_dilated_grouped(%x: tensor<2x6x11xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x9xf32> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 2>, groups = 2 : i64} : (tensor<2x6x11xf32>, tensor<4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x9xf32>
  return %c : tensor<2x4x9xf32>
}

func.func @conv3d(%x: tensor<1x3x4x5x6xf32>, %w: tensor<5x3x3x2x3xf32>) -> tensor<1x5x4x6x6xf32> {
  %c = fuse.conv %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x3x4x5x6xf32>, tensor<5x3x3x2x3xf32>) -> tensor<1x5x4x6x6xf32>
  return %c : tensor<1x5x4x6x6xf32>
}

func.func @depthwise(%x: tensor<1x8x6x6xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 8 : i64} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  return %c : tensor<1x8x6x6xf32>
}

// Stride 2: the stride-1 convolution and a kernel-1 subsampling pool.
func.func @strided(%x: tensor<1x4x9x9xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x5x5xf32> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x9x9xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  %y = fuse.silu %c : tensor<1x8x5x5xf32>
  return %y : tensor<1x8x5x5xf32>
}

// A heatmap head: transposed convolution, relu, 1x1 projection.
func.func @head_1x1(%x: tensor<1x8x4x4xf32>, %w: tensor<8x16x4x4xf32>, %p: tensor<3x16x1x1xf32>, %pb: tensor<3xf32>) -> tensor<1x3x8x8xf32> {
  %u = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x8x4x4xf32>, tensor<8x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %r = fuse.relu %u : tensor<1x16x8x8xf32>
  %y = fuse.conv %r, %p, %pb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<3x16x1x1xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}

// A VAE decoder block: 3x3 conv, GroupNorm, SiLU, 3x3 conv.
func.func @vae_block(%x: tensor<1x8x6x6xf32>, %w1: tensor<16x8x3x3xf32>, %g: tensor<16xf32>, %bt: tensor<16xf32>, %w2: tensor<8x16x3x3xf32>, %b2: tensor<8xf32>) -> tensor<1x8x6x6xf32> {
  %c1 = fuse.conv %x, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x6x6xf32>
  %n = fuse.group_norm %c1 weight(%g : tensor<16xf32>) bias(%bt : tensor<16xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<1x16x6x6xf32>
  %s = fuse.silu %n : tensor<1x16x6x6xf32>
  %c2 = fuse.conv %s, %w2, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x16x6x6xf32>, tensor<8x16x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>
  return %c2 : tensor<1x8x6x6xf32>
}
