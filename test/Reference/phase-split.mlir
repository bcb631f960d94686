// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=4 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-phase-split=4 | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=4 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=-1 --emit=fused | FileCheck %s --check-prefix=NEVER
// wgmma blocks whose W phases are spread over warpgroups
// (TileConfigAttr::wgmmaPhaseSplit): warpgroup s holds phases s x sw / S
// .. (s + 1) x sw / S - 1 (a runtime first phase, its W taps (p + pad)
// mod sw + sw j), N = 2 x 64 / (sw / S) positions a phase (at most the
// phase's, rounded up to 8), the result
// stored through the output tile at its phase's positions. Shapes: stride
// 8 with 64 channels and a bias + relu (a row shorter than the tile),
// stride 8 with 72 channels (two channel tiles, the second of 8) over two
// input-channel chunks, stride 16 with 21 channels and one round (fresh
// accumulators), stride 4 without padding and an output padding.

// CHECK: @ps_s8_relu: PASS
// CHECK: @ps_s8_72: PASS
// CHECK: @ps_s16_21: PASS
// CHECK: @ps_s4_nopad: PASS
// CHECK-NOT: FAIL
// HALF: @ps_s8_relu: PASS {{.*}}-operands
// HALF: @ps_s8_72: PASS {{.*}}-operands
// HALF: @ps_s16_21: PASS {{.*}}-operands
// HALF: @ps_s4_nopad: PASS {{.*}}-operands
// HALF-NOT: FAIL
// CFG-LABEL: fuse.kernel "ps_s8_relu_k0"
// CFG-SAME: tileW = 320, tileC = 64, {{.*}}wgmmaN = 40, wgmmaGroups = 4, wgmmaPhaseSplit = 4>
// CFG-LABEL: fuse.kernel "ps_s8_72_k0"
// CFG-SAME: tileW = 512, tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 4, wgmmaPhaseSplit = 4>
// CFG-LABEL: fuse.kernel "ps_s16_21_k0"
// CFG-SAME: tileW = 384, tileC = 64, {{.*}}wgmmaN = 24, wgmmaGroups = 4, wgmmaPhaseSplit = 4>
// NEVER-NOT: wgmmaPhaseSplit

func.func @ps_s8_relu(%x: tensor<1x16x2x40xf32>, %w: tensor<16x64x16x16xf32>, %b: tensor<64xf32>) -> tensor<1x64x16x320xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x2x40xf32>, tensor<16x64x16x16xf32>, tensor<64xf32>) -> tensor<1x64x16x320xf32>
  %1 = fuse.relu %0 : tensor<1x64x16x320xf32>
  return %1 : tensor<1x64x16x320xf32>
}

func.func @ps_s8_72(%x: tensor<1x40x1x70xf32>, %w: tensor<40x72x16x16xf32>) -> tensor<1x72x8x560xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x1x70xf32>, tensor<40x72x16x16xf32>) -> tensor<1x72x8x560xf32>
  return %0 : tensor<1x72x8x560xf32>
}

func.func @ps_s16_21(%x: tensor<2x8x1x20xf32>, %w: tensor<8x21x32x32xf32>, %b: tensor<21xf32>) -> tensor<2x21x16x320xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 16, 16>, padding = array<i64: 8, 8>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x1x20xf32>, tensor<8x21x32x32xf32>, tensor<21xf32>) -> tensor<2x21x16x320xf32>
  return %0 : tensor<2x21x16x320xf32>
}

func.func @ps_s4_nopad(%x: tensor<1x24x3x50xf32>, %w: tensor<24x64x8x8xf32>, %b: tensor<64xf32>) -> tensor<1x64x17x205xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x3x50xf32>, tensor<24x64x8x8xf32>, tensor<64xf32>) -> tensor<1x64x17x205xf32>
  return %0 : tensor<1x64x17x205xf32>
}
