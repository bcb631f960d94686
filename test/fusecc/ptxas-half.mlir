// PTX of bf16/f16 graphs (docs/design/types.md) is accepted by ptxas: the
// elementwise kernels that read half storage widen each element to f32
// (cvt.f32.bf16 / cvt.f32.f16) and round their result once at the store
// (cvt.rn.bf16.f32 / cvt.rn.f16.f32), 2-byte loads and stores; the
// convolution between them reads and writes f32.
// REQUIRES: ptxas

// RUN: fusecc %s --emit=ptx -o %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: fusecc %s --emit=ptx --precision=tf32 --chip=sm_90a -o %t.tf32.ptx
// RUN: %ptxas -arch=sm_90a %t.tf32.ptx -o %t.tf32.cubin

// CHECK-DAG: ld.global.{{(nc.)?}}b16
// CHECK-DAG: cvt.f32.bf16
// CHECK-DAG: cvt.rn.bf16.f32
// CHECK-DAG: st.global.b16
// CHECK-DAG: cvt.f32.f16
// CHECK-DAG: cvt.rn.f16.f32

func.func @bf16_conv_silu(%x: tensor<2x4x5x5xbf16>, %w: tensor<4x8x3x3xbf16>, %b: tensor<8xbf16>) -> tensor<2x8x11x11xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x4x5x5xbf16>, tensor<4x8x3x3xbf16>, tensor<8xbf16>) -> tensor<2x8x11x11xbf16>
  %s = fuse.silu %y : tensor<2x8x11x11xbf16>
  return %s : tensor<2x8x11x11xbf16>
}

func.func @f16_softmax(%x: tensor<4x33xf16>) -> tensor<4x33xf16> {
  %s = fuse.softmax %x {dim = 1 : i64} : tensor<4x33xf16>
  return %s : tensor<4x33xf16>
}
