// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=never --tile-rows=4 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-rows=8 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=never --tile-rows=4 --emit=fused | FileCheck %s --check-prefix=CFG
// A bf16 chain (k3 s3x5 d2 transposed convolution + relu, then a 1x1
// convolution) whose kernels a forced tile size (rows of 4 on mma.sync, 8
// anywhere: no tensor-core tile fits) sends to the FMA path, found by the
// session 42 hunt (docs/reliability.md "Session 42"). The second kernel
// reads the intermediate in bf16 (the graph's own type) and multiplies it
// in f32. fusecc-check's rounding model (convOperandsOfKernels) took an
// FMA kernel for exact, so on wide inputs 16 elements with cancellation
// (reference -0.0635, kernel -0.0518: the intermediate's bf16 rounding)
// failed the element test while the tensor-core kernels, whose model
// rounds that operand, passed with the same results. An FMA convolution
// whose input is the operand cast of a half kernel input is now modelled
// as rounding to that type.

// CHECK: @fma_bf16_chain: PASS {{.*}} bf16-operands {{.*}} storage bf16
// CHECK: @fma_bf16_chain: PASS {{.*}} bf16-operands {{.*}} storage bf16 {{.*}}wide inputs
// CHECK-NOT: FAIL
// CFG: "fma_bf16_chain_k0" {{.*}}operand = f32
// CFG: "fma_bf16_chain_k1" {{.*}}operand = f32

func.func @fma_bf16_chain(%x: tensor<1x64x2x29xbf16>, %w: tensor<64x21x3x1xbf16>, %w2: tensor<24x21x1x1xbf16>) -> tensor<1x24x7x141xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 5>, padding = array<i64: 1, 0>, output_padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x64x2x29xbf16>, tensor<64x21x3x1xbf16>) -> tensor<1x21x7x141xbf16>
  %1 = fuse.relu %0 : tensor<1x21x7x141xbf16>
  %2 = fuse.conv %1, %w2 {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x21x7x141xbf16>, tensor<24x21x1x1xbf16>) -> tensor<1x24x7x141xbf16>
  return %2 : tensor<1x24x7x141xbf16>
}
