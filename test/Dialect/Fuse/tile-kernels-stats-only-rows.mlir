// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session42 --emit=fused | FileCheck %s --check-prefix=OLD
// Session 44's rule (issue 37's pool_reduce layers of seeds 43 and 44,
// docs/perf.md 296; withSplitRows, lib/Codegen/Tiling/TileChoice.cpp): a
// convolution whose output only a set reduction reads (planned stats-only)
// takes two warpgroups of one row each where its wgmma tile holds one row
// in one warpgroup. `--tile-rules=session42` keeps one row; a layer whose
// output is stored keeps one row too.

// rand44_5's layer (16 -> 384, 2x2 at stride 2, then a global amax).
// CHECK-LABEL: fuse.kernel "stats_k0"
// CHECK-SAME: tileC = 64, threadsW = 8, threadsC = 32, {{.*}}rows = 2, wgmmaN = 64, wgmmaGroups = 2>
// OLD-LABEL: fuse.kernel "stats_k0"
// OLD-SAME: tileC = 64, threadsW = 8, threadsC = 16, {{.*}}wgmmaN = 64, wgmmaGroups = 1>
func.func @stats(%x: tensor<128x16x64x64xf32>, %w: tensor<16x384x2x2xf32>, %b: tensor<384xf32>) -> tensor<128x384xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x16x64x64xf32>, tensor<16x384x2x2xf32>, tensor<384xf32>) -> tensor<128x384x128x128xf32>
  %1 = fuse.amax %0 {dims = array<i64: 2, 3>, keepdim = false} : tensor<128x384x128x128xf32> -> tensor<128x384xf32>
  return %1 : tensor<128x384xf32>
}

// The same layer with its output stored: one row in one warpgroup.
// CHECK-LABEL: fuse.kernel "stored_k0"
// CHECK-SAME: tileC = 64, threadsW = 8, threadsC = 16, {{.*}}wgmmaN = 64, wgmmaGroups = 1>
func.func @stored(%x: tensor<128x16x64x64xf32>, %w: tensor<16x384x2x2xf32>, %b: tensor<384xf32>) -> tensor<128x384x128x128xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x16x64x64xf32>, tensor<16x384x2x2xf32>, tensor<384xf32>) -> tensor<128x384x128x128xf32>
  return %0 : tensor<128x384x128x128xf32>
}
