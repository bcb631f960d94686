// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=4 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-cluster-k=2 --emit=fused | FileCheck %s --check-prefix=CFG
// clusterK (ClusterReduce.cpp) at its edges, found by the session 42 hunt
// of forced options (docs/reliability.md "Session 42"):
// - @ck_s3x5_*: block 0 reads its peers' fragments from the shared words
//   its own threads staged the main loop's last round in, ordered only by
//   the cluster barriers. The simulator ended its barrier interval at a
//   gpu.barrier only, so it reported a shared memory race (a false one:
//   an aligned cluster arrive / wait orders every thread of the cluster);
//   a completed cluster wait now ends it too.
// - @ck_empty_rows_bf16: rows without a valid tap (k1 s3) with a half
//   result take the direct stores of empty blocks (EmptyBlocks.cpp); every
//   block of the cluster has no round there and all of them stored the
//   tile (a global memory race, the same values). Block 0 alone stores it.
// - @ck_spatial_softmax: a softmax over the spatial dims of a clusterK
//   kernel's result. The plan had the kernel's epilogue write the
//   softmax's partial statistics, which fuse-convert-to-gpu refuses for
//   clusterK ("the pipeline rejected the graph"); the softmax now computes
//   its own (the default-option case: test/fusecc/cluster-k-stats-plan.mlir).

// CHECK: @ck_s3x5_relu: PASS
// CHECK: @ck_s3x5_relu_f32: PASS
// CHECK: @ck_empty_rows_bf16: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @ck_spatial_softmax: PASS
// CHECK-NOT: FAIL
// CFG: "ck_s3x5_relu_k0" {{.*}}clusterK = 2>
// CFG: "ck_s3x5_relu_f32_k0" {{.*}}clusterK = 2>
// CFG: "ck_empty_rows_bf16_k0" {{.*}}clusterK = 2>

func.func @ck_s3x5_relu(%x: tensor<1x64x2x29xf16>, %w: tensor<64x21x3x1xf16>) -> tensor<1x21x7x141xf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 5>, padding = array<i64: 1, 0>, output_padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x64x2x29xf16>, tensor<64x21x3x1xf16>) -> tensor<1x21x7x141xf16>
  %1 = fuse.relu %0 : tensor<1x21x7x141xf16>
  return %1 : tensor<1x21x7x141xf16>
}

func.func @ck_s3x5_relu_f32(%x: tensor<1x64x2x29xf32>, %w: tensor<64x21x3x1xf32>) -> tensor<1x21x7x141xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 5>, padding = array<i64: 1, 0>, output_padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>, groups = 1 : i64} : (tensor<1x64x2x29xf32>, tensor<64x21x3x1xf32>) -> tensor<1x21x7x141xf32>
  %1 = fuse.relu %0 : tensor<1x21x7x141xf32>
  return %1 : tensor<1x21x7x141xf32>
}

func.func @ck_empty_rows_bf16(%x: tensor<1x64x2x27xbf16>, %w: tensor<64x8x1x2xbf16>, %b: tensor<8xbf16>) -> tensor<1x8x4x27xbf16> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 1>, padding = array<i64: 0, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : (tensor<1x64x2x27xbf16>, tensor<64x8x1x2xbf16>, tensor<8xbf16>) -> tensor<1x8x4x27xbf16>
  %1 = fuse.relu %0 : tensor<1x8x4x27xbf16>
  return %1 : tensor<1x8x4x27xbf16>
}

func.func @ck_spatial_softmax(%x: tensor<1x64x3x6xf32>, %w: tensor<64x70x4x3xf32>) -> tensor<1x70x6x6xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 1>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x64x3x6xf32>, tensor<64x70x4x3xf32>) -> tensor<1x70x6x6xf32>
  %1 = fuse.reshape %0 : tensor<1x70x6x6xf32> -> tensor<1x70x36xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<1x70x36xf32>
  %3 = fuse.reshape %2 : tensor<1x70x36xf32> -> tensor<1x70x6x6xf32>
  return %3 : tensor<1x70x6x6xf32>
}
