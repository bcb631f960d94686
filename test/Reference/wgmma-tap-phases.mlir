// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=2 --emit=fused | FileCheck %s --check-prefix=ROWS2
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=1 --tile-max-w=240 --emit=fused | FileCheck %s --check-prefix=W240
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=4 --tile-max-w=80 --emit=fused | FileCheck %s --check-prefix=ROWS4
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=ieee --ieee-tensor-cores=always --emit=fused | FileCheck %s --check-prefix=IEEE
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=1 --tile-max-w=240 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-rows=4 --tile-max-w=80 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=ieee --ieee-tensor-cores=always | FileCheck %s
// Only the W phases with a valid tap hold wgmma accumulators
// (`phasesWithTaps`, TileWgmma.cpp): the main loop issues nothing into
// the others', which stay the constant zero (the conv bias after the
// epilogue). kb1_81's pattern, k3 s5 d2, has taps in 3 of its 5 W phases,
// kb1_77's, k3 s2 d2, in 1 of 2. Tiles whose rows or length are given
// count those phases: 2 rows of N 32 (3 x 2 x 16 = 96 accumulators, 160
// counting all 5 phases, over the forced budget of 128: mma.sync before),
// one row of N 48 at --tile-max-w=240 (2 x 80 / 3; 32 before, and of
// equal costs the longest N), 4 rows of N 16 (96, 160 before); so do split
// operands (ieee: 2 rows of N 16, 8 rows at kb1_77's pattern with a bias).
// The unforced tf32 / half choice still counts every phase (docs/perf.md
// 220): one row of N 32, as before. Each checked against float64 in tf32,
// f16 / bf16 and split operands, where every phase's positions, the empty
// ones included, must be written.

// CFG: fuse.kernel "bf16_s5_d2_k0" {{.*}}tileW = 160, {{.*}}types = <bf16, {{.*}}>, wgmmaN = 32, wgmmaGroups = 1>
// CFG: fuse.kernel "f32_s5_d2_k0" {{.*}}tileW = 160, {{.*}}types = <tf32, {{.*}}>, wgmmaN = 32, wgmmaGroups = 1>
// CFG: fuse.kernel "bf16_s5_d2_n48_k0" {{.*}}tileW = 120, {{.*}}>, wgmmaN = 24, wgmmaGroups = 1>
// CFG: fuse.kernel "f32_s2_d2_bias_k0" {{.*}}tileW = 48, {{.*}}rows = 4, wgmmaN = 24, wgmmaGroups = 1>
// ROWS2: fuse.kernel "bf16_s5_d2_k0" {{.*}}tileW = 160, {{.*}}rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// ROWS2: fuse.kernel "f16_s5_d2_k0" {{.*}}tileW = 160, {{.*}}rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// ROWS2: fuse.kernel "f32_s5_d2_k0" {{.*}}tileW = 160, {{.*}}rows = 2, wgmmaN = 32, wgmmaGroups = 1>
// W240: fuse.kernel "bf16_s5_d2_n48_k0" {{.*}}tileW = 240, {{.*}}>, wgmmaN = 48, wgmmaGroups = 1>
// ROWS4: fuse.kernel "bf16_s5_d2_k0" {{.*}}tileW = 80, {{.*}}rows = 4, wgmmaN = 16, wgmmaGroups = 1>
// ROWS4: fuse.kernel "f32_s5_d2_k0" {{.*}}tileW = 80, {{.*}}rows = 4, wgmmaN = 16, wgmmaGroups = 1>
// IEEE: fuse.kernel "f32_s5_d2_k0" {{.*}}types = <tf32x3, {{.*}}>, rows = 2, wgmmaN = 16, wgmmaGroups = 1>
// IEEE: fuse.kernel "f32_s2_d2_bias_k0" {{.*}}ciChunk = 8, types = <tf32x3, {{.*}}>, rows = 4, wgmmaN = 24, wgmmaGroups = 1>

// CHECK: @bf16_s5_d2: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_s5_d2: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @f32_s5_d2: PASS {{.*}} unwritten 0
// CHECK: @bf16_s5_d2_n48: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f32_s2_d2_bias: PASS {{.*}} unwritten 0
// CHECK-NOT: FAIL

func.func @bf16_s5_d2(%x: tensor<1x16x3x32xbf16>, %w: tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xbf16>, tensor<16x64x3x3xbf16>) -> tensor<1x64x13x158xbf16>
  return %y : tensor<1x64x13x158xbf16>
}

func.func @f16_s5_d2(%x: tensor<1x16x3x32xf16>, %w: tensor<16x64x3x3xf16>) -> tensor<1x64x13x158xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xf16>, tensor<16x64x3x3xf16>) -> tensor<1x64x13x158xf16>
  return %y : tensor<1x64x13x158xf16>
}

func.func @f32_s5_d2(%x: tensor<1x16x3x32xf32>, %w: tensor<16x64x3x3xf32>) -> tensor<1x64x13x158xf32> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x3x32xf32>, tensor<16x64x3x3xf32>) -> tensor<1x64x13x158xf32>
  return %y : tensor<1x64x13x158xf32>
}

func.func @bf16_s5_d2_n48(%x: tensor<1x16x2x48xbf16>, %w: tensor<16x64x3x3xbf16>) -> tensor<1x64x8x238xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x2x48xbf16>, tensor<16x64x3x3xbf16>) -> tensor<1x64x8x238xbf16>
  return %y : tensor<1x64x8x238xbf16>
}

func.func @f32_s2_d2_bias(%x: tensor<1x16x9x20xf32>, %w: tensor<16x64x3x3xf32>, %b: tensor<64xf32>) -> tensor<1x64x19x41xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x16x9x20xf32>, tensor<16x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x19x41xf32>
  return %y : tensor<1x64x19x41xf32>
}
