// RUN: fusecc-check --precision=tf32 --chip=sm_90a %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --emit=fused %s | FileCheck %s --check-prefix=TILE
// The tiles of session 37's tiny-reduction rule (docs/perf.md 191;
// tile-kernels-rules-tiny.mlir) in small, simulated: a log-softmax over 4
// channels on one 16-channel mma.sync tile of 4 rows with merged H taps
// (rand41_83's tile), and 4 -> 24 channels at stride 4 on a 32-channel
// tile (small grids take mma.sync under either rule: these check the
// tiles' results).

// CHECK: @tiny_softmax: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @tiny_reduction: PASS rel-L2 {{[0-9.e+-]+}} max-abs

// TILE-LABEL: fuse.kernel "tiny_softmax_k0"
// TILE-SAME: tileC = 16, {{.*}}mmaWarpsC = 1, {{.*}}rows = 4, mergeHTaps = 1>
func.func @tiny_softmax(%x: tensor<2x3x12x6xf32>, %w: tensor<3x4x6x2xf32>) -> tensor<2x4x12x18xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 3>, padding = array<i64: 5, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<2x3x12x6xf32>, tensor<3x4x6x2xf32>) -> tensor<2x4x12x18xf32>
  %1 = fuse.log_softmax %0 {dim = 1 : i64} : tensor<2x4x12x18xf32>
  return %1 : tensor<2x4x12x18xf32>
}

// TILE-LABEL: fuse.kernel "tiny_reduction_k0"
// TILE-SAME: tileC = 32, {{.*}}mmaWarpsC = 1, mmaWarpsW = 1, mmaTilesC = 2
func.func @tiny_reduction(%x: tensor<2x4x40xf32>, %w: tensor<4x24x7xf32>) -> tensor<2x24x147xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 4>, padding = array<i64: 11>, output_padding = array<i64: 0>, dilation = array<i64: 2>, groups = 1 : i64} : (tensor<2x4x40xf32>, tensor<4x24x7xf32>) -> tensor<2x24x147xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<2x24x147xf32>
  return %1 : tensor<2x24x147xf32>
}
