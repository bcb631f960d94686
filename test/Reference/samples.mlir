// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-samples=2 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 --tile-samples=3 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=ieee --tile-samples=2 | FileCheck %s --check-prefix=IEEE
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=2 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=-1 --emit=fused | FileCheck %s --check-prefix=NEVER
// wgmma blocks whose rows are the whole H stride phases of several samples
// (TileConfigAttr::samples): row r is row r mod (rows / samples) of sample
// n0 + r / (rows / samples); the rows are one wgmma N at the span their
// taps read, and the last rows' N reads zeroed columns past the staged
// rows. Batches of 3 and 5 leave the last block's samples past the batch
// (not staged, not stored). Epilogues: an eval batch_norm + relu, a
// residual add of a per-sample tensor (read at each row's sample), tanh;
// input rows of 4 (16-byte staging, the re-laid-out input) and of 3 and
// 6 positions (element staging). Blocks of samples are wgmma-only and not
// for split operands (ieee keeps its tiles) nor reductions (the softmax
// kernel keeps rows of one sample). A W stride of 1 stores its result by
// bulk copies of the tile's lines (each line its row's sample's).

// CHECK: @s_bn_relu: PASS
// CHECK: @s_residual: PASS
// CHECK: @s_heatmap_like: PASS
// CHECK: @s_softmax: PASS
// CHECK: @s_stride1: PASS
// CHECK-NOT: FAIL
// HALF: @s_bn_relu: PASS {{.*}}-operands
// HALF: @s_residual: PASS {{.*}}-operands
// HALF: @s_heatmap_like: PASS {{.*}}-operands
// HALF: @s_softmax: PASS {{.*}}-operands
// HALF: @s_stride1: PASS {{.*}}-operands
// HALF-NOT: FAIL
// IEEE: @s_bn_relu: PASS
// IEEE-NOT: FAIL

// CFG: fuse.kernel "s_bn_relu_k0" {{.*}}rows = 8, {{.*}}samples = 2>
// CFG: fuse.kernel "s_residual_k0" {{.*}}rows = 6, {{.*}}samples = 2>
// CFG: fuse.kernel "s_heatmap_like_k0" {{.*}}rows = 12, {{.*}}samples = 2>
// CFG-NOT: "s_softmax_k0" {{.*}}samples
// CFG: fuse.kernel "s_stride1_k0" {{.*}}rows = 8, {{.*}}samples = 2>
// NEVER-NOT: samples

func.func @s_bn_relu(%x: tensor<3x40x4x4xf32>, %w: tensor<40x64x4x4xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>, %g: tensor<64xf32>, %be: tensor<64xf32>) -> tensor<3x64x8x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x40x4x4xf32>, tensor<40x64x4x4xf32>) -> tensor<3x64x8x8xf32>
  %n = fuse.batch_norm %c, %m, %v weight(%g) bias(%be) {epsilon = 1.0e-05 : f64} : (tensor<3x64x8x8xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<3x64x8x8xf32>
  %r = fuse.relu %n : tensor<3x64x8x8xf32>
  return %r : tensor<3x64x8x8xf32>
}

func.func @s_residual(%x: tensor<5x24x3x3xf32>, %w: tensor<24x128x4x4xf32>, %b: tensor<128xf32>, %res: tensor<5x128x6x6xf32>) -> tensor<5x128x6x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<5x24x3x3xf32>, tensor<24x128x4x4xf32>, tensor<128xf32>) -> tensor<5x128x6x6xf32>
  %a = fuse.add %c, %res : tensor<5x128x6x6xf32>, tensor<5x128x6x6xf32> -> tensor<5x128x6x6xf32>
  %t = fuse.tanh %a : tensor<5x128x6x6xf32>
  return %t : tensor<5x128x6x6xf32>
}

func.func @s_heatmap_like(%x: tensor<3x32x6x6xf32>, %w: tensor<32x64x4x4xf32>, %b: tensor<64xf32>) -> tensor<3x64x12x12xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x32x6x6xf32>, tensor<32x64x4x4xf32>, tensor<64xf32>) -> tensor<3x64x12x12xf32>
  %r = fuse.relu %c : tensor<3x64x12x12xf32>
  return %r : tensor<3x64x12x12xf32>
}

func.func @s_softmax(%x: tensor<3x16x4x4xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<3x64x8x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x16x4x4xf32>, tensor<16x64x4x4xf32>) -> tensor<3x64x8x8xf32>
  %s = fuse.softmax %c {dim = 1 : i64} : tensor<3x64x8x8xf32>
  return %s : tensor<3x64x8x8xf32>
}

func.func @s_stride1(%x: tensor<3x32x4x6xf32>, %w: tensor<32x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<3x64x4x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x32x4x6xf32>, tensor<32x64x3x3xf32>, tensor<64xf32>) -> tensor<3x64x4x6xf32>
  %r = fuse.relu %c : tensor<3x64x4x6xf32>
  return %r : tensor<3x64x4x6xf32>
}
