// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=4 --tile-merge-h | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=2 --tile-merge-h --precision=fp16 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --tile-rows=4 --tile-merge-h --tile-ci-chunk=16 --emit=ptx -o %t.r4.ptx
// RUN: FileCheck %s --check-prefix=PTX4 < %t.r4.ptx
// Half-operand wgmma kernels at W stride 2 issue a warpgroup's rows as one
// N for W phases of up to 24 positions (SharedMemoryPlan::rowsN,
// kMaxStridedRowsPhaseNHalf, docs/perf.md 226): phases of 12, 16 and 24
// positions (rows 24, 32 and 48 wide), 2 and 4 rows, with and without
// merged h taps, an eval batch_norm + relu epilogue; the cost model takes
// 2 rows as one N where 4 do not fit (the 24-position phase: m64n56).
// Given 4 rows (a tuning entry, `--tile-rows`), the 24-position phase
// takes them as one m64n120 (`kMaxRowsNHalfStrided`, docs/perf.md 280):
// the third RUN line checks it against float64.
// Checked against float64 on the same half values.

// CHECK: @bf16_phase12: PASS {{.*}} storage bf16
// CHECK: @bf16_phase16: PASS {{.*}} storage bf16
// CHECK: @f16_phase24: PASS {{.*}} storage f16
// CHECK-NOT: FAIL
// PTX-LABEL: .visible .entry bf16_phase16_k0(
// PTX: wgmma.mma_async.sync.aligned.m64n88k16.f32.bf16.bf16
// PTX-LABEL: .visible .entry f16_phase24_k0(
// PTX: wgmma.mma_async.sync.aligned.m64n56k16.f32.f16.f16
// PTX4-LABEL: .visible .entry f16_phase24_k0(
// PTX4: wgmma.mma_async.sync.aligned.m64n120k16.f32.f16.f16

func.func @bf16_phase12(%x: tensor<2x64x5x12xbf16>, %w: tensor<64x64x4x4xbf16>, %m: tensor<64xbf16>, %v: tensor<64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x10x24xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x5x12xbf16>, tensor<64x64x4x4xbf16>) -> tensor<2x64x10x24xbf16>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%b) {epsilon = 1.0e-05 : f64} : (tensor<2x64x10x24xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<2x64x10x24xbf16>
  %2 = fuse.relu %1 : tensor<2x64x10x24xbf16>
  return %2 : tensor<2x64x10x24xbf16>
}

func.func @bf16_phase16(%x: tensor<2x64x5x16xbf16>, %w: tensor<64x64x4x4xbf16>, %m: tensor<64xbf16>, %v: tensor<64xbf16>, %g: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x10x32xbf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x5x16xbf16>, tensor<64x64x4x4xbf16>) -> tensor<2x64x10x32xbf16>
  %1 = fuse.batch_norm %0, %m, %v weight(%g) bias(%b) {epsilon = 1.0e-05 : f64} : (tensor<2x64x10x32xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>, tensor<64xbf16>) -> tensor<2x64x10x32xbf16>
  %2 = fuse.relu %1 : tensor<2x64x10x32xbf16>
  return %2 : tensor<2x64x10x32xbf16>
}

func.func @f16_phase24(%x: tensor<2x64x5x24xf16>, %w: tensor<64x64x4x4xf16>, %bias: tensor<64xf16>) -> tensor<2x64x10x48xf16> {
  %0 = fuse.conv_transpose %x, %w, %bias {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x5x24xf16>, tensor<64x64x4x4xf16>, tensor<64xf16>) -> tensor<2x64x10x48xf16>
  %1 = fuse.relu %0 : tensor<2x64x10x48xf16>
  return %1 : tensor<2x64x10x48xf16>
}
