// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: sed -e 's/xbf16>/xf32>/g' %s > %t.f32.mlir
// RUN: fusecc %t.f32.mlir --chip=sm_90a --precision=tf32 --emit=fused | FileCheck %s --check-prefix=TF32
// Session 45's rule (issue 37's bf16 held-out layers, docs/perf.md 313-316;
// fewChannelsForWgmma, lib/Codegen/Tiling/TileChoice.cpp): a layer of at
// most 16 output channels with half operands and at least 128 input
// channels takes wgmma from 64 products an output (two rounds of wgmma's
// 32 half channels); with fewer inputs or products, and in TF32 (both
// paths' rounds are 16 channels there), mma.sync's 16-channel tiles, as
// under `--tile-rules=session42`.

// rand37_88's layer (192 -> 4, 10 taps at stride 2: 960 products an
// output): wgmma, 64 channels, rounds of 32.
// CHECK-LABEL: fuse.kernel "wide_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 32, {{.*}}wgmmaN = 80, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "wide_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// In TF32 (f32 storage) mma.sync, with positions on M.
// TF32-LABEL: fuse.kernel "wide_k0"
// TF32-SAME: tileC = 4, {{.*}}mmaWarpsC = 1, {{.*}}mmaPositionsM = 1>
func.func @wide(%x: tensor<2x192x1048576xbf16>, %w: tensor<192x4x10xbf16>) -> tensor<2x4x2097154xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 3>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x192x1048576xbf16>, tensor<192x4x10xbf16>) -> tensor<2x4x2097154xbf16>
  return %0 : tensor<2x4x2097154xbf16>
}

// rand44_51's layer (64 -> 4, 448 products an output): fewer than 128
// input channels, mma.sync.
// CHECK-LABEL: fuse.kernel "many_k0"
// CHECK-SAME: tileC = 16, {{.*}}ciChunk = 16, {{.*}}mmaWarpsC = 1
func.func @many(%x: tensor<2x64x1048576xbf16>, %w: tensor<64x4x14xbf16>) -> tensor<2x4x2097158xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 3>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x64x1048576xbf16>, tensor<64x4x14xbf16>) -> tensor<2x4x2097158xbf16>
  return %0 : tensor<2x4x2097158xbf16>
}

// 256 -> 4, 1 tap at stride 8 (32 products an output): mma.sync.
// CHECK-LABEL: fuse.kernel "few_k0"
// CHECK-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// OLD-LABEL: fuse.kernel "few_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @few(%x: tensor<2x256x1048576xbf16>, %w: tensor<256x4x1xbf16>) -> tensor<2x4x8388601xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x256x1048576xbf16>, tensor<256x4x1xbf16>) -> tensor<2x4x8388601xbf16>
  return %0 : tensor<2x4x8388601xbf16>
}
