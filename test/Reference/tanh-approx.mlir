// tanh in fast epilogue math (tf32 and half kernels): `tanh.approx.f32`
// (docs/perf.md 310) instead of libdevice's two-branch tanhf. The
// simulator models the instruction as the rounded tanh (its relative
// error, about 2^-11, is checked on the GPU against float64). Small layers
// of the class of kb2_5 (k4 s2 p1 with output_padding 1: odd output rows
// whose lines start at any 4-byte offset, W tiles past the row) and kb2_16
// (mish: tanh of softplus), on mma.sync, on wgmma with 1 and 2 rows, and
// in bf16; the PTX holds one tanh.approx.f32 where libdevice's tanhf is
// gone (its polynomial's 0f3C80F082), and `exact` keeps libdevice's.

// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=1 --tile-rows=2 --tile-merge-h --tile-max-w=16 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 --chip=sm_90a --tile-wgmma=1 %s | FileCheck %s
// RUN: fusecc-check --precision=bf16 %s | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --epilogue-math=exact --emit=ptx | FileCheck %s --check-prefix=EXACT

// CHECK: @sub_tanh_odd: PASS
// CHECK: @mish_odd: PASS

// PTX-LABEL: .entry sub_tanh_odd_k0(
// PTX-NOT:     0f3C80F082
// PTX:         tanh.approx.f32
// PTX-NOT:     0f3C80F082
// PTX:         ret;
// PTX-LABEL: .entry mish_odd_k0(
// PTX:         tanh.approx.f32
// PTX:         ret;
// EXACT-LABEL: .entry sub_tanh_odd_k0(
// EXACT-NOT:     tanh.approx.f32
// EXACT:         0f3C80F082
// EXACT:         ret;

func.func @sub_tanh_odd(%x: tensor<2x16x6x7xf32>, %w: tensor<16x32x4x4xf32>, %cb: tensor<32xf32>, %b: tensor<32x1x1xf32>) -> tensor<2x32x13x15xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x6x7xf32>, tensor<16x32x4x4xf32>, tensor<32xf32>) -> tensor<2x32x13x15xf32>
  %1 = fuse.sub %0, %b : tensor<2x32x13x15xf32>, tensor<32x1x1xf32> -> tensor<2x32x13x15xf32>
  %2 = fuse.tanh %1 : tensor<2x32x13x15xf32>
  return %2 : tensor<2x32x13x15xf32>
}

func.func @mish_odd(%x: tensor<1x8x5x9xf32>, %w: tensor<8x16x3x3xf32>, %cb: tensor<16xf32>) -> tensor<1x16x10x18xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x8x5x9xf32>, tensor<8x16x3x3xf32>, tensor<16xf32>) -> tensor<1x16x10x18xf32>
  %1 = fuse.mish %0 : tensor<1x16x10x18xf32>
  %2 = arith.constant dense<0.5> : tensor<f32>
  %3 = fuse.add %1, %2 : tensor<1x16x10x18xf32>, tensor<f32> -> tensor<1x16x10x18xf32>
  %4 = fuse.clamp %3 {min = -1.0 : f64, max = 1.0 : f64} : tensor<1x16x10x18xf32>
  return %4 : tensor<1x16x10x18xf32>
}
