// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-max-w=16 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --tile-max-w=16 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 --emit=gpu | FileCheck %s --check-prefix=PAIRS
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=GPU
// The half walk of the output tile (Epilogue.cpp, emitHalfChunks;
// docs/perf.md 193): bf16/f16 results whose lines start at any 2-byte
// alignment (rows of odd length: all four starts modulo 8 bytes; rows of
// 2 mod 4: two), narrower than the lane walk's 128, store the whole
// chunks of 4 positions aligned in global memory that every line has
// after its head, one 8-byte vector each, then the head and tail
// positions one by one. Where the tile's lines are even (wgmma
// accumulator runs, one row per block) a chunk's tile values are two
// 8-byte loads (rows of 18 with gelu: a cheap epilogue at W stride 1 would
// take the bulk store, half-bulk-store.mlir). --tile-max-w=16 splits the rows of 21 and 37 into W tiles:
// the last tile's shorter lines store their chunks past the end element
// by element. The simulator checks every vector access's alignment and
// that every element is written, against float64 on the same half values.

// CHECK: @bf16_odd_rows: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_odd_rows_3d: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @bf16_rows_2_mod_4: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_long_rows: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @f16_rows_of_18: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK-NOT: FAIL

// One 8-byte store per whole chunk, three chunks a thread and iteration
// (kHalfChunksPerIteration), then the rest's 2-byte stores.
// GPU-LABEL: gpu.func @bf16_odd_rows_k0(
// GPU-COUNT-3: vector.store {{.*}} {alignment = 8 : i64} : memref<2x32x11x21xbf16>, vector<4xbf16>
// GPU-NOT: vector.store {{.*}}xbf16>, vector<4xbf16>
// GPU: memref.store {{.*}} : memref<2x32x11x21xbf16>
// GPU-LABEL: gpu.func @f16_odd_rows_3d_k0(
// GPU: vector.store {{.*}} {alignment = 8 : i64} : memref<1x16x7x9x13xf16>, vector<4xf16>
// GPU: memref.store {{.*}} : memref<1x16x7x9x13xf16>
// GPU-LABEL: gpu.func @bf16_rows_2_mod_4_k0(
// GPU: vector.store {{.*}} {alignment = 8 : i64} : memref<1x32x6x10xbf16>, vector<4xbf16>
// GPU: memref.store {{.*}} : memref<1x32x6x10xbf16>
// PAIRS-LABEL: gpu.func @f16_rows_of_18_k0(
// PAIRS-COUNT-2: vector.load {{.*}} {alignment = 8 : i64} : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// PAIRS: vector.store {{.*}} {alignment = 8 : i64} : memref<2x32x6x18xf16>, vector<4xf16>
// PAIRS: memref.store {{.*}} : memref<2x32x6x18xf16>

// kb1_77's layer in 2-D (k3, s2, d2, p1: even positions structural zeros),
// bias and relu: rows of 21.
func.func @bf16_odd_rows(%x: tensor<2x16x5x10xbf16>, %w: tensor<16x32x3x3xbf16>, %b: tensor<32xbf16>) -> tensor<2x32x11x21xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<2x16x5x10xbf16>, tensor<16x32x3x3xbf16>, tensor<32xbf16>) -> tensor<2x32x11x21xbf16>
  %r = fuse.relu %y : tensor<2x32x11x21xbf16>
  return %r : tensor<2x32x11x21xbf16>
}

// The same in 3-D, f16, no bias: rows of 13.
func.func @f16_odd_rows_3d(%x: tensor<1x8x3x4x6xf16>, %w: tensor<8x16x3x3x3xf16>) -> tensor<1x16x7x9x13xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<1x8x3x4x6xf16>, tensor<8x16x3x3x3xf16>) -> tensor<1x16x7x9x13xf16>
  return %y : tensor<1x16x7x9x13xf16>
}

// Rows of 10: lines start 0 or 2 modulo 4 elements; sigmoid.
func.func @bf16_rows_2_mod_4(%x: tensor<1x16x4x8xbf16>, %w: tensor<16x32x3x3xbf16>, %b: tensor<32xbf16>) -> tensor<1x32x6x10xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x8xbf16>, tensor<16x32x3x3xbf16>, tensor<32xbf16>) -> tensor<1x32x6x10xbf16>
  %s = fuse.sigmoid %y : tensor<1x32x6x10xbf16>
  return %s : tensor<1x32x6x10xbf16>
}

// Rows of 37, relu.
func.func @f16_long_rows(%x: tensor<1x16x3x35xf16>, %w: tensor<16x16x3x3xf16>, %b: tensor<16xf16>) -> tensor<1x16x5x37xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x3x35xf16>, tensor<16x16x3x3xf16>, tensor<16xf16>) -> tensor<1x16x5x37xf16>
  %t = fuse.relu %y : tensor<1x16x5x37xf16>
  return %t : tensor<1x16x5x37xf16>
}

// Rows of 18, bias and gelu.
func.func @f16_rows_of_18(%x: tensor<2x32x4x16xf16>, %w: tensor<32x32x3x3xf16>, %b: tensor<32xf16>) -> tensor<2x32x6x18xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x4x16xf16>, tensor<32x32x3x3xf16>, tensor<32xf16>) -> tensor<2x32x6x18xf16>
  %r = fuse.gelu %y : tensor<2x32x6x18xf16>
  return %r : tensor<2x32x6x18xf16>
}
