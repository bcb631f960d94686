// RUN: fusecc %s --emit=plan | FileCheck %s
// RUN: fusecc %s --emit=plan --chip=sm_90a | FileCheck %s
// Half stores (docs/design/types.md): a bf16/f16 convolution whose result,
// after its elementwise epilogue, is only stored in the half type writes it
// itself, rounded once in its epilogue: one kernel, no f32 intermediate
// buffer, no elementwise cast kernel (kb1_57 stored in bf16: 1.1 GB
// written instead of 2.2 GB f32 written and read plus 1.1 GB). Pooled,
// channel-reduction and normalisation epilogues keep the cast kernel.

// CHECK-LABEL: plan @bf16_kb1_57_small: 1 kernel, 0 buffers (0 bytes)
// CHECK-NEXT: step 0 bf16_kb1_57_small_k0 (convolution)
// CHECK-NEXT: reads x weight
// CHECK-NEXT: writes result (2x16x34x34xbf16)
func.func @bf16_kb1_57_small(%x: tensor<2x16x32x32xbf16> {fuse.name = "x"}, %weight: tensor<16x16x3x3xbf16> {fuse.name = "weight"}) -> tensor<2x16x34x34xbf16> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x32x32xbf16>, tensor<16x16x3x3xbf16>) -> tensor<2x16x34x34xbf16>
  return %0 : tensor<2x16x34x34xbf16>
}

// CHECK-LABEL: plan @f16_bias_gelu: 1 kernel, 0 buffers (0 bytes)
// CHECK-NEXT: step 0 f16_bias_gelu_k0 (convolution)
// CHECK-NEXT: reads arg0 arg1 arg2
// CHECK-NEXT: writes result (2x8x9x9xf16)
func.func @f16_bias_gelu(%x: tensor<2x4x4x4xf16>, %w: tensor<4x8x3x3xf16>, %b: tensor<8xf16>) -> tensor<2x8x9x9xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x4x4xf16>, tensor<4x8x3x3xf16>, tensor<8xf16>) -> tensor<2x8x9x9xf16>
  %g = fuse.gelu %y : tensor<2x8x9x9xf16>
  return %g : tensor<2x8x9x9xf16>
}

// A pooled epilogue rounds and stores the half result itself.
// CHECK-LABEL: plan @bf16_conv_maxpool: 1 kernel, 0 buffers (0 bytes)
// CHECK: step 0 bf16_conv_maxpool_k0 (convolution, pooled epilogue
// CHECK-NEXT: reads arg0 arg1
// CHECK-NEXT: writes result (1x4x4x4xbf16)
func.func @bf16_conv_maxpool(%x: tensor<1x2x4x4xbf16>, %w: tensor<2x4x2x2xbf16>) -> tensor<1x4x4x4xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4xbf16>, tensor<2x4x2x2xbf16>) -> tensor<1x4x8x8xbf16>
  %p = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x4x8x8xbf16> -> tensor<1x4x4x4xbf16>
  return %p : tensor<1x4x4x4xbf16>
}
