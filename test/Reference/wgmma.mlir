// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-wgmma-split=1 --tile-rows=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-merge-h=1 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-ci-chunk=32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --tile-wgmma=1 --tile-rows=8 %s | FileCheck %s
// RUN: fusecc --precision=tf32 --chip=sm_90a --tile-wgmma=1 --emit=gpu %s | FileCheck %s --check-prefix=GPU
// The same kernels with split operands (ieee on wgmma, precision tf32x3:
// hi and lo parts staged, three wgmma per step, each round's sums added in
// f32) meet the ieee bar (1e-5), the packed-input graph staging its input
// through registers.
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 --tile-merge-h=1 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-wgmma=1 --tile-ci-chunk=32 %s | FileCheck %s
// Hopper wgmma kernels (the kernel builder's IR) run in the CPU simulator
// against the float64 reference: descriptors, the two staging buffers, the
// proxy fences and the wgmma groups are checked on every launch (races,
// uninitialised or pending reads), the results against the graph. Shapes:
// channels not a multiple of 64 (padded channel groups) and of the chunk
// (zero-filled input channels), rows past the output edge, taps with no
// input, W phases without taps (dilation = stride), stride 3, a channel
// softmax over 70 channels (two channel groups), a whole-row layer_norm,
// 1-D, 2-D and 3-D, input rows that are not multiples of 4 long (scalar
// staging) and that are (16-byte staging).

// GPU-LABEL: gpu.func @wg_2d_k4_k0
// GPU: nvvm.fence.proxy
// GPU: nvvm.wgmma.fence.aligned
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 16, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// GPU: nvvm.wgmma.commit.group.sync.aligned
// GPU: nvvm.wgmma.wait.group.sync.aligned 0
// GPU: gpu.barrier
// Kernels with a small input re-lay it out as well (wg_ln_wide,
// wg_dead_phase, wg_packed_input).
// GPU-LABEL: gpu.func @wg_packed_input_k0(
// GPU: nvgpu.device_async_copy
// GPU-LABEL: gpu.func @wg_packed_input_k0_ipack(

// CHECK: @wg_2d_k4: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_softmax_c70: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_1d_stride3: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_dil3d: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_ln_wide: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_dead_phase: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_softmax_w: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_softmax_scaled: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_two_reductions: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK: @wg_packed_input: PASS rel-L2 {{[0-9.e+-]+}} max-abs
// CHECK-NOT: FAIL

func.func @wg_2d_k4(%x0: tensor<2x24x5x12xf32>, %w1: tensor<24x32x4x4xf32>, %b2: tensor<32xf32>) -> tensor<2x32x11x25xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x12xf32>, tensor<24x32x4x4xf32>, tensor<32xf32>) -> tensor<2x32x11x25xf32>
  %v1 = fuse.tanh %v0 : tensor<2x32x11x25xf32>
  return %v1 : tensor<2x32x11x25xf32>
}

func.func @wg_softmax_c70(%x0: tensor<3x4x2x2xf32>, %w1: tensor<4x70x4x4xf32>, %b2: tensor<70xf32>, %bias3: tensor<70x1x1xf32>) -> tensor<3x70x5x5xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x4x2x2xf32>, tensor<4x70x4x4xf32>, tensor<70xf32>) -> tensor<3x70x5x5xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<3x70x5x5xf32>
  %v2 = fuse.add %v1, %bias3 : tensor<3x70x5x5xf32>, tensor<70x1x1xf32> -> tensor<3x70x5x5xf32>
  %v5 = fuse.sigmoid %v2 : tensor<3x70x5x5xf32>
  return %v5 : tensor<3x70x5x5xf32>
}

func.func @wg_1d_stride3(%x0: tensor<2x6x12xf32>, %w1: tensor<6x16x5xf32>) -> tensor<2x16x36xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 3>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x6x12xf32>, tensor<6x16x5xf32>) -> tensor<2x16x36xf32>
  return %v0 : tensor<2x16x36xf32>
}

func.func @wg_dil3d(%x0: tensor<3x2x2x2x3xf32>, %w1: tensor<2x5x2x2x2xf32>) -> tensor<3x5x5x5x6xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<3x2x2x2x3xf32>, tensor<2x5x2x2x2xf32>) -> tensor<3x5x5x5x6xf32>
  return %v0 : tensor<3x5x5x5x6xf32>
}

func.func @wg_ln_wide(%x0: tensor<1x3x2x20xf32>, %w1: tensor<3x70x3x3xf32>, %b2: tensor<70xf32>, %g3: tensor<60xf32>, %beta4: tensor<60xf32>) -> tensor<1x70x6x60xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 3, 3>, padding = array<i64: 1, 1>, output_padding = array<i64: 2, 2>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x3x2x20xf32>, tensor<3x70x3x3xf32>, tensor<70xf32>) -> tensor<1x70x6x60xf32>
  %v1 = fuse.layer_norm %v0 weight(%g3 : tensor<60xf32>) bias(%beta4 : tensor<60xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x70x6x60xf32>
  %v2 = fuse.gelu %v1 : tensor<1x70x6x60xf32>
  return %v2 : tensor<1x70x6x60xf32>
}

// kb1_77's pattern: dilation = stride = 2, so the odd W phase has no taps
// (its warpgroup issues no wgmma and stores zeros), 16-byte input rows.
func.func @wg_dead_phase(%x0: tensor<1x8x3x4x8xf32>, %w1: tensor<8x16x3x3x3xf32>) -> tensor<1x16x7x9x17xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<1x8x3x4x8xf32>, tensor<8x16x3x3x3xf32>) -> tensor<1x16x7x9x17xf32>
  return %v0 : tensor<1x16x7x9x17xf32>
}

// A last-dim softmax (a W line: statistics from the accumulators of a lane
// quad) with 25 positions per row: tile positions past the row are masked.
func.func @wg_softmax_w(%x0: tensor<2x8x3x13xf32>, %w1: tensor<8x16x3x3xf32>, %b2: tensor<16xf32>) -> tensor<2x16x5x25xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x3x13xf32>, tensor<8x16x3x3xf32>, tensor<16xf32>) -> tensor<2x16x5x25xf32>
  %v1 = fuse.softmax %v0 {dim = 3 : i64} : tensor<2x16x5x25xf32>
  return %v1 : tensor<2x16x5x25xf32>
}

// The channel softmax reads conv x 2, not the conv: its statistics come
// from the shared-memory tile (the epilogue's own pass).
func.func @wg_softmax_scaled(%x0: tensor<2x8x3x5xf32>, %w1: tensor<8x80x3x3xf32>) -> tensor<2x80x5x9xf32> {
  %v0 = fuse.conv_transpose %x0, %w1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x8x3x5xf32>, tensor<8x80x3x3xf32>) -> tensor<2x80x5x9xf32>
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %v1 = fuse.mul %v0, %c2 : tensor<2x80x5x9xf32>, tensor<f32> -> tensor<2x80x5x9xf32>
  %v2 = fuse.softmax %v1 {dim = 1 : i64} : tensor<2x80x5x9xf32>
  return %v2 : tensor<2x80x5x9xf32>
}

// Two reductions: the channel softmax of the conv (from the accumulators),
// then a layer_norm over W of its result (from the tile).
func.func @wg_two_reductions(%x0: tensor<1x8x3x6xf32>, %w1: tensor<8x24x4x4xf32>, %b2: tensor<24xf32>) -> tensor<1x24x6x12xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x3x6xf32>, tensor<8x24x4x4xf32>, tensor<24xf32>) -> tensor<1x24x6x12xf32>
  %v1 = fuse.softmax %v0 {dim = 1 : i64} : tensor<1x24x6x12xf32>
  %v2 = fuse.layer_norm %v1 {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x24x6x12xf32>
  return %v2 : tensor<1x24x6x12xf32>
}

// A small input beside its output: the input is re-laid out too
// (`_ipack`), so both operands reach shared memory by cp.async; rows of 4
// windows with zero padding on both sides, 2 channel groups of 8 channels
// for 6 input channels.
func.func @wg_packed_input(%x0: tensor<2x6x4x8xf32>, %w1: tensor<6x32x4x4xf32>, %b2: tensor<32xf32>) -> tensor<2x32x8x16xf32> {
  %v0 = fuse.conv_transpose %x0, %w1, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x6x4x8xf32>, tensor<6x32x4x4xf32>, tensor<32xf32>) -> tensor<2x32x8x16xf32>
  %v1 = fuse.gelu %v0 : tensor<2x32x8x16xf32>
  return %v1 : tensor<2x32x8x16xf32>
}
