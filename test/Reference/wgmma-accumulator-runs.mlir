// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
//
// wgmma accumulators stored to the tile as runs of 2 x W-stride positions
// (one st.shared.v4 at W stride 2, .v2 at 1) and the lane epilogue of
// even-width rows reading and writing pairs of positions (ld.shared.v2,
// st.global.v2); odd widths keep scalar epilogue accesses. Simulated
// against the CPU reference in both modes.

// CHECK-DAG: @runs_s2: PASS
// CHECK-DAG: @runs_s1: PASS
// CHECK-DAG: @runs_odd: PASS
// CHECK-DAG: @runs_ragged: PASS

// GPU-LABEL: gpu.func @runs_s2_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: vector.store {{.*}}, %view[{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GPU: vector.load %view[{{.*}}] {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// GPU: vector.store {{.*}} {alignment = 8 : i64} : memref<2x16x8x130xf32>, vector<2xf32>
// GPU-LABEL: gpu.func @runs_s1_k0(
// GPU: vector.store {{.*}}, %view[{{.*}}] {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// GPU: memref.store {{.*}} : memref<2x70x130xf32>
// GPU-LABEL: gpu.func @runs_odd_k0(
// GPU: vector.store {{.*}}, %view[{{.*}}] {alignment = 16 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// GPU-NOT: vector<2xf32>
// GPU: gpu.return

// The shape of kb2_93 (k 4, stride 2, rows of 130: 2 x 64 pairs + 2).
func.func @runs_s2(%x: tensor<2x8x3x64xf32>, %w: tensor<8x16x4x4xf32>, %b: tensor<16xf32>) -> tensor<2x16x8x130xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x3x64xf32>, tensor<8x16x4x4xf32>, tensor<16xf32>) -> tensor<2x16x8x130xf32>
  %1 = arith.constant dense<0.5> : tensor<f32>
  %2 = fuse.add %0, %1 : tensor<2x16x8x130xf32>, tensor<f32> -> tensor<2x16x8x130xf32>
  %3 = fuse.gelu %2 : tensor<2x16x8x130xf32>
  return %3 : tensor<2x16x8x130xf32>
}

// -----

// W stride 1, 1-D (one row a block), 70 channels (a second, partial
// channel tile); its 72-wide tiles take the quad walk (scalar stores of
// rows that are not multiples of 4).
func.func @runs_s1(%x: tensor<2x8x127xf32>, %w: tensor<8x70x4xf32>, %b: tensor<70xf32>) -> tensor<2x70x130xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x8x127xf32>, tensor<8x70x4xf32>, tensor<70xf32>) -> tensor<2x70x130xf32>
  %1 = fuse.tanh %0 : tensor<2x70x130xf32>
  return %1 : tensor<2x70x130xf32>
}

// -----

// Odd rows (131, k 5: both W phases 72 wide): accumulator runs, scalar
// epilogue.
func.func @runs_odd(%x: tensor<1x4x2x64xf32>, %w: tensor<4x16x3x5xf32>, %b: tensor<16xf32>) -> tensor<1x16x5x131xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x2x64xf32>, tensor<4x16x3x5xf32>, tensor<16xf32>) -> tensor<1x16x5x131xf32>
  %1 = fuse.sigmoid %0 : tensor<1x16x5x131xf32>
  return %1 : tensor<1x16x5x131xf32>
}

// -----

// Rows of 262 split over tiles (the last one partial): pairs up to each
// tile's end, the rest element by element.
func.func @runs_ragged(%x: tensor<1x4x1x130xf32>, %w: tensor<4x8x2x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x2x262xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x1x130xf32>, tensor<4x8x2x4xf32>, tensor<8xf32>) -> tensor<1x8x2x262xf32>
  %1 = fuse.relu %0 : tensor<1x8x2x262xf32>
  return %1 : tensor<1x8x2x262xf32>
}
