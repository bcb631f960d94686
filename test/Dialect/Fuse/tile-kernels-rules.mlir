// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-positions-m=-1 --emit=fused | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --tile-rules=session35 --emit=fused | FileCheck %s --check-prefix=OLD
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=fused | FileCheck %s --check-prefix=PM
// The rules of session 36 (issue 37's unseen layers, docs/perf.md 179 and
// 185) against `--tile-rules=session35`, which restores the ones before;
// the channels-on-M rules with positions on M off (`--tile-positions-m=-1`).
// By default (session 37, docs/perf.md 192) one-group layers of at most 8
// channels whose W phases have at least 128 positions and 2 taps take
// mma.sync tiles with positions on M (long_reduction, few_taps_long: 32
// channels a round where a phase has at most 2 taps, rand37_36's layer);
// shorter phases (few_taps: 32 positions, the generators' RGB layers:
// short_reduction) keep the channels-on-M tiles.
// PM-LABEL: fuse.kernel "few_taps_k0"
// PM-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}rows = 4>
// PM-LABEL: fuse.kernel "long_reduction_k0"
// PM-SAME: tileC = 3, {{.*}}ciChunk = 16, {{.*}}mmaPositionsM = 1>
// PM-LABEL: fuse.kernel "short_reduction_k0"
// PM-SAME: tileC = 16, {{.*}}rows = 4>
// PM-LABEL: fuse.kernel "empty_phases_k0"
// PM-SAME: tileC = 16, {{.*}}rows = 4>
// PM-LABEL: fuse.kernel "few_taps_long_k0"
// PM-SAME: tileC = 3, {{.*}}ciChunk = 32, {{.*}}mmaPositionsM = 1>

// A long 1-D kernel (14 taps at stride 3, dilation 2: rand37_52's layer):
// a round of 16 channels stages 16 x 14 taps x 64 channels of weights,
// double-buffered 123 KB, one block per SM; 8 channels admit two or more.
// CHECK-LABEL: fuse.kernel "long_kernel_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 8, {{.*}}wgmmaN = 48, wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "long_kernel_k0"
// OLD-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}wgmmaN = 48, wgmmaGroups = 1>
func.func @long_kernel(%x: tensor<1x24x65536xf32>, %w: tensor<24x96x14xf32>) -> tensor<1x96x196582xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3>, padding = array<i64: 25>, output_padding = array<i64: 0>, dilation = array<i64: 2>} : (tensor<1x24x65536xf32>, tensor<24x96x14xf32>) -> tensor<1x96x196582xf32>
  return %0 : tensor<1x96x196582xf32>
}

// Few taps per phase (7 x 2 at stride 4 x 4: rand37_36's layer): the
// staging of 32 channels fits under the output tile that the block holds
// anyway, so mma.sync rounds take 32 channels (half the rounds).
// CHECK-LABEL: fuse.kernel "few_taps_k0"
// CHECK-SAME: tileC = 16, {{.*}}ciChunk = 32, {{.*}}mmaWarpsC = 1, {{.*}}rows = 4>
// OLD-LABEL: fuse.kernel "few_taps_k0"
// OLD-SAME: tileC = 16, {{.*}}ciChunk = 16, {{.*}}mmaWarpsC = 1, {{.*}}rows = 4>
func.func @few_taps(%x: tensor<8x96x32x32xf32>, %w: tensor<96x3x7x2xf32>, %b: tensor<3xf32>) -> tensor<8x3x131x126xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<8x96x32x32xf32>, tensor<96x3x7x2xf32>, tensor<3xf32>) -> tensor<8x3x131x126xf32>
  return %0 : tensor<8x3x131x126xf32>
}

// Few output channels, long reduction (192 channels x 15 taps / 2 phases =
// 1440 products an output: rand37_63's layer): wgmma, whose pipelined
// main loop outweighs its 64-channel M.
// CHECK-LABEL: fuse.kernel "long_reduction_k0"
// CHECK-SAME: tileC = 64, {{.*}}wgmmaGroups = 1>
// OLD-LABEL: fuse.kernel "long_reduction_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @long_reduction(%x: tensor<2x192x65536xf32>, %w: tensor<192x3x15xf32>) -> tensor<2x3x131075xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 5>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<2x192x65536xf32>, tensor<192x3x15xf32>) -> tensor<2x3x131075xf32>
  return %0 : tensor<2x3x131075xf32>
}

// A DCGAN RGB layer sums 64 channels x 2 x 2 taps = 256 products: mma.sync
// under both rules (tile-kernels-few-channels.mlir).
// CHECK-LABEL: fuse.kernel "short_reduction_k0"
// CHECK-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// OLD-LABEL: fuse.kernel "short_reduction_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @short_reduction(%x: tensor<64x64x32x32xf32>, %w: tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<64x64x32x32xf32>, tensor<64x3x4x4xf32>) -> tensor<64x3x64x64xf32>
  return %0 : tensor<64x3x64x64xf32>
}

// A few-channel layer whose phases mostly have no taps (5 x 4 x 1 taps at
// strides 3 x 3 x 4: 384 x 4 products in the fullest phase, 213 on
// average: rand37_40's layer) stays on mma.sync, and a phase of 2 x 1
// taps or fewer still takes rounds of 16 channels where the block holds
// more than one 16-channel tile (a residual decoder's 2 x 2 stride-2
// layer: 64 channels a block).
// CHECK-LABEL: fuse.kernel "empty_phases_k0"
// CHECK-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
// OLD-LABEL: fuse.kernel "empty_phases_k0"
// OLD-SAME: tileC = 16, {{.*}}mmaWarpsC = 1
func.func @empty_phases(%x: tensor<8x384x16x32x64xf32>, %w: tensor<384x3x5x4x1xf32>) -> tensor<8x3x50x97x253xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 3, 4>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 2>} : (tensor<8x384x16x32x64xf32>, tensor<384x3x5x4x1xf32>) -> tensor<8x3x50x97x253xf32>
  return %0 : tensor<8x3x50x97x253xf32>
}
// CHECK-LABEL: fuse.kernel "wide_block_k0"
// CHECK-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}mmaWarpsC = 2, {{.*}}rows = 4>
// OLD-LABEL: fuse.kernel "wide_block_k0"
// OLD-SAME: tileC = 64, {{.*}}ciChunk = 16, {{.*}}mmaWarpsC = 2, {{.*}}rows = 4>
func.func @wide_block(%x: tensor<1x128x16x16xf32>, %w: tensor<128x64x2x2xf32>, %b: tensor<64xf32>) -> tensor<1x64x32x32xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x128x16x16xf32>, tensor<128x64x2x2xf32>, tensor<64xf32>) -> tensor<1x64x32x32xf32>
  %1 = fuse.relu %0 : tensor<1x64x32x32xf32>
  return %1 : tensor<1x64x32x32xf32>
}

// rand37_36's layer at its full width (510 positions: 128 a phase).
func.func @few_taps_long(%x: tensor<8x96x16x128xf32>, %w: tensor<96x3x7x2xf32>, %b: tensor<3xf32>) -> tensor<8x3x67x510xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4, 4>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<8x96x16x128xf32>, tensor<96x3x7x2xf32>, tensor<3xf32>) -> tensor<8x3x67x510xf32>
  return %0 : tensor<8x3x67x510xf32>
}
