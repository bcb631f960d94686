// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=never %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc-check --chip=sm_90a --tile-wgmma=always --precision=fp16 %s | FileCheck %s
// RUN: fusecc %s --precision=tf32 --emit=fused | FileCheck %s --check-prefix=FUSED
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --plan-channel-contraction=false --emit=plan | FileCheck %s --check-prefix=OFF
// Channel contractions (a 1x1 convolution of few output channels, stride 1,
// no padding, one group: isChannelContraction) applied in the epilogue of
// the convolution kernel that produces their input: every block holds all
// channels and builds each position's output channels from its tile, so
// the contracted tensor never reaches device memory. The simulator runs
// them on every main loop (FMA, split-operand and tf32 mma.sync, wgmma) at
// awkward shapes (batch 1 and 2; 13, 32 and 70 channels; 1-, 2- and 3-D;
// forward and transposed 1x1 weights, with and without bias; bf16
// storage) and compares with the float64 reference.

// CHECK: @heatmap_small: PASS
// CHECK: @transposed_1d_nobias: PASS
// CHECK: @wide_70_to_1: PASS
// CHECK: @conv3d_head: PASS
// CHECK: @limit_23: PASS
// CHECK: @over_limit_24: PASS
// CHECK: @shared_input#0: PASS
// CHECK: @shared_input#1: PASS
// CHECK: @bf16_head: PASS
// CHECK: @bf16_mma_head: PASS

// FUSED-LABEL: func.func @heatmap_small
// FUSED: fuse.kernel "heatmap_small_k0"
// FUSED: fuse.conv_transpose
// FUSED: fuse.relu
// FUSED-NEXT: fuse.conv_transpose {{.*}}forward_weight
// FUSED-NEXT: fuse.sigmoid
// FUSED-NEXT: fuse.yield
// FUSED-NOT: fuse.kernel
// FUSED-LABEL: func.func @transposed_1d_nobias
// FUSED: fuse.kernel "transposed_1d_nobias_k0"
// FUSED: fuse.gelu
// FUSED-NEXT: fuse.conv_transpose
// FUSED-NEXT: fuse.yield
// FUSED-LABEL: func.func @limit_23
// FUSED: fuse.kernel "limit_23_k0"
// FUSED-NOT: fuse.kernel
// The 24th output channel passes the rule (2 F / BW = 23 on the H200): the
// 1x1 convolution keeps its kernel.
// FUSED-LABEL: func.func @over_limit_24
// FUSED: fuse.kernel "over_limit_24_k0"
// FUSED: fuse.kernel "over_limit_24_k1"
// A contracted value read by another op as well: two values would leave
// the kernel, so the 1x1 convolution keeps its kernel.
// FUSED-LABEL: func.func @shared_input
// FUSED: fuse.kernel "shared_input_k0"
// FUSED: fuse.kernel "shared_input_k1"
// bf16: the kernel reads the bf16 weights itself and stores the bf16
// result itself (a half store: the cast joins the kernel).
// FUSED-LABEL: func.func @bf16_head
// FUSED: fuse.kernel "bf16_head_k0"
// FUSED: fuse.conv_transpose
// FUSED: fuse.conv_transpose
// FUSED-NEXT: fuse.cast
// FUSED-NEXT: fuse.yield {{.*}}bf16>
// FUSED-NOT: fuse.kernel
// FUSED-LABEL: func.func @bf16_mma_head

// PLAN-LABEL: plan @heatmap_small: 1 kernel, 0 buffers
// OFF-LABEL: plan @heatmap_small: 2 kernels, 1 buffer
// OFF-NOT: channel contraction
// PLAN: step 0 heatmap_small_k0 (convolution, channel contraction: 32 -> 5 channels (1x1 convolution) in the epilogue)

func.func @heatmap_small(%x: tensor<2x8x5x5xf32>, %w: tensor<8x32x4x4xf32>, %m: tensor<32xf32>, %v: tensor<32xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<32xf32>, %bb: tensor<32xf32>, %hw: tensor<5x32x1x1xf32>, %hb: tensor<5xf32>) -> tensor<2x5x10x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x8x5x5xf32>, tensor<8x32x4x4xf32>) -> tensor<2x32x10x10xf32>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<2x32x10x10xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<2x32x10x10xf32>
  %2 = fuse.relu %1 : tensor<2x32x10x10xf32>
  %3 = fuse.conv %2, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x32x10x10xf32>, tensor<5x32x1x1xf32>, tensor<5xf32>) -> tensor<2x5x10x10xf32>
  %4 = fuse.sigmoid %3 : tensor<2x5x10x10xf32>
  return %4 : tensor<2x5x10x10xf32>
}

// 1-D, 13 channels, a transposed 1x1 weight ([C, J, 1]) without bias.
func.func @transposed_1d_nobias(%x: tensor<3x6x7xf32>, %w: tensor<6x13x3xf32>, %b: tensor<13xf32>, %k: tensor<13x4x1xf32>) -> tensor<3x4x15xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x6x7xf32>, tensor<6x13x3xf32>, tensor<13xf32>) -> tensor<3x13x15xf32>
  %1 = fuse.gelu %0 : tensor<3x13x15xf32>
  %2 = fuse.conv_transpose %1, %k {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<3x13x15xf32>, tensor<13x4x1xf32>) -> tensor<3x4x15xf32>
  return %2 : tensor<3x4x15xf32>
}

// 70 channels (two 64-channel wgmma groups in one block) to one, an odd
// row of 7, then an add of a per-sample parameter.
func.func @wide_70_to_1(%x: tensor<1x6x5x3xf32>, %w: tensor<6x70x3x3xf32>, %b: tensor<70xf32>, %hw: tensor<1x70x1x1xf32>, %hb: tensor<1xf32>, %p: tensor<1x1x1x1xf32>) -> tensor<1x1x11x7xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x6x5x3xf32>, tensor<6x70x3x3xf32>, tensor<70xf32>) -> tensor<1x70x11x7xf32>
  %1 = fuse.tanh %0 : tensor<1x70x11x7xf32>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x70x11x7xf32>, tensor<1x70x1x1xf32>, tensor<1xf32>) -> tensor<1x1x11x7xf32>
  %3 = fuse.add %2, %p : tensor<1x1x11x7xf32>, tensor<1x1x1x1xf32> -> tensor<1x1x11x7xf32>
  return %3 : tensor<1x1x11x7xf32>
}

func.func @conv3d_head(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x8x2x2x2xf32>, %hw: tensor<3x8x1x1x1xf32>, %hb: tensor<3xf32>) -> tensor<1x3x6x6x6xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x4x3x3x3xf32>, tensor<4x8x2x2x2xf32>) -> tensor<1x8x6x6x6xf32>
  %1 = fuse.relu %0 : tensor<1x8x6x6x6xf32>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<1x8x6x6x6xf32>, tensor<3x8x1x1x1xf32>, tensor<3xf32>) -> tensor<1x3x6x6x6xf32>
  return %2 : tensor<1x3x6x6x6xf32>
}

func.func @limit_23(%x: tensor<1x4x4x4xf32>, %w: tensor<4x16x4x4xf32>, %hw: tensor<23x16x1x1xf32>, %hb: tensor<23xf32>) -> tensor<1x23x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.relu %0 : tensor<1x16x8x8xf32>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<23x16x1x1xf32>, tensor<23xf32>) -> tensor<1x23x8x8xf32>
  return %2 : tensor<1x23x8x8xf32>
}

func.func @over_limit_24(%x: tensor<1x4x4x4xf32>, %w: tensor<4x16x4x4xf32>, %hw: tensor<24x16x1x1xf32>, %hb: tensor<24xf32>) -> tensor<1x24x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.relu %0 : tensor<1x16x8x8xf32>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<24x16x1x1xf32>, tensor<24xf32>) -> tensor<1x24x8x8xf32>
  return %2 : tensor<1x24x8x8xf32>
}

func.func @shared_input(%x: tensor<1x4x4x4xf32>, %w: tensor<4x16x4x4xf32>, %hw: tensor<3x16x1x1xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x3x8x8xf32>) {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x16x4x4xf32>) -> tensor<1x16x8x8xf32>
  %1 = fuse.relu %0 : tensor<1x16x8x8xf32>
  %2 = fuse.conv %1, %hw {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x16x8x8xf32>, tensor<3x16x1x1xf32>) -> tensor<1x3x8x8xf32>
  return %1, %2 : tensor<1x16x8x8xf32>, tensor<1x3x8x8xf32>
}

func.func @bf16_head(%x: tensor<2x8x5x5xbf16>, %w: tensor<8x32x4x4xbf16>, %b: tensor<32xbf16>, %hw: tensor<5x32x1x1xbf16>, %hb: tensor<5xbf16>) -> tensor<2x5x10x10xbf16> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x8x5x5xbf16>, tensor<8x32x4x4xbf16>, tensor<32xbf16>) -> tensor<2x32x10x10xbf16>
  %1 = fuse.relu %0 : tensor<2x32x10x10xbf16>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x32x10x10xbf16>, tensor<5x32x1x1xbf16>, tensor<5xbf16>) -> tensor<2x5x10x10xbf16>
  return %2 : tensor<2x5x10x10xbf16>
}

// bf16 operands on the tensor cores (16 input channels): the contraction
// rounds the f32 epilogue value to bf16 as the kernel's convolution rounds
// its operands (a half graph's intermediate as PyTorch stores it).
func.func @bf16_mma_head(%x: tensor<2x16x5x5xbf16>, %w: tensor<16x32x4x4xbf16>, %hw: tensor<7x32x1x1xbf16>, %hb: tensor<7xbf16>) -> tensor<2x7x10x10xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x16x5x5xbf16>, tensor<16x32x4x4xbf16>) -> tensor<2x32x10x10xbf16>
  %1 = fuse.silu %0 : tensor<2x32x10x10xbf16>
  %2 = fuse.conv %1, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x32x10x10xbf16>, tensor<7x32x1x1xbf16>, tensor<7xbf16>) -> tensor<2x7x10x10xbf16>
  return %2 : tensor<2x7x10x10xbf16>
}
