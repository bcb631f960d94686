// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=4 --tile-positions-m=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=2 --tile-positions-m=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=bf16 --tile-phase-split=4 --tile-positions-m=1 | FileCheck %s --check-prefix=HALF
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=4 --tile-positions-m=1 --emit=fused | FileCheck %s --check-prefix=CFG
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --precision=tf32 --tile-phase-split=4 --tile-positions-m=1 --emit=gpu | FileCheck %s --check-prefix=GPU
// wgmma blocks with positions on M (mmaPositionsM with a phase split,
// TilePhaseSplit.cpp): each warpgroup's W phases have 64 positions each as
// the M of their wgmma and the block's channels (rounded up to 8) as its
// N; the result goes through an output tile of those channels' lines
// only. Shapes: stride 8 with 21 channels, a bias and a relu (one W tile
// of 512); stride 8 with 13 channels over 21 input channels (two chunks),
// an output padding and an odd row of 563 (a second, partial W tile whose
// phases hold 7 or 6 positions: the rest of M is not stored); stride 16
// with 24 channels (4 phases a warpgroup at a split of 4). Too narrow a
// phase (stride 8, 40 positions) keeps the plain phase split.

// CHECK: @pm_s8_21_relu: PASS
// CHECK: @pm_s8_13_odd: PASS
// CHECK: @pm_s16_24: PASS
// CHECK: @pm_narrow: PASS
// CHECK-NOT: FAIL
// HALF: @pm_s8_21_relu: PASS {{.*}}-operands
// HALF: @pm_s8_13_odd: PASS {{.*}}-operands
// HALF: @pm_s16_24: PASS {{.*}}-operands
// HALF: @pm_narrow: PASS {{.*}}-operands
// HALF-NOT: FAIL
// CFG-LABEL: fuse.kernel "pm_s8_21_relu_k0"
// CFG-SAME: tileW = 512, tileC = 64, {{.*}}mmaPositionsM = 1, wgmmaPhaseSplit = 4>
// CFG-LABEL: fuse.kernel "pm_s8_13_odd_k0"
// CFG-SAME: tileW = 512, tileC = 64, {{.*}}mmaPositionsM = 1, wgmmaPhaseSplit = 4>
// CFG-LABEL: fuse.kernel "pm_s16_24_k0"
// CFG-SAME: tileW = 1024, tileC = 64, {{.*}}mmaPositionsM = 1, wgmmaPhaseSplit = 4>
// CFG-LABEL: fuse.kernel "pm_narrow_k0"
// CFG-NOT: mmaPositionsM
// CFG-SAME: wgmmaPhaseSplit = 4>
// The 21-channel block's wgmma: m64n24k8; its tile of 24 lines of 513
// words (49248 bytes) aliases the staging (60544 bytes), so that with 64
// registers a thread (kernelResidentBlocks) two 512-thread blocks share an
// SM.
// GPU: gpu.launch_func @fusecc_kernels::@pm_s8_21_relu_k0 {{.*}}threads in (%c512, %c1, %c1) dynamic_shared_memory_size %c60544_i32
// GPU-LABEL: gpu.func @pm_s8_21_relu_k0(
// GPU-SAME: nvvm.minctasm = 2
// GPU: nvvm.wgmma.mma_async {{.*}}<m = 64, n = 24, k = 8>
// GPU-LABEL: gpu.func @pm_s8_13_odd_k0(

func.func @pm_s8_21_relu(%x: tensor<1x16x2x64xf32>, %w: tensor<16x21x16x16xf32>, %b: tensor<21xf32>) -> tensor<1x21x16x512xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x16x2x64xf32>, tensor<16x21x16x16xf32>, tensor<21xf32>) -> tensor<1x21x16x512xf32>
  %1 = fuse.relu %0 : tensor<1x21x16x512xf32>
  return %1 : tensor<1x21x16x512xf32>
}

func.func @pm_s8_13_odd(%x: tensor<1x21x1x70xf32>, %w: tensor<21x13x16x16xf32>, %b: tensor<13xf32>) -> tensor<1x13x9x563xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 1, 3>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x21x1x70xf32>, tensor<21x13x16x16xf32>, tensor<13xf32>) -> tensor<1x13x9x563xf32>
  return %0 : tensor<1x13x9x563xf32>
}

func.func @pm_s16_24(%x: tensor<1x8x1x64xf32>, %w: tensor<8x24x32x32xf32>) -> tensor<1x24x16x1024xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 16, 16>, padding = array<i64: 8, 8>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x1x64xf32>, tensor<8x24x32x32xf32>) -> tensor<1x24x16x1024xf32>
  return %0 : tensor<1x24x16x1024xf32>
}

func.func @pm_narrow(%x: tensor<1x8x1x40xf32>, %w: tensor<8x21x16x16xf32>) -> tensor<1x21x8x320xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 8>, padding = array<i64: 4, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x1x40xf32>, tensor<8x21x16x16xf32>) -> tensor<1x21x8x320xf32>
  return %0 : tensor<1x21x8x320xf32>
}
