// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=2 --tile-wgmma-split=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-samples=2 --tile-wgmma-split=2 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-samples=4 --tile-wgmma-split=4 --tile-cluster-k=2 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-samples=4 --tile-wgmma-split=2 --tile-c=128 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-samples=2 --tile-wgmma-split=2 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-samples=4 --tile-wgmma-split=4 --tile-cluster-k=2 --emit=fused | FileCheck %s --check-prefix=CFG4
// Blocks of samples whose rows are split over warpgroups
// (TileConfigAttr::samples with wgmmaGroups = tileC / 64 x split): each
// warpgroup of a channel group takes rows / split consecutive rows (whole
// samples here) as its wgmma N and all warpgroups read the one staged
// weight slice. Batches of 3 and 5 leave the last block's samples (and
// with them whole warpgroups' rows) past the batch. Epilogues: an eval
// batch_norm + relu, a bias + residual add of a per-sample tensor + tanh;
// with the reduction split over a cluster too (clusterK = 2), and with two
// channel groups of two row-split warpgroups each (tileC = 128).

// CHECK: @ss_bn_relu: PASS
// CHECK: @ss_residual: PASS
// CHECK-NOT: FAIL
// HALF: @ss_bn_relu: PASS {{.*}}-operands
// HALF: @ss_residual: PASS {{.*}}-operands
// HALF-NOT: FAIL

// CFG: fuse.kernel "ss_bn_relu_k0" {{.*}}rows = 16, {{.*}}wgmmaGroups = 2, samples = 2>
// CFG: fuse.kernel "ss_residual_k0" {{.*}}rows = 6, {{.*}}wgmmaGroups = 2, samples = 2>
// CFG4: fuse.kernel "ss_bn_relu_k0" {{.*}}rows = 32, {{.*}}wgmmaGroups = 4, samples = 4, clusterK = 2>

func.func @ss_bn_relu(%x: tensor<5x128x8x6xf32>, %w: tensor<128x64x4x4xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>, %g: tensor<64xf32>, %be: tensor<64xf32>) -> tensor<5x64x16x12xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<5x128x8x6xf32>, tensor<128x64x4x4xf32>) -> tensor<5x64x16x12xf32>
  %n = fuse.batch_norm %c, %m, %v weight(%g) bias(%be) {epsilon = 1.0e-05 : f64} : (tensor<5x64x16x12xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<5x64x16x12xf32>
  %r = fuse.relu %n : tensor<5x64x16x12xf32>
  return %r : tensor<5x64x16x12xf32>
}

func.func @ss_residual(%x: tensor<3x64x3x3xf32>, %w: tensor<64x128x4x4xf32>, %b: tensor<128xf32>, %res: tensor<3x128x6x6xf32>) -> tensor<3x128x6x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x64x3x3xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>) -> tensor<3x128x6x6xf32>
  %a = fuse.add %c, %res : tensor<3x128x6x6xf32>, tensor<3x128x6x6xf32> -> tensor<3x128x6x6xf32>
  %t = fuse.tanh %a : tensor<3x128x6x6xf32>
  return %t : tensor<3x128x6x6xf32>
}
