// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-positions-m=-1 --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-positions-m=-1 --emit=fused | FileCheck %s --check-prefix=SPLIT
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=PM
// With positions on M allowed (the default, docs/perf.md 192) the layer
// with a prologue keeps wgmma and the DCGAN layer (32 positions a phase)
// mma.sync's channels-on-M tiles.
// PM-LABEL: fuse.kernel "rgb_after_upsample_k0"
// PM-SAME: tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 1>
// PM-LABEL: fuse.kernel "rgb_layer_k0"
// PM-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// Layers of at most 16 output channels (fewChannelsForWgmma): mma.sync by
// default (tile-kernels-wgmma.mlir's rgb_layer), unless the kernel stages
// its input through a prologue: no input re-layout on either path, and the
// wgmma main loop loads a round ahead (docs/perf.md 171: vae_decoder's RGB
// layer 0.160 ms on wgmma against 0.327 on mma.sync, H200). Split-operand
// (ieee) kernels keep mma.sync.

// The nearest upsample of vae_decoder's conv_out, folded into the staging.
// CHECK-LABEL: fuse.kernel "rgb_after_upsample_k0"
// CHECK-SAME: tileC = 64, {{.*}}wgmmaN = 64, wgmmaGroups = 1>
// CHECK: fuse.prologue = "upsample folded into input staging
// SPLIT-LABEL: fuse.kernel "rgb_after_upsample_k0"
// SPLIT-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @rgb_after_upsample(%x: tensor<8x128x64x64xf32>, %w: tensor<3x128x3x3xf32>, %b: tensor<3xf32>) -> tensor<8x3x128x128xf32> {
  %u = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<8x128x64x64xf32> -> tensor<8x128x128x128xf32>
  %0 = fuse.conv %u, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<8x128x128x128xf32>, tensor<3x128x3x3xf32>, tensor<3xf32>) -> tensor<8x3x128x128xf32>
  return %0 : tensor<8x3x128x128xf32>
}

// Without a prologue (a DCGAN generator's RGB layer): mma.sync.
// CHECK-LABEL: fuse.kernel "rgb_layer_k0"
// CHECK-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @rgb_layer(%x: tensor<64x64x32x32xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<64x64x32x32xf32>, tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32>
  %1 = fuse.tanh %0 : tensor<64x3x64x64xf32>
  return %1 : tensor<64x3x64x64xf32>
}
