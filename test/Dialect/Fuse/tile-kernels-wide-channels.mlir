// Two 64-channel warpgroups of 128 channels (rows as one wgmma N, at 128 or
// more output channels; docs/perf.md 131) only where the layer's channels
// fill the 128-channel tiles (`kWideTileChannels`): at 192 the last block's
// second warpgroup would have no channel, so those blocks keep 64
// (rand37_28 bf16 0.395 -> 0.317 ms; 11 held-out kernels of 192 channels
// geomean -5%; docs/perf.md 246-247); at 256 they take 128.

// RUN: fusecc %s --precision=bf16 --chip=sm_90a --tile-wgmma=1 --emit=fused | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --precision=fp16 --chip=sm_90a --tile-wgmma=1 --emit=fused | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused | FileCheck %s --check-prefix=TF32

// HALF-LABEL: fuse.kernel "wide192_k0"
// HALF-SAME: #fuse.tile<tileW = 88, tileC = 64, threadsW = 8, threadsC = 16, {{.*}}, rows = 2, wgmmaN = 88, wgmmaGroups = 1>
// TF32-LABEL: fuse.kernel "wide192_k0"
// TF32-SAME: #fuse.tile<tileW = 88, tileC = 64, threadsW = 8, threadsC = 16, {{.*}}, rows = 2, wgmmaN = 88, wgmmaGroups = 1>
func.func @wide192(%x: tensor<1x64x8x256xf32>, %w: tensor<64x192x3x5xf32>) -> tensor<1x192x10x260xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x8x256xf32>, tensor<64x192x3x5xf32>) -> tensor<1x192x10x260xf32>
  return %0 : tensor<1x192x10x260xf32>
}

// HALF-LABEL: fuse.kernel "wide256_k0"
// HALF-SAME: #fuse.tile<tileW = 88, tileC = 128, threadsW = 8, threadsC = 32, {{.*}}, rows = 2, wgmmaN = 88, wgmmaGroups = 2>
// TF32-LABEL: fuse.kernel "wide256_k0"
// TF32-SAME: #fuse.tile<tileW = 88, tileC = 128, threadsW = 8, threadsC = 32, {{.*}}, rows = 2, wgmmaN = 88, wgmmaGroups = 2>
func.func @wide256(%x: tensor<1x64x8x256xf32>, %w: tensor<64x256x3x5xf32>) -> tensor<1x256x10x260xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x64x8x256xf32>, tensor<64x256x3x5xf32>) -> tensor<1x256x10x260xf32>
  return %0 : tensor<1x256x10x260xf32>
}
