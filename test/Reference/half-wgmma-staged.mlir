// bf16 / f16 wgmma kernels that stage their input themselves (no input
// re-layout kernel: InputPackPlan declines a 1-D or 2-D half kernel whose
// input and packed copy would be more than 30% of its output; a 3-D one
// keeps it, as measured, docs/perf.md 172). Each thread loads
// the 8 channels of a plane at a column quad and packs channel pairs into
// the words wgmma reads (Staging.cpp, packHalfWord): raw 2-byte values
// where the input is stored in the operand type (8-byte vectors for rows
// a multiple of 4 long, else element by element), values widened to f32
// and rounded where it is not (--precision=fp16 on bf16 storage). Input
// channels that fill no whole plane (20, 12) are zero-padded; a 3-D
// layer takes the re-laid-out input (test/Reference/half-wgmma.mlir too).

// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 | FileCheck %s --check-prefix=F16
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --emit=gpu | FileCheck %s --check-prefix=PACK

// CHECK: @odd_rows: PASS {{.*}} bf16-operands {{.*}} storage bf16
// CHECK: @f16_rows_of_16: PASS {{.*}} f16-operands {{.*}} storage f16
// CHECK: @bf16_3d: PASS {{.*}} bf16-operands {{.*}} storage bf16
// CHECK-NOT: FAIL
// F16: @odd_rows: PASS {{.*}} f16-operands
// F16: @f16_rows_of_16: PASS {{.*}} f16-operands
// F16: @bf16_3d: PASS {{.*}} f16-operands
// F16-NOT: FAIL

// Every kernel on wgmma, only the weights re-laid out; the raw 2-byte
// loads (element by element for rows of 7, 8-byte vectors for rows of 16)
// are packed into words.
// GPU-LABEL: gpu.func @odd_rows_k0(
// GPU: memref.load {{.*}} : memref<2x20x5x7xbf16>
// GPU: llvm.bitcast {{.*}} : vector<2xbf16> to i32
// GPU: nvvm.wgmma.mma_async
// GPU-LABEL: gpu.func @f16_rows_of_16_k0(
// GPU: vector.load {{.*}} : memref<1x24x4x16xf16>, vector<4xf16>
// GPU: llvm.bitcast {{.*}} : vector<2xf16> to i32
// GPU: nvvm.wgmma.mma_async
// PACK: launch_func @fusecc_kernels::@odd_rows_k0_wpack
// PACK-NEXT: launch_func @fusecc_kernels::@odd_rows_k0 blocks
// PACK: launch_func @fusecc_kernels::@f16_rows_of_16_k0_wpack
// PACK-NEXT: launch_func @fusecc_kernels::@f16_rows_of_16_k0 blocks
// PACK: launch_func @fusecc_kernels::@bf16_3d_k0_ipack
// PACK-NEXT: launch_func @fusecc_kernels::@bf16_3d_k0 blocks

func.func @odd_rows(%x: tensor<2x20x5x7xbf16>, %w: tensor<20x64x3x3xbf16>, %b: tensor<64xbf16>) -> tensor<2x64x7x9xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x20x5x7xbf16>, tensor<20x64x3x3xbf16>, tensor<64xbf16>) -> tensor<2x64x7x9xbf16>
  %r = fuse.relu %y : tensor<2x64x7x9xbf16>
  return %r : tensor<2x64x7x9xbf16>
}

func.func @f16_rows_of_16(%x: tensor<1x24x4x16xf16>, %w: tensor<24x64x3x5xf16>) -> tensor<1x64x6x20xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x4x16xf16>, tensor<24x64x3x5xf16>) -> tensor<1x64x6x20xf16>
  %t = fuse.tanh %y : tensor<1x64x6x20xf16>
  return %t : tensor<1x64x6x20xf16>
}

func.func @bf16_3d(%x: tensor<1x12x3x4x8xbf16>, %w: tensor<12x32x3x3x3xbf16>, %b: tensor<32xbf16>) -> tensor<1x32x5x6x10xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x12x3x4x8xbf16>, tensor<12x32x3x3x3xbf16>, tensor<32xbf16>) -> tensor<1x32x5x6x10xbf16>
  return %y : tensor<1x32x5x6x10xbf16>
}
