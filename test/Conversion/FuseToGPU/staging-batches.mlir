// RUN: fusecc --precision=tf32 --emit=gpu --tile-rows=4 %s | FileCheck %s
// (4 rows a block: the tiles these checks were written for, which the
// small-grid rule of TileSmallGrid.cpp would otherwise shrink.)
// The synchronous main loop's staging issues the loads of several slots
// before their stores (emitBatchedStaging): a loop of one load and one store
// per slot waited for every load in turn. Slots in flight are bounded by the
// registers the accumulators leave (kSyncStagingRegisterBudget = 80): this
// RGB layer (mma.sync, 48 accumulator registers, one word + 2 registers per
// input slot) stages 108 input slots per thread and round in 11 batches of
// 10, the slots past the staging guarded.

// CHECK-LABEL: gpu.func @nearest_then_rgb_conv_k0(
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %c0 to %c11 step %c1 {
// CHECK-NOT:       memref.store
// CHECK-COUNT-10:  memref.load %arg0[
// CHECK-NOT:       memref.load %arg0[
// CHECK:           scf.if
// CHECK:             memref.store
func.func @nearest_then_rgb_conv(%x: tensor<1x32x6x12xf32>, %w: tensor<3x32x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x3x12x24xf32> {
  %u = fuse.upsample %x {scales = array<f64: 2.0, 2.0>} : tensor<1x32x6x12xf32> -> tensor<1x32x12x24xf32>
  %c = fuse.conv %u, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x32x12x24xf32>, tensor<3x32x3x3xf32>, tensor<3xf32>) -> tensor<1x3x12x24xf32>
  return %c : tensor<1x3x12x24xf32>
}

// A vector-staged kernel (rows a multiple of 4 long): 16-byte slots (4
// words + 2 registers each in flight); beside 32 accumulator registers its
// 10 slots per thread and round take 2 batches of 5, which cover the
// staging exactly (no guard).
// CHECK-LABEL: gpu.func @conv_rgb_k0(
// CHECK:         gpu.barrier
// CHECK:         scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK-NOT:       memref.store
// CHECK-COUNT-5:   vector.load %arg0[
// CHECK-NOT:       vector.load %arg0[
// CHECK-NOT:       scf.if
// CHECK:           memref.store
func.func @conv_rgb(%x: tensor<2x64x16x32xf32>, %w: tensor<3x64x3x3xf32>, %b: tensor<3xf32>) -> tensor<2x3x16x32xf32> {
  %c = fuse.conv %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x64x16x32xf32>, tensor<3x64x3x3xf32>, tensor<3xf32>) -> tensor<2x3x16x32xf32>
  return %c : tensor<2x3x16x32xf32>
}
