// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-ci-chunk=16 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=2 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 --tile-rows=2 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=fused %s | FileCheck %s --check-prefix=TILE
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// Short rows of a W stride > 1 as one wgmma N (SharedMemoryPlan::rowsN,
// TileWgmma): where a W phase has at most 8 positions (N = 8), a block's
// rows lie one after another in each staged plane, span apart (a multiple
// of 8), and one m64nN k-step per W phase and tap covers them all, N =
// (rows - 1) x span + 8, with the positions between rows computed and not
// stored. DCGAN's 4x4 -> 8x8 and 8x8 -> 16x16 layers, a pose head's 8x6 ->
// 16x12, an odd width (phases of 4 and 3 positions), stride 3, dilation 2,
// 3-D, a channel softmax (all channels per block), per-channel parameter
// ops (an eval batch norm) on the accumulators; tf32 (by default with all
// H taps of a round staged at once, 8 channels a round, as rows as one N
// do; also 16 channels a tap, and 2 rows), split operands (whose short
// rows stay one N a row unless forced: unmeasured there).

// 4 rows of 8 positions a phase (4 valid), span 16: one m64n56 per W
// phase and tap. 8 rows would need 2 x 120 / 2 accumulators a thread.
// Two k-steps (16 channels) a round: merged taps at N <= 32 (perf.md 296).
// TILE-LABEL: fuse.kernel "dcgan_4x4_k0"
// TILE-SAME: tileW = 16, tileC = 64, {{.*}}ciChunk = 16, {{.*}}rows = 4, mergeHTaps = 1, wgmmaN = 8, wgmmaGroups = 1>
// TILE-LABEL: fuse.kernel "dcgan_8x8_k0"
// TILE-SAME: tileW = 16, tileC = 64, {{.*}}ciChunk = 16, {{.*}}rows = 4, mergeHTaps = 1, wgmmaN = 8, wgmmaGroups = 1>
// GPU-LABEL: gpu.func @dcgan_4x4_k0(
// GPU-NOT: gpu.func
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 56, k = 8>

// CHECK: @dcgan_4x4: PASS
// CHECK: @dcgan_8x8: PASS
// CHECK: @pose_8x6: PASS
// CHECK: @odd_width: PASS
// CHECK: @stride3: PASS
// CHECK: @dilated: PASS
// CHECK: @short_3d: PASS
// CHECK: @channel_softmax: PASS
// CHECK-NOT: FAIL

func.func @dcgan_4x4(%x: tensor<3x24x4x4xf32>, %w: tensor<24x40x4x4xf32>, %rm: tensor<40xf32>, %rv: tensor<40xf32> {fuse.check.mean = 4.0 : f64}, %g: tensor<40xf32>, %bb: tensor<40xf32>) -> tensor<3x40x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x24x4x4xf32>, tensor<24x40x4x4xf32>) -> tensor<3x40x8x8xf32>
  %1 = fuse.batch_norm %0, %rm, %rv weight(%g) bias(%bb) {epsilon = 1.0e-05 : f64} : (tensor<3x40x8x8xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<3x40x8x8xf32>
  %2 = fuse.relu %1 : tensor<3x40x8x8xf32>
  return %2 : tensor<3x40x8x8xf32>
}

func.func @dcgan_8x8(%x: tensor<2x16x8x8xf32>, %w: tensor<16x24x4x4xf32>, %b: tensor<24xf32>) -> tensor<2x24x16x16xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x8x8xf32>, tensor<16x24x4x4xf32>, tensor<24xf32>) -> tensor<2x24x16x16xf32>
  %1 = fuse.tanh %0 : tensor<2x24x16x16xf32>
  return %1 : tensor<2x24x16x16xf32>
}

func.func @pose_8x6(%x: tensor<2x12x8x6xf32>, %w: tensor<12x20x4x4xf32>) -> tensor<2x20x16x12xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x12x8x6xf32>, tensor<12x20x4x4xf32>) -> tensor<2x20x16x12xf32>
  %1 = fuse.relu %0 : tensor<2x20x16x12xf32>
  return %1 : tensor<2x20x16x12xf32>
}

func.func @odd_width(%x: tensor<2x8x5x4xf32>, %w: tensor<8x70x3x3xf32>) -> tensor<2x70x9x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x5x4xf32>, tensor<8x70x3x3xf32>) -> tensor<2x70x9x7xf32>
  return %0 : tensor<2x70x9x7xf32>
}

func.func @stride3(%x: tensor<2x8x4x3xf32>, %w: tensor<8x16x5x5xf32>) -> tensor<2x16x12x9xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x4x3xf32>, tensor<8x16x5x5xf32>) -> tensor<2x16x12x9xf32>
  return %0 : tensor<2x16x12x9xf32>
}

func.func @dilated(%x: tensor<1x8x6x5xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x16x13x11xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<1x8x6x5xf32>, tensor<8x16x3x3xf32>) -> tensor<1x16x13x11xf32>
  return %0 : tensor<1x16x13x11xf32>
}

func.func @short_3d(%x: tensor<1x8x3x4x4xf32>, %w: tensor<8x16x3x4x4xf32>) -> tensor<1x16x5x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x8x3x4x4xf32>, tensor<8x16x3x4x4xf32>) -> tensor<1x16x5x8x8xf32>
  return %0 : tensor<1x16x5x8x8xf32>
}

func.func @channel_softmax(%x: tensor<2x8x4x4xf32>, %w: tensor<8x21x4x4xf32>, %b: tensor<21xf32>) -> tensor<2x21x8x8xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x4x4xf32>, tensor<8x21x4x4xf32>, tensor<21xf32>) -> tensor<2x21x8x8xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x21x8x8xf32>
  return %1 : tensor<2x21x8x8xf32>
}
