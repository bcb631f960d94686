// RUN: fusecc-check --precision=tf32 --chip=sm_90a %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --emit=fused %s | FileCheck %s --check-prefix=MMA
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=always --emit=fused %s | FileCheck %s --check-prefix=WGMMA
// The tiles of session 36's rules (tile-kernels-rules.mlir, docs/perf.md
// 185) in small, simulated: wgmma rounds of 8 channels where 16 leave one
// block per SM (3 rounds for 24 channels), mma.sync rounds of 32 channels
// at few taps per phase (3 rounds for 96), and a 3-channel wgmma tile for
// a long reduction. Small grids keep mma.sync by default: the second run
// forces wgmma to reach the first and last.

// CHECK: @long_kernel: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @few_taps: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @long_reduction: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// WGMMA-LABEL: fuse.kernel "long_kernel_k0"
// WGMMA-SAME: tileC = 64, {{.*}}ciChunk = 8, {{.*}}wgmmaGroups = 1>
func.func @long_kernel(%x: tensor<1x24x32xf32>, %w: tensor<24x96x14xf32>) -> tensor<1x96x120xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 2>} : (tensor<1x24x32xf32>, tensor<24x96x14xf32>) -> tensor<1x96x120xf32>
  return %0 : tensor<1x96x120xf32>
}

// MMA-LABEL: fuse.kernel "few_taps_k0"
// MMA-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}mmaWarpsC = 1
func.func @few_taps(%x: tensor<1x96x4x32xf32>, %w: tensor<96x3x7x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x19x126xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x96x4x32xf32>, tensor<96x3x7x2xf32>, tensor<3xf32>) -> tensor<1x3x19x126xf32>
  return %0 : tensor<1x3x19x126xf32>
}

// WGMMA-LABEL: fuse.kernel "long_reduction_k0"
// WGMMA-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}wgmmaGroups = 1>
func.func @long_reduction(%x: tensor<1x192x16xf32>, %w: tensor<192x3x15xf32>) -> tensor<1x3x35xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 5>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x192x16xf32>, tensor<192x3x15xf32>) -> tensor<1x3x35xf32>
  return %0 : tensor<1x3x35xf32>
}
