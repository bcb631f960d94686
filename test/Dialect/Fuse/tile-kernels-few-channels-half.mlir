// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: sed -e 's/xbf16>/xf32>/g' %s > %t.f32.mlir
// RUN: fusecc %t.f32.mlir --chip=sm_90a --precision=tf32 --emit=fused | FileCheck %s --check-prefix=TF32
// Session 45's rule (issue 37's bf16 held-out layers of seed 44,
// docs/perf.md 313; fewChannelsForWgmma, lib/Codegen/Tiling/TileChoice.cpp):
// a layer of at most 16 output channels with half operands takes wgmma
// from 64 products an output (two rounds of wgmma's 32 half channels);
// with fewer, and in TF32 (both paths' rounds are 16 channels there),
// mma.sync's 16-channel tiles, as under `--tile-rules=session42`.

// rand44_51's layer (64 -> 4, 14 taps at stride 2: 448 products an
// output): wgmma, 64 channels, rounds of 32.
// CHECK-LABEL: fuse.kernel "many_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 32, {{.*}}wgmmaN = 80, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "many_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// In TF32 (f32 storage) mma.sync, with positions on M.
// TF32-LABEL: fuse.kernel "many_k0"
// TF32-SAME: tileC = 4, {{.*}}mmaWarpsC = 1, {{.*}}mmaPositionsM = 1>
func.func @many(%x: tensor<2x64x1048576xbf16>, %w: tensor<64x4x14xbf16>) -> tensor<2x4x2097158xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 3>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x64x1048576xbf16>, tensor<64x4x14xbf16>) -> tensor<2x4x2097158xbf16>
  return %0 : tensor<2x4x2097158xbf16>
}

// 48 -> 4, 2 taps at stride 2 (48 products an output): mma.sync.
// CHECK-LABEL: fuse.kernel "few_k0"
// CHECK-SAME: tileC = 16, {{.*}}ciChunk = 16, {{.*}}mmaWarpsC = 1
// OLD-LABEL: fuse.kernel "few_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @few(%x: tensor<2x48x1048576xbf16>, %w: tensor<48x4x2xbf16>) -> tensor<2x4x2097152xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x48x1048576xbf16>, tensor<48x4x2xbf16>) -> tensor<2x4x2097152xbf16>
  return %0 : tensor<2x4x2097152xbf16>
}
