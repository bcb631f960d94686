// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=bf16 --chip=sm_90a --device=h200 --emit=fused | FileCheck %s --check-prefix=OLD
// The generators' 64 -> 3 RGB layers (k4 s2 to 64 x 64: W phases of 32
// positions) take mma.sync tiles with positions on M where their grid is
// at least eight waves (batch 128 on the H200: 2048 blocks), in tf32 and
// under the current rules (TilePositionsM.cpp, kMinShortPhasePositions;
// docs/perf.md 317-318); at batch 16 (256 blocks), at W phases of 16
// positions (32 x 32 outputs), in bf16 and under the session-42 rules they
// keep the channels-on-M tiles.

// CHECK-LABEL: fuse.kernel "rgb64_b128_k0"
// CHECK-SAME: tileC = 3, {{.*}}rows = 4, mmaPositionsM = 1>
// CHECK-LABEL: fuse.kernel "rgb64_b16_k0"
// CHECK-SAME: tileC = 16, {{.*}}rows = 4>
// CHECK-LABEL: fuse.kernel "rgb32_b128_k0"
// CHECK-SAME: tileC = 16, {{.*}}rows = 4>
// OLD-NOT: mmaPositionsM

func.func @rgb64_b128(%x: tensor<128x64x32x32xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<128x3x64x64xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x64x32x32xf32>, tensor<64x3x4x4xf32>) -> tensor<128x3x64x64xf32>
  %t = fuse.tanh %c : tensor<128x3x64x64xf32>
  return %t : tensor<128x3x64x64xf32>
}

func.func @rgb64_b16(%x: tensor<16x64x32x32xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<16x3x64x64xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x64x32x32xf32>, tensor<64x3x4x4xf32>) -> tensor<16x3x64x64xf32>
  %t = fuse.tanh %c : tensor<16x3x64x64xf32>
  return %t : tensor<16x3x64x64xf32>
}

func.func @rgb32_b128(%x: tensor<128x64x16x16xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<128x3x32x32xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x64x16x16xf32>, tensor<64x3x4x4xf32>) -> tensor<128x3x32x32xf32>
  %t = fuse.tanh %c : tensor<128x3x32x32xf32>
  return %t : tensor<128x3x32x32xf32>
}
