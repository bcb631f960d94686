// bf16 / f16 convolutions whose groups have at most 8 input channels (one
// TF32 k-step) compute in TF32 on their half storage (tensorCoreMath,
// TileChoice.h): every bf16 / f16 value is a TF32 value, so the products
// and the f32 accumulation are those of the half math, without a half
// k-step of 16 that would stage and multiply twice the zero channels.
// kb2_50's shape (3 channels, an average pool in the epilogue, which
// stores the bf16 result itself), 8 channels with a bias and relu stored
// in f16, and 2 groups of 4 channels; on mma.sync, and on wgmma (the input
// re-laid out or staged from the half storage, widened and TF32-rounded,
// which is exact). 9 channels keep bf16 math. --precision=fp16 on bf16
// storage asks for the other half type: its math stays f16.

// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=TYPES
// RUN: fusecc %s --precision=fp16 --emit=fused | FileCheck %s --check-prefix=ASKED
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN

// CHECK: @pooled_3ch: PASS {{.*}} storage bf16
// CHECK: @relu_8ch_f16: PASS {{.*}} storage f16
// CHECK: @groups_4ch: PASS {{.*}} storage bf16
// CHECK: @bf16_9ch: PASS {{.*}} bf16-operands {{.*}} storage bf16
// CHECK-NOT: FAIL

// TYPES-LABEL: func.func @pooled_3ch
// TYPES: ciChunk = 8, types = <tf32, storage = bf16, operand = tf32, accumulator = f32, statistics = f32>, mma
// TYPES-LABEL: func.func @relu_8ch_f16
// TYPES: ciChunk = 8, types = <tf32, storage = f16, operand = tf32, accumulator = f32, statistics = f32>, mma
// TYPES-LABEL: func.func @groups_4ch
// TYPES: types = <tf32, storage = bf16, operand = tf32
// TYPES-LABEL: func.func @bf16_9ch
// TYPES: ciChunk = 16, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, mma
// The pooled epilogue stores its bf16 result itself: no cast kernel.
// PLAN: plan @pooled_3ch: 1 kernel, 0 buffers (0 bytes)
// PLAN: writes result (2x16x3x5x5xbf16)
// ASKED-LABEL: func.func @pooled_3ch
// ASKED: types = <f16, storage = bf16, operand = f16

func.func @pooled_3ch(%x: tensor<2x3x4x6x6xbf16>, %w: tensor<3x16x3x3x3xbf16>, %b: tensor<16xbf16>, %s: tensor<bf16>, %bias: tensor<16x1x1x1xbf16>) -> tensor<2x16x3x5x5xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x3x4x6x6xbf16>, tensor<3x16x3x3x3xbf16>, tensor<16xbf16>) -> tensor<2x16x7x11x11xbf16>
  %m = fuse.mul %y, %s : tensor<2x16x7x11x11xbf16>, tensor<bf16> -> tensor<2x16x7x11x11xbf16>
  %p = fuse.avg_pool %m {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<2x16x7x11x11xbf16> -> tensor<2x16x3x5x5xbf16>
  %a = fuse.add %p, %bias : tensor<2x16x3x5x5xbf16>, tensor<16x1x1x1xbf16> -> tensor<2x16x3x5x5xbf16>
  return %a : tensor<2x16x3x5x5xbf16>
}

func.func @relu_8ch_f16(%x: tensor<2x8x5x8xf16>, %w: tensor<8x32x3x3xf16>, %b: tensor<32xf16>) -> tensor<2x32x7x10xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x5x8xf16>, tensor<8x32x3x3xf16>, tensor<32xf16>) -> tensor<2x32x7x10xf16>
  %r = fuse.relu %y : tensor<2x32x7x10xf16>
  return %r : tensor<2x32x7x10xf16>
}

func.func @groups_4ch(%x: tensor<1x8x4x8xbf16>, %w: tensor<8x16x2x2xbf16>) -> tensor<1x32x8x16xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x8x4x8xbf16>, tensor<8x16x2x2xbf16>) -> tensor<1x32x8x16xbf16>
  return %y : tensor<1x32x8x16xbf16>
}

func.func @bf16_9ch(%x: tensor<1x9x4x8xbf16>, %w: tensor<9x16x3x3xbf16>) -> tensor<1x16x6x10xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x9x4x8xbf16>, tensor<9x16x3x3xbf16>) -> tensor<1x16x6x10xbf16>
  return %y : tensor<1x16x6x10xbf16>
}
