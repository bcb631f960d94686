// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels))' | FileCheck %s
// RUN: fusecc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(fuse-form-kernels{channel-contraction=false}))' | FileCheck %s --check-prefix=OFF

// Channel contractions (isChannelContraction: a 1x1 convolution of at most
// maxContractionChannels output channels, 23 on the default H200, stride 1,
// no padding, one group) join the kernel of the convolution whose
// elementwise epilogue value they read, with the elementwise ops after
// them; anything else leaves the 1x1 convolution a kernel of its own, as
// does channel-contraction=false.

// OFF-LABEL: func.func @head
// OFF: fuse.kernel "head_k0"
// OFF-NOT: forward_weight
// OFF: fuse.yield
// OFF: fuse.kernel "head_k1"
// OFF-NEXT: ^bb0
// OFF-NEXT: fuse.conv_transpose {{.*}}forward_weight
// OFF-NEXT: fuse.sigmoid

// CHECK-LABEL: func.func @head
// CHECK-NEXT: %[[K:.*]] = fuse.kernel "head_k0" ins(%arg0, %arg1, %arg2, %arg3 : tensor<2x8x5x5xf32>, tensor<8x32x4x4xf32>, tensor<5x32x1x1xf32>, tensor<5xf32>) -> tensor<2x5x10x10xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<2x8x5x5xf32>, %[[W:.*]]: tensor<8x32x4x4xf32>, %[[HW:.*]]: tensor<5x32x1x1xf32>, %[[HB:.*]]: tensor<5xf32>):
// CHECK-NEXT:   %[[C:.*]] = fuse.conv_transpose %[[X]], %[[W]]
// CHECK-NEXT:   %[[R:.*]] = fuse.relu %[[C]]
// CHECK-NEXT:   %[[H:.*]] = fuse.conv_transpose %[[R]], %[[HW]], %[[HB]] {dilation = array<i64: 1, 1>, forward_weight
// CHECK-NEXT:   %[[S:.*]] = fuse.sigmoid %[[H]]
// CHECK-NEXT:   fuse.yield %[[S]] : tensor<2x5x10x10xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[K]]
func.func @head(%x: tensor<2x8x5x5xf32>, %w: tensor<8x32x4x4xf32>, %hw: tensor<5x32x1x1xf32>, %hb: tensor<5xf32>) -> tensor<2x5x10x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x8x5x5xf32>, tensor<8x32x4x4xf32>) -> tensor<2x32x10x10xf32>
  %1 = fuse.relu %0 : tensor<2x32x10x10xf32>
  %2 = fuse.conv_transpose %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<2x32x10x10xf32>, tensor<5x32x1x1xf32>, tensor<5xf32>) -> tensor<2x5x10x10xf32>
  %3 = fuse.sigmoid %2 : tensor<2x5x10x10xf32>
  return %3 : tensor<2x5x10x10xf32>
}

// -----

// 24 output channels: more than the rule allows.
// CHECK-LABEL: func.func @too_many_channels
// CHECK: fuse.kernel "too_many_channels_k0"
// CHECK-NOT: fuse.conv_transpose {{.*}}forward_weight
// CHECK: fuse.yield
// CHECK: fuse.kernel "too_many_channels_k1"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.conv_transpose {{.*}}forward_weight
func.func @too_many_channels(%x: tensor<1x4x4x4xf32>, %w: tensor<4x16x4x4xf32>, %hw: tensor<24x16x1x1xf32>) -> tensor<1x24x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.conv_transpose %0, %hw {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<1x16x8x8xf32>, tensor<24x16x1x1xf32>) -> tensor<1x24x8x8xf32>
  return %1 : tensor<1x24x8x8xf32>
}

// -----

// 256 input channels: more than a producer's block holds without widening
// its tile (kMaxContractionInputChannels, 128).
// CHECK-LABEL: func.func @too_wide_input
// CHECK: fuse.kernel "too_wide_input_k0"
// CHECK-NOT: fuse.conv_transpose {{.*}}forward_weight
// CHECK: fuse.yield
// CHECK: fuse.kernel "too_wide_input_k1"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: fuse.conv_transpose {{.*}}forward_weight
func.func @too_wide_input(%x: tensor<1x4x4x4xf32>, %w: tensor<4x256x4x4xf32>, %hw: tensor<17x256x1x1xf32>) -> tensor<1x17x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x256x4x4xf32>) -> tensor<1x256x8x8xf32>
  %1 = fuse.conv_transpose %0, %hw {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<1x256x8x8xf32>, tensor<17x256x1x1xf32>) -> tensor<1x17x8x8xf32>
  return %1 : tensor<1x17x8x8xf32>
}

// -----

// A 3x3 convolution, two groups, a channel softmax before the 1x1
// convolution: none joins.
// CHECK-LABEL: func.func @declined
// CHECK-COUNT-6: fuse.kernel "declined_k{{[0-9]}}"
// CHECK-NOT: fuse.kernel
func.func @declined(%x: tensor<1x4x4x4xf32>, %w: tensor<4x16x4x4xf32>, %k3: tensor<3x16x3x3xf32>, %kg: tensor<4x8x1x1xf32>, %k1: tensor<3x16x1x1xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x3x8x8xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.conv_transpose %0, %k3 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<1x16x8x8xf32>, tensor<3x16x3x3xf32>) -> tensor<1x3x8x8xf32>
  %2 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %3 = fuse.conv_transpose %2, %kg {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight, groups = 2 : i64} : (tensor<1x16x8x8xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x8x8xf32>
  %4 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %5 = fuse.softmax %4 {dim = 1 : i64} : tensor<1x16x8x8xf32>
  %6 = fuse.conv_transpose %5, %k1 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<1x16x8x8xf32>, tensor<3x16x1x1xf32>) -> tensor<1x3x8x8xf32>
  return %1, %3, %6 : tensor<1x3x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x3x8x8xf32>
}

// -----

// Half storage: the widening of the 1x1 convolution's bf16 weight and bias
// is copied into the kernel (an operand cast), which reads the bf16 tensors.
// CHECK-LABEL: func.func @bf16_weights
// CHECK-NEXT: fuse.kernel "bf16_weights_k0" ins(%arg0, %arg1, %arg2, %arg3 : tensor<1x4x4x4xbf16>, tensor<4x16x4x4xbf16>, tensor<3x16x1x1xbf16>, tensor<3xbf16>)
// CHECK-COUNT-4: fuse.cast
// CHECK-NEXT: fuse.conv_transpose
// CHECK-NEXT: fuse.relu
// CHECK-NEXT: fuse.conv_transpose {{.*}}forward_weight
// CHECK-NEXT: fuse.yield
func.func @bf16_weights(%x: tensor<1x4x4x4xbf16>, %w: tensor<4x16x4x4xbf16>, %hw: tensor<3x16x1x1xbf16>, %hb: tensor<3xbf16>) -> tensor<1x3x8x8xf32> {
  %xf = fuse.cast %x : tensor<1x4x4x4xbf16> -> tensor<1x4x4x4xf32>
  %wf = fuse.cast %w : tensor<4x16x4x4xbf16> -> tensor<4x16x4x4xf32>
  %hwf = fuse.cast %hw : tensor<3x16x1x1xbf16> -> tensor<3x16x1x1xf32>
  %hbf = fuse.cast %hb : tensor<3xbf16> -> tensor<3xf32>
  %0 = fuse.conv_transpose %xf, %wf {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.relu %0 : tensor<1x16x8x8xf32>
  %2 = fuse.conv_transpose %1, %hwf, %hbf {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, forward_weight} : (tensor<1x16x8x8xf32>, tensor<3x16x1x1xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  return %2 : tensor<1x3x8x8xf32>
}
