// PTX of bf16/f16 graphs (docs/design/types.md) is accepted by ptxas: the
// convolution reads its half input, weight and bias with 2-byte loads
// (8-byte vector loads where rows are multiples of 4), widens them
// (cvt.f32.bf16) and multiplies on mma.sync m16n8k16 with bf16 operands;
// the elementwise kernels that read half storage widen each element to f32
// (cvt.f32.bf16 / cvt.f32.f16) and round their result once at the store
// (cvt.rn.bf16.f32 / cvt.rn.f16.f32), 2-byte loads and stores.
// REQUIRES: ptxas

// RUN: fusecc %s --emit=ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: fusecc %s --emit=ptx --precision=tf32 --chip=sm_90a -o %t.tf32.ptx
// RUN: %ptxas -arch=sm_90a %t.tf32.ptx -o %t.tf32.cubin
// RUN: FileCheck %s < %t.tf32.ptx
// RUN: FileCheck %s --check-prefix=NOTF32 < %t.ptx
// RUN: FileCheck %s --check-prefix=NOTF32 < %t.tf32.ptx
// RUN: fusecc %s --emit=ptx --chip=sm_80 -o %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin

// CHECK-DAG: ld.global.{{(nc.)?}}b16
// CHECK-DAG: cvt.f32.bf16
// CHECK-DAG: cvt.rn.bf16.f32
// CHECK-DAG: st.global.b16
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: cvt.rn.f16.f32
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The half graph's convolution whatever --precision says: no TF32.
// NOTF32-NOT: cvt.rna.tf32.f32

func.func @bf16_conv_silu(%x: tensor<2x16x5x5xbf16>, %w: tensor<16x8x3x3xbf16>, %b: tensor<8xbf16>) -> tensor<2x8x11x11xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x5x5xbf16>, tensor<16x8x3x3xbf16>, tensor<8xbf16>) -> tensor<2x8x11x11xbf16>
  %s = fuse.silu %y : tensor<2x8x11x11xbf16>
  return %s : tensor<2x8x11x11xbf16>
}

func.func @f16_softmax(%x: tensor<4x33xf16>) -> tensor<4x33xf16> {
  %s = fuse.softmax %x {dim = 1 : i64} : tensor<4x33xf16>
  return %s : tensor<4x33xf16>
}
