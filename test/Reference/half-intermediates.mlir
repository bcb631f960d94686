// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always > %t.on
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --plan-half-intermediates=false > %t.off
// RUN: diff %t.on %t.off
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --plan-half-intermediates=false | FileCheck %s --check-prefix=OFF
// RUN: fusecc %s --emit=plan --precision=fp16 | FileCheck %s --check-prefix=OFF
// Half intermediates (docs/design/types.md): a convolution kernel's f32
// result that only convolutions read, as their input on tensor cores of
// the graph's half type, is stored in that type (the producer's half
// store) and read directly by the readers, whose tensor cores round it to
// that type anyway: the same results as f32 buffers (the diff of the
// wgmma runs), half the bytes. Not where a reader computes in TF32 (at
// most 8 input channels per group), where another op reads the value (a
// residual add), or where --precision asks for the other half type.

// PLAN-LABEL: plan @bf16_chain
// PLAN: writes [[B0:b[0-9]+]] (2x32x6x12xbf16)
// PLAN: reads [[B0]]
// PLAN: writes [[B1:b[0-9]+]] (2x32x12x24xbf16)
// PLAN: reads [[B1]]
// PLAN: writes result (2x48x12x24xbf16)
// PLAN-LABEL: plan @f16_chain
// PLAN: writes [[B2:b[0-9]+]] (2x32x6x12xf16)
// PLAN: reads [[B2]]
// PLAN-LABEL: plan @bf16_few_inputs
// PLAN: writes {{b[0-9]+}} (2x8x6x12xf32)
// PLAN-LABEL: plan @bf16_residual_reader
// PLAN: writes {{b[0-9]+}} (2x32x6x16xf32)

// OFF-LABEL: plan @bf16_chain
// OFF: writes {{b[0-9]+}} (2x32x6x12xf32)
// OFF: writes {{b[0-9]+}} (2x32x12x24xf32)

// CHECK: @bf16_chain: PASS {{.*}} storage bf16
// CHECK: @f16_chain: PASS {{.*}} storage f16
// CHECK: @bf16_few_inputs: PASS {{.*}} storage bf16
// CHECK: @bf16_residual_reader: PASS {{.*}} storage bf16
// CHECK-NOT: FAIL

// Three convolutions (batch_norm + relu, relu, none after them): both
// intermediates in bf16; the last reader is a 1x1 convolution.
func.func @bf16_chain(%x: tensor<2x64x3x6xbf16>, %w0: tensor<64x32x4x4xbf16>, %m: tensor<32xbf16>, %v: tensor<32xbf16>, %g: tensor<32xbf16>, %b: tensor<32xbf16>, %w1: tensor<32x32x4x4xbf16>, %w2: tensor<48x32x1x1xbf16>, %b2: tensor<48xbf16>) -> tensor<2x48x12x24xbf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xbf16>, tensor<64x32x4x4xbf16>) -> tensor<2x32x6x12xbf16>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%b) {epsilon = 1.0e-05 : f64} : (tensor<2x32x6x12xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<32xbf16>, tensor<32xbf16>) -> tensor<2x32x6x12xbf16>
  %2 = fuse.relu %1 : tensor<2x32x6x12xbf16>
  %3 = fuse.conv_transpose %2, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x12xbf16>, tensor<32x32x4x4xbf16>) -> tensor<2x32x12x24xbf16>
  %4 = fuse.relu %3 : tensor<2x32x12x24xbf16>
  %5 = fuse.conv %4, %w2, %b2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x12x24xbf16>, tensor<48x32x1x1xbf16>, tensor<48xbf16>) -> tensor<2x48x12x24xbf16>
  return %5 : tensor<2x48x12x24xbf16>
}

func.func @f16_chain(%x: tensor<2x64x3x6xf16>, %w0: tensor<64x32x4x4xf16>, %b0: tensor<32xf16>, %w1: tensor<32x16x4x4xf16>) -> tensor<2x16x12x24xf16> {
  %0 = fuse.conv_transpose %x, %w0, %b0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xf16>, tensor<64x32x4x4xf16>, tensor<32xf16>) -> tensor<2x32x6x12xf16>
  %1 = fuse.gelu %0 : tensor<2x32x6x12xf16>
  %2 = fuse.conv_transpose %1, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x12xf16>, tensor<32x16x4x4xf16>) -> tensor<2x16x12x24xf16>
  %3 = fuse.tanh %2 : tensor<2x16x12x24xf16>
  return %3 : tensor<2x16x12x24xf16>
}

// The reader has 8 input channels: it computes in TF32, which rounds its
// f32 input to TF32, not bf16; the buffer stays f32.
func.func @bf16_few_inputs(%x: tensor<2x64x3x6xbf16>, %w0: tensor<64x8x4x4xbf16>, %w1: tensor<8x32x4x4xbf16>) -> tensor<2x32x12x24xbf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x6xbf16>, tensor<64x8x4x4xbf16>) -> tensor<2x8x6x12xbf16>
  %1 = fuse.relu %0 : tensor<2x8x6x12xbf16>
  %2 = fuse.conv_transpose %1, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x6x12xbf16>, tensor<8x32x4x4xbf16>) -> tensor<2x32x12x24xbf16>
  return %2 : tensor<2x32x12x24xbf16>
}

// An add reads the value as well (in f32): the buffer stays f32.
func.func @bf16_residual_reader(%x: tensor<2x64x3x8xbf16>, %w0: tensor<64x32x4x4xbf16>, %w1: tensor<32x32x3x3xbf16>) -> tensor<2x32x6x16xbf16> {
  %0 = fuse.conv_transpose %x, %w0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x3x8xbf16>, tensor<64x32x4x4xbf16>) -> tensor<2x32x6x16xbf16>
  %1 = fuse.relu %0 : tensor<2x32x6x16xbf16>
  %2 = fuse.conv_transpose %1, %w1 {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x16xbf16>, tensor<32x32x3x3xbf16>) -> tensor<2x32x6x16xbf16>
  %3 = fuse.add %2, %1 : tensor<2x32x6x16xbf16>, tensor<2x32x6x16xbf16> -> tensor<2x32x6x16xbf16>
  return %3 : tensor<2x32x6x16xbf16>
}
