// --precision=bf16 and --precision=fp16 on f32 graphs (torch.autocast's
// convolution): the convolution's operands are rounded to bf16 / f16 (to
// nearest even) in registers and multiplied by mma.sync m16n8k16 with f32
// accumulation; I/O and epilogue stay f32. The simulator runs the half MMA
// as the hardware does (SimTensorCore.cpp: exact half operands, exact
// products, f32 sums aligned and truncated per 8 products), and
// fusecc-check holds each result to the rule of Compare.h: rel-L2 below 1e-4
// against the float64 reference on the same rounded operands (only f32
// accumulation and epilogue error left: here 1e-8 to 1e-6), and against the
// exact reference at the tf32 limit scaled by the operands' unit roundoff
// (fp16 2e-3, bf16 1.6e-2). On 2-D and 3-D layers, stride 1 and 2,
// dilation, groups, a bias + gelu epilogue, group_norm and layer_norm,
// channel softmax, max pooling, input channels 3, 20, 24, 40 (chunks of 16
// padded with zeros), 256 and 512. On sm_90a these small grids stay on
// mma.sync (wgmma by default only where the grid fills the chip; half
// operands on wgmma: half-wgmma.mlir).

// RUN: fusecc-check --precision=bf16 %s | FileCheck %s --check-prefix=BF16
// RUN: fusecc-check --precision=bf16 --chip=sm_90a %s | FileCheck %s --check-prefix=BF16
// RUN: fusecc-check --precision=bf16 --tile-rows=1 --tile-ci-chunk=16 %s | FileCheck %s --check-prefix=BF16
// RUN: fusecc-check --precision=fp16 %s | FileCheck %s --check-prefix=F16
// RUN: fusecc-check --precision=fp16 --tile-merge-h %s | FileCheck %s --check-prefix=F16
// RUN: fusecc %s --precision=bf16 --emit=fused | FileCheck %s --check-prefix=TILE
// RUN: fusecc %s --precision=fp16 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=TILEF16

// Every convolution but the grouped one (groups of 16 channels: 8 input
// channels each, still one 16-channel MMA tile) is on the tensor cores.
// TILE-COUNT-11: types = <bf16, storage = f32, operand = bf16, accumulator = f32, statistics = f32>, mmaWarpsC
// TILE-NOT: operand = f32
// TILEF16-COUNT-11: types = <f16, storage = f32, operand = f16, accumulator = f32, statistics = f32>, mmaWarpsC
// TILEF16-NOT: wgmmaN

// BF16: @conv2d_s2_bias_gelu: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @conv3d_s1: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @conv3d_s2_dil2: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @groups2: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @group_norm_silu: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @softmax_channels: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @cin40_mean4: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @cin256_k3: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @cin512_k3_mean4: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @ln2d_w7: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16: @max3d_chain: PASS {{.*}} bf16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(bf16)
// BF16-NOT: FAIL
// F16: @conv2d_s2_bias_gelu: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @conv3d_s1: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @conv3d_s2_dil2: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @groups2: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @group_norm_silu: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @softmax_channels: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @cin40_mean4: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @cin256_k3: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @cin512_k3_mean4: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @ln2d_w7: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16: @max3d_chain: PASS {{.*}} f16-operands rel-L2 {{[0-9]\.[0-9]+e-0[5-9]}} {{.*}}(fp16)
// F16-NOT: FAIL

func.func @conv2d_s2_bias_gelu(%x: tensor<2x24x5x6xf32>, %w: tensor<24x32x3x3xf32>, %b: tensor<32xf32>) -> tensor<2x32x10x12xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x6xf32>, tensor<24x32x3x3xf32>, tensor<32xf32>) -> tensor<2x32x10x12xf32>
  %1 = fuse.gelu %0 : tensor<2x32x10x12xf32>
  return %1 : tensor<2x32x10x12xf32>
}

func.func @conv3d_s1(%x: tensor<1x16x3x4x5xf32>, %w: tensor<16x16x3x3x3xf32>) -> tensor<1x16x5x6x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x3x4x5xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x5x6x7xf32>
  return %0 : tensor<1x16x5x6x7xf32>
}

func.func @conv3d_s2_dil2(%x: tensor<2x12x3x4x5xf32>, %w: tensor<12x20x3x3x3xf32>, %b: tensor<20xf32>) -> tensor<2x20x7x9x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<2x12x3x4x5xf32>, tensor<12x20x3x3x3xf32>, tensor<20xf32>) -> tensor<2x20x7x9x11xf32>
  return %0 : tensor<2x20x7x9x11xf32>
}

func.func @groups2(%x: tensor<1x8x4x5xf32>, %w: tensor<8x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x9x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x8x4x5xf32>, tensor<8x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x9x11xf32>
  return %0 : tensor<1x32x9x11xf32>
}

func.func @group_norm_silu(%x: tensor<2x16x4x5xf32>, %w: tensor<16x24x3x3xf32>, %b: tensor<24xf32>, %g: tensor<24xf32>, %be: tensor<24xf32>) -> tensor<2x24x8x10xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x5xf32>, tensor<16x24x3x3xf32>, tensor<24xf32>) -> tensor<2x24x8x10xf32>
  %1 = fuse.group_norm %0 weight(%g : tensor<24xf32>) bias(%be : tensor<24xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x24x8x10xf32>
  %2 = fuse.silu %1 : tensor<2x24x8x10xf32>
  return %2 : tensor<2x24x8x10xf32>
}

func.func @softmax_channels(%x: tensor<2x20x7xf32>, %w: tensor<20x48x4xf32>, %b: tensor<48xf32>) -> tensor<2x48x14xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x20x7xf32>, tensor<20x48x4xf32>, tensor<48xf32>) -> tensor<2x48x14xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x48x14xf32>
  return %1 : tensor<2x48x14xf32>
}

func.func @cin40_mean4(%x: tensor<1x40x2x3xf32> {fuse.check.mean = 4.0 : f64}, %w: tensor<40x9x2x2xf32>, %b: tensor<9xf32>) -> tensor<1x9x3x4xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x2x3xf32>, tensor<40x9x2x2xf32>, tensor<9xf32>) -> tensor<1x9x3x4xf32>
  return %0 : tensor<1x9x3x4xf32>
}

func.func @cin256_k3(%x: tensor<1x256x4x6xf32>, %w: tensor<256x16x3x3xf32>) -> tensor<1x16x6x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x256x4x6xf32>, tensor<256x16x3x3xf32>) -> tensor<1x16x6x8xf32>
  return %0 : tensor<1x16x6x8xf32>
}
func.func @cin512_k3_mean4(%x: tensor<1x512x3x6xf32> {fuse.check.mean = 4.0 : f64}, %w: tensor<512x64x3x3xf32> {fuse.check.mean = 1.0 : f64}) -> tensor<1x64x5x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x512x3x6xf32>, tensor<512x64x3x3xf32>) -> tensor<1x64x5x8xf32>
  return %0 : tensor<1x64x5x8xf32>
}

func.func @ln2d_w7(%x0: tensor<3x3x3x3xf32>, %w1: tensor<3x7x3x3xf32>, %b2: tensor<7xf32>, %g3: tensor<5xf32>, %beta4: tensor<5xf32>) -> tensor<3x7x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x3x3x3xf32>, tensor<3x7x3x3xf32>, tensor<7xf32>) -> tensor<3x7x5x5xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<5xf32>) bias(%beta4 : tensor<5xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<3x7x5x5xf32>
  %v2 = fuse.gelu %v1 : tensor<3x7x5x5xf32>
  %v3 = arith.constant dense<0.5> : tensor<f32>
  %v4 = fuse.mul %v2, %v3 : tensor<3x7x5x5xf32>, tensor<f32> -> tensor<3x7x5x5xf32>
  return %v4 : tensor<3x7x5x5xf32>
}

func.func @max3d_chain(%x: tensor<3x4x3x3x4xf32>, %w: tensor<4x5x3x3x3xf32>,
                       %cb: tensor<5xf32>, %m: tensor<5x1x1x1xf32>,
                       %pb: tensor<5x1x1x1xf32>) -> tensor<3x5x2x2x3xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>} : (tensor<3x4x3x3x4xf32>, tensor<4x5x3x3x3xf32>, tensor<5xf32>) -> tensor<3x5x5x5x7xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<3x5x5x5x7xf32>
  %2 = fuse.mul %1, %m : tensor<3x5x5x5x7xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x5x5x7xf32>
  %3 = fuse.max_pool %2 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<3x5x5x5x7xf32> -> tensor<3x5x2x2x3xf32>
  %4 = fuse.add %3, %pb : tensor<3x5x2x2x3xf32>, tensor<5x1x1x1xf32> -> tensor<3x5x2x2x3xf32>
  %5 = fuse.tanh %4 : tensor<3x5x2x2x3xf32>
  return %5 : tensor<3x5x2x2x3xf32>
}
