// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-max-w=16 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-max-w=24 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=GPU
// A half result (bf16 / f16) stored by bulk copies (BulkStore.cpp,
// docs/perf.md 198): at W stride 1, where its lines start at even
// elements, each thread packs its accumulator runs' pairs of positions
// into words of a tile of halves (each line at its global offset modulo
// 8 elements), the pairs of a line's head and tail (before its first and
// after its last 16-byte boundary) also straight to global memory, and
// one thread per line copies the 16-byte aligned middle with
// nvvm.cp.async.bulk.global.shared.cta. Rows of 8 k (no head or tail), 2
// mod 4 (lines 4 bytes off in every other row), 4 mod 8, 3-D (1-D keeps
// the walk), channels that fill no 64-channel group, bias and relu; one
// and two rows and W tiles of 16 and 24 (a last tile cut short). The
// simulator copies each word as its two halves and checks every element
// written, against float64 on the same half values.

// CHECK: @bf16_w32: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_w34_bias_relu: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @bf16_w36_48ch: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @f16_1d: PASS {{.*}} unwritten 0 {{.*}} storage f16
// CHECK: @bf16_3d: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK: @bf16_odd_walk: PASS {{.*}} unwritten 0 {{.*}} storage bf16
// CHECK-NOT: FAIL

// GPU-LABEL: gpu.func @bf16_w32_k0(
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: gpu.barrier
// GPU: memref.store {{.*}}, %view[{{.*}}] : memref<{{[0-9]+}}xf32, #gpu.address_space<workgroup>>
// GPU: vector.store {{.*}} {alignment = 4 : i64} : memref<2x64x8x32xbf16>, vector<2xbf16>
// GPU: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// GPU-NEXT: gpu.barrier
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU: nvvm.cp.async.bulk.commit.group
// GPU-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// GPU-NEXT: gpu.return
// GPU-LABEL: gpu.func @f16_w34_bias_relu_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// GPU-LABEL: gpu.func @bf16_w36_48ch_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// 1-D outputs keep the tile walk (slower by bulk copies: kb1_64, kb1_74).
// GPU-LABEL: gpu.func @f16_1d_k0(
// GPU-NOT: nvvm.cp.async.bulk.global.shared.cta
// GPU: gpu.return
// GPU-LABEL: gpu.func @bf16_3d_k0(
// GPU: nvvm.cp.async.bulk.global.shared.cta
// Rows of odd length: lines start at any 2-byte alignment, the tile walk.
// GPU-LABEL: gpu.func @bf16_odd_walk_k0(
// GPU-NOT: nvvm.cp.async.bulk.global.shared.cta
// GPU: gpu.return

func.func @bf16_w32(%x: tensor<2x32x6x30xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<2x64x8x32xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x30xbf16>, tensor<32x64x3x3xbf16>) -> tensor<2x64x8x32xbf16>
  return %y : tensor<2x64x8x32xbf16>
}

func.func @f16_w34_bias_relu(%x: tensor<2x32x6x32xf16>, %w: tensor<32x64x3x3xf16>, %b: tensor<64xf16>) -> tensor<2x64x8x34xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x32x6x32xf16>, tensor<32x64x3x3xf16>, tensor<64xf16>) -> tensor<2x64x8x34xf16>
  %r = fuse.relu %y : tensor<2x64x8x34xf16>
  return %r : tensor<2x64x8x34xf16>
}

func.func @bf16_w36_48ch(%x: tensor<1x16x5x32xbf16>, %w: tensor<16x48x3x5xbf16>) -> tensor<1x48x7x36xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x32xbf16>, tensor<16x48x3x5xbf16>) -> tensor<1x48x7x36xbf16>
  return %y : tensor<1x48x7x36xbf16>
}

func.func @f16_1d(%x: tensor<3x32x62xf16>, %w: tensor<32x64x5xf16>) -> tensor<3x64x66xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<3x32x62xf16>, tensor<32x64x5xf16>) -> tensor<3x64x66xf16>
  return %y : tensor<3x64x66xf16>
}

func.func @bf16_3d(%x: tensor<1x16x4x5x10xbf16>, %w: tensor<16x64x3x3x3xbf16>) -> tensor<1x64x6x7x12xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x4x5x10xbf16>, tensor<16x64x3x3x3xbf16>) -> tensor<1x64x6x7x12xbf16>
  return %y : tensor<1x64x6x7x12xbf16>
}

func.func @bf16_odd_walk(%x: tensor<1x32x5x19xbf16>, %w: tensor<32x64x3x3xbf16>) -> tensor<1x64x7x21xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x32x5x19xbf16>, tensor<32x64x3x3xbf16>) -> tensor<1x64x7x21xbf16>
  return %y : tensor<1x64x7x21xbf16>
}
