// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=plan | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 -o %t.fcb
//
// With default options the cost model splits the reduction of
// heatmap_head's 2048 -> 256 layer over a cluster (clusterK = 2,
// docs/design/tiling.md). Read by a softmax over the spatial dims, the plan
// also had that kernel's epilogue write the softmax's partial statistics,
// which a clusterK tile does not do: fuse-convert-to-gpu refused the graph
// ("tile config has clusterK = 2 but the kernel writes partial
// statistics"; found by the session 42 hunt, docs/reliability.md). A
// clusterK producer is no epilogue-statistics candidate now: the softmax
// computes its own statistics. (fusecc-check of the same pattern at a
// small size, forced: test/Reference/cluster-k-edges.mlir.)

// CFG: "hm_softmax_k0" {{.*}}clusterK = 2>
// CHECK-LABEL: plan @hm_softmax: 2 kernels
// CHECK: step 1 hm_softmax_k1 (normalization: softmax, 8192 sets of 192, one warp per set)
// CHECK-NOT: partial statistics

func.func @hm_softmax(%x: tensor<32x2048x8x6xf32>, %w: tensor<2048x256x4x4xf32>) -> tensor<32x256x16x12xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x2048x8x6xf32>, tensor<2048x256x4x4xf32>) -> tensor<32x256x16x12xf32>
  %1 = fuse.reshape %0 : tensor<32x256x16x12xf32> -> tensor<32x256x192xf32>
  %2 = fuse.softmax %1 {dim = 2 : i64} : tensor<32x256x192xf32>
  %3 = fuse.reshape %2 : tensor<32x256x192xf32> -> tensor<32x256x16x12xf32>
  return %3 : tensor<32x256x16x12xf32>
}
