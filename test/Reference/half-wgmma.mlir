// bf16 / f16 operands on Hopper wgmma (--chip=sm_90a): wgmma.mma_async
// m64nNk16 with f32 accumulators, both operands re-laid out (the weight and
// input re-layout kernels, Relayout.cpp) into packed half words, two
// channels per 32-bit word (docs/design/math.md), cp.async-staged as for
// TF32, one k16 wgmma per pair of 4-channel planes. The simulator runs the
// packed operands as the hardware reads them (SimTensorCore.cpp
// wgmmaOperand: element k at byte (k % 8) x 2 of its core-matrix row), on
// the storage path (bf16 / f16 graphs, operands read directly) and on the
// autocast path (--precision=bf16 / fp16 on f32 graphs), for each epilogue
// family the wgmma main loop feeds: bias + gelu, a channel softmax (all
// channels in a block), layer_norm over the last dim (whole rows), the
// group_norm statistics epilogue, max pooling in the epilogue, a channel
// mean; 20 and 40 input channels (chunks of 16, padded with zeros).

// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=STORE
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 | FileCheck %s --check-prefix=BF16
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 | FileCheck %s --check-prefix=F16
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=fused | FileCheck %s --check-prefix=TYPES
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=fp16 --emit=fused | FileCheck %s --check-prefix=TYPESF16

// STORE: @bf16_gelu: PASS {{.*}} bf16-operands rel-L2 {{.*}} storage bf16
// STORE: @f16_softmax: PASS {{.*}} f16-operands rel-L2 {{.*}} storage f16
// STORE-NOT: FAIL
// BF16: @f32_gelu: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @f32_softmax: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @f32_layernorm: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @f32_groupnorm: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @f32_maxpool: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @f32_mean: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16-NOT: FAIL
// F16: @f32_gelu: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @f32_softmax: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @f32_layernorm: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @f32_groupnorm: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @f32_maxpool: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @f32_mean: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16-NOT: FAIL

// Every convolution on wgmma with half operands, chunks of 16 channels.
// TYPES-LABEL: func.func @bf16_gelu
// TYPES: ciChunk = {{16|32|48}}, types = <bf16, storage = bf16, operand = bf16, accumulator = f32, statistics = f32>, {{.*}}wgmmaN
// TYPES-LABEL: func.func @f16_softmax
// TYPES: types = <f16, storage = f16, operand = f16, accumulator = f32, statistics = f32>, {{.*}}wgmmaN
// TYPESF16-COUNT-8: types = <f16, storage = {{f32|bf16|f16}}, operand = f16, accumulator = f32, statistics = f32>, {{.*}}wgmmaN
// TYPESF16-NOT: mmaWarpsC

func.func @bf16_gelu(%x: tensor<2x20x4x8xbf16>, %w: tensor<20x64x3x3xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x8x16xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x20x4x8xbf16>, tensor<20x64x3x3xbf16>, tensor<64xbf16>) -> tensor<2x64x8x16xbf16>
  %g = fuse.gelu %y : tensor<2x64x8x16xbf16>
  return %g : tensor<2x64x8x16xbf16>
}

func.func @f16_softmax(%x: tensor<1x40x3x4xf16>, %w: tensor<40x64x3x3xf16>) -> tensor<1x64x5x6xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x3x4xf16>, tensor<40x64x3x3xf16>) -> tensor<1x64x5x6xf16>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x64x5x6xf16>
  return %s : tensor<1x64x5x6xf16>
}

func.func @f32_gelu(%x: tensor<2x20x4x8xf32>, %w: tensor<20x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<2x64x8x16xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x20x4x8xf32>, tensor<20x64x3x3xf32>, tensor<64xf32>) -> tensor<2x64x8x16xf32>
  %g = fuse.gelu %y : tensor<2x64x8x16xf32>
  return %g : tensor<2x64x8x16xf32>
}

func.func @f32_softmax(%x: tensor<1x40x3x4xf32>, %w: tensor<40x64x3x3xf32>) -> tensor<1x64x5x6xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x3x4xf32>, tensor<40x64x3x3xf32>) -> tensor<1x64x5x6xf32>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x64x5x6xf32>
  return %s : tensor<1x64x5x6xf32>
}

func.func @f32_layernorm(%x: tensor<2x16x4x4xf32>, %w: tensor<16x64x2x2xf32>, %g: tensor<8xf32>, %beta: tensor<8xf32>) -> tensor<2x64x8x8xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x4xf32>, tensor<16x64x2x2xf32>) -> tensor<2x64x8x8xf32>
  %l = fuse.layer_norm %y weight(%g : tensor<8xf32>) bias(%beta : tensor<8xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x64x8x8xf32>
  return %l : tensor<2x64x8x8xf32>
}

func.func @f32_groupnorm(%x: tensor<2x20x4x4xf32>, %w: tensor<20x64x3x3xf32>, %g: tensor<64xf32>, %beta: tensor<64xf32>) -> tensor<2x64x6x6xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x20x4x4xf32>, tensor<20x64x3x3xf32>) -> tensor<2x64x6x6xf32>
  %n = fuse.group_norm %y weight(%g : tensor<64xf32>) bias(%beta : tensor<64xf32>) {num_groups = 8 : i64, epsilon = 1.0e-05 : f64} : tensor<2x64x6x6xf32>
  %r = fuse.relu %n : tensor<2x64x6x6xf32>
  return %r : tensor<2x64x6x6xf32>
}

func.func @f32_maxpool(%x: tensor<1x24x4x8xf32>, %w: tensor<24x64x2x2xf32>) -> tensor<1x64x4x8xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x4x8xf32>, tensor<24x64x2x2xf32>) -> tensor<1x64x8x16xf32>
  %p = fuse.max_pool %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<1x64x8x16xf32> -> tensor<1x64x4x8xf32>
  %s = fuse.sigmoid %p : tensor<1x64x4x8xf32>
  return %s : tensor<1x64x4x8xf32>
}

func.func @f32_mean(%x: tensor<2x16x4x8xf32>, %w: tensor<16x64x3x3xf32>) -> tensor<2x1x6x10xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x8xf32>, tensor<16x64x3x3xf32>) -> tensor<2x64x6x10xf32>
  %t = fuse.tanh %y : tensor<2x64x6x10xf32>
  %m = fuse.mean %t {dims = array<i64: 1>, keepdim = true} : tensor<2x64x6x10xf32> -> tensor<2x1x6x10xf32>
  return %m : tensor<2x1x6x10xf32>
}
