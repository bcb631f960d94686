// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-cluster-c=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU

// kb2_91's layer on a smaller grid: a channel softmax over 128 channels on
// 129-wide rows of 64-wide inputs, input rows staged through registers
// (no re-laid-out input) with one item per thread. Checks the simulated
// numerics of three things docs/perf.md sections 84-85 introduced:
// - round q + 2's input loads issued in round q and carried around the
//   wgmma loop (raw 16-byte vectors + validity bits), stored a round later;
// - the accumulator tile's widened line stride and skewed lines;
// - the statistics pass's leftover lines (288 lines, 256 threads) shared
//   out over 8 threads each.

// CHECK: @stage: PASS rel-L2

// GPU-LABEL: gpu.func @stage_k0(
// The main loop carries two accumulator structs and one item's loads.
// GPU: scf.for %{{.*}} iter_args({{.*}}) -> (!llvm.struct<{{.*}}>, !llvm.struct<{{.*}}>, vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, i1, i1, i1, i1) {
// GPU: nvvm.wgmma.commit.group.sync.aligned
// Round q + 2's loads, under its own test, before the wgmma wait.
// GPU: %[[AHEAD:.*]]:8 = scf.if %{{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>, i1, i1, i1, i1) {
// GPU: vector.load
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: scf.yield %{{.*}}, %{{.*}}, %[[AHEAD]]#0, %[[AHEAD]]#1, %[[AHEAD]]#2, %[[AHEAD]]#3, %[[AHEAD]]#4, %[[AHEAD]]#5, %[[AHEAD]]#6, %[[AHEAD]]#7
// Statistics: the whole pass with one thread per line (a single
// iteration, folded), then the 32 leftover lines with 8 threads each (3
// shuffle rounds).
// GPU: nvvm.cluster.wait {aligned}
// GPU: %[[PART:.*]] = arith.remui %thread_id_x, %c8 : index
// GPU: scf.for %{{.*}} = %[[PART]] to %{{.*}} step %c8 iter_args
// GPU: gpu.shuffle  xor %{{.*}}, %c4_i32
// GPU: gpu.return

func.func @stage(%x: tensor<2x64x8x64xf32>, %w: tensor<64x128x4x4xf32>,
                 %cb: tensor<128xf32>) -> tensor<2x128x17x129xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<2x64x8x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>)
       -> tensor<2x128x17x129xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x128x17x129xf32>
  return %1 : tensor<2x128x17x129xf32>
}
