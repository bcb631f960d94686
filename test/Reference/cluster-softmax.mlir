// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --epilogue-math=exact %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=2 --tile-merge-h=0 --tile-rows=2 --tile-wgmma-split=2 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=4 %s | FileCheck %s
// Split operands (ieee, tf32x3) at the ieee bar: the 256-channel softmax
// on wgmma, the others on mma.sync (half the wgmma accumulators fit no
// row of their 72-position phases).
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused %s | FileCheck %s --check-prefix=FUSED
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=ptx %s | FileCheck %s --check-prefix=PTX
// Channel softmaxes split over thread block clusters run in the CPU
// simulator (the blocks of a cluster concurrently, cluster barriers,
// distributed shared memory stores checked for ordering) against the
// float64 reference: rows of 129 positions (one row per all-channel block,
// so the cost model splits the channels over a 2-block cluster of two-row
// blocks), 100 channels (the second block holds 36), kb2_91's whole chain,
// and 256 channels (4-block clusters with --tile-cluster-c=4; the other
// kernels fall back to mma.sync there). Outputs are the softmax itself or
// a scaled copy, so that a wrong statistic shows (sigmoid(softmax + bias)
// hides most of it).

// CHECK: @cl_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @cl_ragged: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @cl_kb2_91: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @cl_c256: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

// FUSED-LABEL: fuse.kernel "cl_wide_k0"
// FUSED-SAME: tileC = 64, {{.*}}rows = 2, mergeHTaps = 1, wgmmaN = 72, wgmmaGroups = 2, clusterC = 2>
// FUSED-LABEL: fuse.kernel "cl_ragged_k0"
// FUSED-SAME: tileC = 64, {{.*}}clusterC = 2>

// Each block pushes its partial max and sum into slot `rank` of every
// block (itself included), then one cluster barrier; the blocks read only
// their own shared memory afterwards.
// GPU-LABEL: gpu.func @cl_wide_k0(
// GPU-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// GPU: %[[LOCAL:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// GPU: %[[REMOTE:.*]] = nvvm.mapa %[[LOCAL]], %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
// GPU: llvm.store %{{.*}}, %[[REMOTE]] : f32, !llvm.ptr<7>
// GPU: nvvm.cluster.arrive {aligned}
// GPU-NEXT: nvvm.cluster.wait {aligned}
// GPU-NOT: nvvm.mapa
// GPU: gpu.return

// PTX-LABEL: .entry cl_wide_k0(
// PTX: .reqnctapercluster 2, 1, 1
// PTX: mapa.shared::cluster.u64
// PTX: st.shared::cluster.b32
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;

func.func @cl_wide(%x0: tensor<1x8x3x64xf32>, %w1: tensor<8x128x4x4xf32>, %b2: tensor<128xf32>) -> tensor<1x128x7x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x3x64xf32>, tensor<8x128x4x4xf32>, tensor<128xf32>) -> tensor<1x128x7x129xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x128x7x129xf32>
  return %v1 : tensor<1x128x7x129xf32>
}

func.func @cl_ragged(%x0: tensor<2x4x2x64xf32>, %w1: tensor<4x100x4x4xf32>) -> tensor<2x100x5x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x2x64xf32>, tensor<4x100x4x4xf32>) -> tensor<2x100x5x129xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<2x100x5x129xf32>
  %c = arith.constant dense<3.0> : tensor<f32>
  %v2 = fuse.mul %v1, %c : tensor<2x100x5x129xf32>, tensor<f32> -> tensor<2x100x5x129xf32>
  return %v2 : tensor<2x100x5x129xf32>
}

func.func @cl_kb2_91(%x0: tensor<1x16x2x64xf32>, %w1: tensor<16x128x4x4xf32>, %b2: tensor<128xf32>, %bias3: tensor<128x1x1xf32>) -> tensor<1x128x5x129xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x2x64xf32>, tensor<16x128x4x4xf32>, tensor<128xf32>) -> tensor<1x128x5x129xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x128x5x129xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<1x128x5x129xf32>, tensor<128x1x1xf32> -> tensor<1x128x5x129xf32>
  %c = arith.constant dense<2.0> : tensor<f32>
  %v3 = fuse.mul %v2, %c : tensor<1x128x5x129xf32>, tensor<f32> -> tensor<1x128x5x129xf32>
  %v4 = fuse.sigmoid %v3 : tensor<1x128x5x129xf32>
  return %v4 : tensor<1x128x5x129xf32>
}

func.func @cl_c256(%x0: tensor<1x8x2x6xf32>, %w1: tensor<8x256x3x3xf32>) -> tensor<1x256x5x13xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x2x6xf32>, tensor<8x256x3x3xf32>) -> tensor<1x256x5x13xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x256x5x13xf32>
  return %v1 : tensor<1x256x5x13xf32>
}
