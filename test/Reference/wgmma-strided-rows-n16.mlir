// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=2 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// RUN: fusecc --precision=bf16 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=HALF
// Rows of a W stride > 1 as one wgmma N where a W phase has at most 16
// positions (`kMaxStridedRowsPhaseN`, TF32 only; docs/perf.md 215): a
// block's rows lie one after another in each staged plane, span apart,
// and one m64nN per W phase and tap covers them all, N = (rows - 1) x
// span + 16, pooled epilogues included (issue 37's rand37_39: max_pool
// then mean, 0.306 -> 0.208 ms). Phases of 32 positions keep one N per
// row (measured mixed). Half operands take phases of up to 24 positions
// as one N (`kMaxStridedRowsPhaseNHalf`, docs/perf.md 226), and fewer
// rows as one N over more rows that are not (pooled_mean in bf16: 2 rows
// of 16, span 24, as one m64n40k16). Checked
// against the double-precision reference: a pooled reduction (max_pool +
// mean), a pooled store (avg_pool), bias + tanh with an odd width (phases
// of 16 and 15 positions), stride 3 (one N at 2 rows, the second RUN
// line; 4 rows would need N = 88 > 192 / 3) and a 32-position phase.

// 4 rows of 16 positions a phase, span 24: one m64n88 per W phase and tap
// instead of four m64n16.
// GPU-LABEL: gpu.func @pooled_mean_k0(
// GPU-NOT: gpu.func
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 88, k = 8>
// GPU-LABEL: gpu.func @avg_pooled_k0(
// GPU-NOT: gpu.func
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 88, k = 8>
// GPU-LABEL: gpu.func @phase32_k0(
// GPU-NOT: gpu.func
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 32, k = 8>
// HALF-LABEL: gpu.func @pooled_mean_k0(
// HALF-NOT: gpu.func
// HALF: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 40, k = 16>

// CHECK: @pooled_mean: PASS
// CHECK: @avg_pooled: PASS
// CHECK: @odd_width: PASS
// CHECK: @stride3: PASS
// CHECK: @phase32: PASS
// CHECK-NOT: FAIL

func.func @pooled_mean(%x: tensor<2x16x8x16xf32>, %w: tensor<16x72x4x4xf32>) -> tensor<2x72xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x16xf32>, tensor<16x72x4x4xf32>) -> tensor<2x72x16x32xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x72x16x32xf32> -> tensor<2x72x8x16xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<2x72x8x16xf32> -> tensor<2x72xf32>
  return %2 : tensor<2x72xf32>
}

func.func @avg_pooled(%x: tensor<2x16x8x16xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<2x64x8x16xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x16xf32>, tensor<16x64x4x4xf32>) -> tensor<2x64x16x32xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<2x64x16x32xf32> -> tensor<2x64x8x16xf32>
  return %1 : tensor<2x64x8x16xf32>
}

func.func @odd_width(%x: tensor<2x24x6x16xf32>, %w: tensor<24x40x3x3xf32>, %b: tensor<40xf32>) -> tensor<2x40x11x31xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x6x16xf32>, tensor<24x40x3x3xf32>, tensor<40xf32>) -> tensor<2x40x11x31xf32>
  %1 = fuse.tanh %0 : tensor<2x40x11x31xf32>
  return %1 : tensor<2x40x11x31xf32>
}

func.func @stride3(%x: tensor<1x16x5x16xf32>, %w: tensor<16x48x3x3xf32>) -> tensor<1x48x15x48xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 3>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x5x16xf32>, tensor<16x48x3x3xf32>) -> tensor<1x48x15x48xf32>
  %1 = fuse.relu %0 : tensor<1x48x15x48xf32>
  return %1 : tensor<1x48x15x48xf32>
}

func.func @phase32(%x: tensor<1x16x4x32xf32>, %w: tensor<16x64x4x4xf32>) -> tensor<1x64x8x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x4x32xf32>, tensor<16x64x4x4xf32>) -> tensor<1x64x8x64xf32>
  return %0 : tensor<1x64x8x64xf32>
}
