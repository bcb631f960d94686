// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=4 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-cluster-k=2 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-cluster-k=4 | FileCheck %s --check-prefix=HALF
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 --tile-cluster-k=4 --tile-samples=-1 | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=4 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=4 --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --emit=fused | FileCheck %s --check-prefix=NONE
// wgmma tiles whose reduction is split over a thread block cluster
// (TileConfigAttr::clusterK): the K blocks of a cluster compute one tile
// over disjoint ranges of its rounds (input-channel chunks and h taps),
// blocks 1 .. K - 1 store their accumulators into block 0's shared memory
// and block 0 adds them in rank order and runs the epilogue alone.
// Checked against float64 with an eval batch_norm + relu (one sample's
// phase a block, and blocks of rows), a conv bias + residual add + tanh at
// stride 1, a heatmap-like k4 s2 layer; a softmax keeps its tile
// (reductions are not split) and the cost model leaves these small layers
// alone.

// CHECK: @k_bn_relu: PASS
// CHECK: @k_residual: PASS
// CHECK: @k_heatmap_like: PASS
// CHECK: @k_softmax: PASS
// CHECK-NOT: FAIL
// HALF: @k_bn_relu: PASS {{.*}}-operands
// HALF: @k_residual: PASS {{.*}}-operands
// HALF: @k_heatmap_like: PASS {{.*}}-operands
// HALF: @k_softmax: PASS {{.*}}-operands
// HALF-NOT: FAIL

// CFG: fuse.kernel "k_bn_relu_k0" {{.*}}clusterK = 4>
// CFG: fuse.kernel "k_residual_k0" {{.*}}clusterK = 4>
// CFG: fuse.kernel "k_heatmap_like_k0" {{.*}}clusterK = 4>
// CFG-NOT: "k_softmax_k0" {{.*}}clusterK
// GPU: gpu.func @k_bn_relu_k0{{.*}}nvvm.cluster_dim = array<i32: 4, 1, 1>
// GPU: nvvm.cluster.arrive
// GPU: nvvm.mapa
// NONE-NOT: clusterK

func.func @k_bn_relu(%x: tensor<3x256x4x4xf32>, %w: tensor<256x64x4x4xf32>, %m: tensor<64xf32>, %v: tensor<64xf32>, %g: tensor<64xf32>, %be: tensor<64xf32>) -> tensor<3x64x8x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x256x4x4xf32>, tensor<256x64x4x4xf32>) -> tensor<3x64x8x8xf32>
  %n = fuse.batch_norm %c, %m, %v weight(%g) bias(%be) {epsilon = 1.0e-05 : f64} : (tensor<3x64x8x8xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<3x64x8x8xf32>
  %r = fuse.relu %n : tensor<3x64x8x8xf32>
  return %r : tensor<3x64x8x8xf32>
}

func.func @k_residual(%x: tensor<2x128x4x8xf32>, %w: tensor<128x128x3x3xf32>, %b: tensor<128xf32>, %res: tensor<2x128x4x8xf32>) -> tensor<2x128x4x8xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x128x4x8xf32>, tensor<128x128x3x3xf32>, tensor<128xf32>) -> tensor<2x128x4x8xf32>
  %a = fuse.add %c, %res : tensor<2x128x4x8xf32>, tensor<2x128x4x8xf32> -> tensor<2x128x4x8xf32>
  %t = fuse.tanh %a : tensor<2x128x4x8xf32>
  return %t : tensor<2x128x4x8xf32>
}

func.func @k_heatmap_like(%x: tensor<2x256x4x3xf32>, %w: tensor<256x64x4x4xf32>, %b: tensor<64xf32>) -> tensor<2x64x8x6xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x256x4x3xf32>, tensor<256x64x4x4xf32>, tensor<64xf32>) -> tensor<2x64x8x6xf32>
  %r = fuse.relu %c : tensor<2x64x8x6xf32>
  return %r : tensor<2x64x8x6xf32>
}

func.func @k_softmax(%x: tensor<2x128x4x4xf32>, %w: tensor<128x64x4x4xf32>) -> tensor<2x64x8x8xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x128x4x4xf32>, tensor<128x64x4x4xf32>) -> tensor<2x64x8x8xf32>
  %s = fuse.softmax %c {dim = 1 : i64} : tensor<2x64x8x8xf32>
  return %s : tensor<2x64x8x8xf32>
}
