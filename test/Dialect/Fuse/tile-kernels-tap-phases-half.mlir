// RUN: fusecc %s --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: sed -e 's/xbf16>/xf32>/g' %s > %t.f32.mlir
// RUN: fusecc %t.f32.mlir --chip=sm_90a --precision=tf32 --emit=fused | FileCheck %s --check-prefix=TF32
// Session 45's rule (issue 37's bf16 held-out layers of seed 44,
// docs/perf.md 313; withTapPhasesN, lib/Codegen/Tiling/TileChoice.cpp): a
// wgmma tile of half operands holding one row in one warpgroup, at a W
// stride some of whose phases have no tap, takes the longer N that counts
// only the phases with a tap (as `--tile-rows=1` does): the same
// accumulator registers, twice the positions per staged weight. TF32
// operands and `--tile-rules=session42` keep N of every phase.

// rand44_42's layer (512 -> 192, 10 taps at stride 4, dilation 2: taps in
// 2 of the 4 W phases): N 40 -> 80.
// CHECK-LABEL: fuse.kernel "dilated_k0"
// CHECK-SAME: tileW = 320, tileC = 64, {{.*}}wgmmaN = 80, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "dilated_k0"
// OLD-SAME: tileW = 160, tileC = 64, {{.*}}wgmmaN = 40, wgmmaGroups = 1>
// TF32-LABEL: fuse.kernel "dilated_k0"
// TF32-SAME: wgmmaN = 40
func.func @dilated(%x: tensor<1x512x20480xbf16>, %w: tensor<512x192x10xbf16>) -> tensor<1x192x81901xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 4>, padding = array<i64: 17>, output_padding = array<i64: 0>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<1x512x20480xbf16>, tensor<512x192x10xbf16>) -> tensor<1x192x81901xbf16>
  return %0 : tensor<1x192x81901xbf16>
}

// The same layer undilated (taps in every phase): N 40.
// CHECK-LABEL: fuse.kernel "dense_k0"
// CHECK-SAME: tileW = 160, tileC = 64, {{.*}}wgmmaN = 40, wgmmaGroups = 1>
func.func @dense(%x: tensor<1x512x20480xbf16>, %w: tensor<512x192x10xbf16>) -> tensor<1x192x81901xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 4>, padding = array<i64: 13>, output_padding = array<i64: 1>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<1x512x20480xbf16>, tensor<512x192x10xbf16>) -> tensor<1x192x81901xbf16>
  return %0 : tensor<1x192x81901xbf16>
}
