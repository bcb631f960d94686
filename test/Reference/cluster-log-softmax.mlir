// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --epilogue-math=exact %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=2 --tile-merge-h=0 --tile-rows=2 --tile-wgmma-split=2 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=4 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused %s | FileCheck %s --check-prefix=FUSED
// Channel log_softmaxes whose channels a thread block cluster splits (as
// cluster-softmax.mlir's softmaxes), in the simulator against the float64
// reference: each block keeps x - its own max in its tile and subtracts
// (cluster max - own max) + log(cluster sum). Rows of 129 positions (the
// cost model's 2-block cluster), 100 channels (the second block holds 36),
// 256 channels (4-block clusters with --tile-cluster-c=4), and sets where
// a whole block's channels are -inf (log(relu(q)) broadcast over each
// 64-channel block): that block's partial is (-inf, 0), not a NaN sum, so
// the set stays finite where another block has a finite max (its -inf
// elements stay -inf), and is NaN where every block is -inf, as in
// PyTorch. The softmax twin of that case checks the same partials for
// softmax (zeros, not NaN; a block's sum taken about its own -inf max was
// NaN and made the whole set NaN before the exp shift, `emitExpShift`).

// CHECK: @lcl_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @lcl_ragged: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @lcl_c256: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @lcl_block_ninf: PASS
// CHECK: @cl_softmax_block_ninf: PASS
// CHECK-NOT: FAIL

// FUSED-LABEL: fuse.kernel "lcl_wide_k0"
// FUSED-SAME: tileC = 64, {{.*}}rows = 2, mergeHTaps = 1, wgmmaN = 72, wgmmaGroups = 2, clusterC = 2>
// FUSED: fuse.log_softmax
// FUSED-LABEL: fuse.kernel "lcl_ragged_k0"
// FUSED-SAME: clusterC = 2>
// FUSED-LABEL: fuse.kernel "lcl_block_ninf_k0"
// FUSED-SAME: clusterC = 2>

func.func @lcl_wide(%x0: tensor<1x8x3x64xf32>, %w1: tensor<8x128x4x4xf32>, %b2: tensor<128xf32>) -> tensor<1x128x7x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x3x64xf32>, tensor<8x128x4x4xf32>, tensor<128xf32>) -> tensor<1x128x7x129xf32>
  %v1 = fuse.log_softmax %v0 {dim = 1 : i64} : tensor<1x128x7x129xf32>
  return %v1 : tensor<1x128x7x129xf32>
}

func.func @lcl_ragged(%x0: tensor<2x4x2x64xf32>, %w1: tensor<4x100x4x4xf32>) -> tensor<2x100x5x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x4x2x64xf32>, tensor<4x100x4x4xf32>) -> tensor<2x100x5x129xf32>
  %v1 = fuse.log_softmax %v0 {dim = 1 : i64} : tensor<2x100x5x129xf32>
  %c = arith.constant dense<3.0> : tensor<f32>
  %v2 = fuse.mul %v1, %c : tensor<2x100x5x129xf32>, tensor<f32> -> tensor<2x100x5x129xf32>
  return %v2 : tensor<2x100x5x129xf32>
}

func.func @lcl_c256(%x0: tensor<1x8x2x6xf32>, %w1: tensor<8x256x3x3xf32>) -> tensor<1x256x5x13xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x8x2x6xf32>, tensor<8x256x3x3xf32>) -> tensor<1x256x5x13xf32>
  %v1 = fuse.log_softmax %v0 {dim = 1 : i64} : tensor<1x256x5x13xf32>
  return %v1 : tensor<1x256x5x13xf32>
}

// -inf over all 64 channels of block j at the positions where q[j] < 0
// (0 * z gives the 64 channels; log(relu(u)) adds -inf elements).
func.func @lcl_block_ninf(%x0: tensor<1x8x3x64xf32>, %w1: tensor<8x128x4x4xf32>, %q: tensor<1x2x1x7x129xf32>, %z: tensor<1x2x64x7x129xf32>, %u: tensor<1x128x7x129xf32>) -> tensor<1x128x7x129xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %rq = fuse.relu %q : tensor<1x2x1x7x129xf32>
  %lq = fuse.log %rq : tensor<1x2x1x7x129xf32>
  %z0 = fuse.mul %z, %zero : tensor<1x2x64x7x129xf32>, tensor<f32> -> tensor<1x2x64x7x129xf32>
  %m = fuse.add %z0, %lq : tensor<1x2x64x7x129xf32>, tensor<1x2x1x7x129xf32> -> tensor<1x2x64x7x129xf32>
  %mask = fuse.reshape %m : tensor<1x2x64x7x129xf32> -> tensor<1x128x7x129xf32>
  %ru = fuse.relu %u : tensor<1x128x7x129xf32>
  %lu = fuse.log %ru : tensor<1x128x7x129xf32>
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x3x64xf32>, tensor<8x128x4x4xf32>) -> tensor<1x128x7x129xf32>
  %v1 = fuse.add %v0, %mask : tensor<1x128x7x129xf32>, tensor<1x128x7x129xf32> -> tensor<1x128x7x129xf32>
  %v2 = fuse.add %v1, %lu : tensor<1x128x7x129xf32>, tensor<1x128x7x129xf32> -> tensor<1x128x7x129xf32>
  %v3 = fuse.log_softmax %v2 {dim = 1 : i64} : tensor<1x128x7x129xf32>
  return %v3 : tensor<1x128x7x129xf32>
}

func.func @cl_softmax_block_ninf(%x0: tensor<1x8x3x64xf32>, %w1: tensor<8x128x4x4xf32>, %q: tensor<1x2x1x7x129xf32>, %z: tensor<1x2x64x7x129xf32>) -> tensor<1x128x7x129xf32> {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %rq = fuse.relu %q : tensor<1x2x1x7x129xf32>
  %lq = fuse.log %rq : tensor<1x2x1x7x129xf32>
  %z0 = fuse.mul %z, %zero : tensor<1x2x64x7x129xf32>, tensor<f32> -> tensor<1x2x64x7x129xf32>
  %m = fuse.add %z0, %lq : tensor<1x2x64x7x129xf32>, tensor<1x2x1x7x129xf32> -> tensor<1x2x64x7x129xf32>
  %mask = fuse.reshape %m : tensor<1x2x64x7x129xf32> -> tensor<1x128x7x129xf32>
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x3x64xf32>, tensor<8x128x4x4xf32>) -> tensor<1x128x7x129xf32>
  %v1 = fuse.add %v0, %mask : tensor<1x128x7x129xf32>, tensor<1x128x7x129xf32> -> tensor<1x128x7x129xf32>
  %v2 = fuse.softmax %v1 {dim = 1 : i64} : tensor<1x128x7x129xf32>
  return %v2 : tensor<1x128x7x129xf32>
}
