// The epilogue math in the PTX: tf32 kernels (--epilogue-math=auto) compute
// exp as Triton does, ex2.approx.ftz of x * log2(e) (0f3FB8AA3B; the
// softmax statistics fma(x, log2(e), -max log2(e)); sigmoid's exp(-y)
// multiplies by -log2(e), 0fBFB8AA3B), and sigmoid's reciprocal
// with rcp.approx alone; ieee kernels and --epilogue-math=exact
// use libdevice's expf (its range reduction: the 0f437C0000 constant, a
// round-down FMA) and refine the reciprocal with a Newton step.

// RUN: fusecc %s --emit=ptx --precision=tf32 | FileCheck %s --check-prefix=FAST
// RUN: fusecc %s --emit=ptx --precision=ieee --epilogue-math=fast | FileCheck %s --check-prefix=FAST
// RUN: fusecc %s --emit=ptx --precision=ieee | FileCheck %s --check-prefix=EXACT
// RUN: fusecc %s --emit=ptx --precision=tf32 --epilogue-math=exact | FileCheck %s --check-prefix=EXACT

// FAST-LABEL: .entry f_k0(
// FAST-NOT:     0f437C0000
// FAST:         fma.rn.f32 [[T:%r[0-9]+]], %r{{[0-9]+}}, 0f3FB8AA3B, %r{{[0-9]+}};
// FAST-NEXT:    ex2.approx.ftz.f32 %r{{[0-9]+}}, [[T]];
// FAST:         mul.rn.f32 [[S:%r[0-9]+]], %r{{[0-9]+}}, 0fBFB8AA3B;
// FAST-NEXT:    ex2.approx.ftz.f32 [[E:%r[0-9]+]], [[S]];
// FAST-NEXT:    add.rn.f32 [[D:%r[0-9]+]], [[E]], 0f3F800000;
// FAST-NEXT:    rcp.approx.ftz.f32 %r{{[0-9]+}}, [[D]];
// FAST-NOT:     neg.f32
// FAST-NOT:     0f437C0000
// FAST:         ret;

// EXACT-LABEL: .entry f_k0(
// EXACT:        fma.rm.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, {{%r[0-9]+|0f437C0000}}
// EXACT:        ex2.approx.ftz.f32
// EXACT:        rcp.approx.ftz.f32 [[R0:%r[0-9]+]], [[D:%r[0-9]+]];
// EXACT-NEXT:   neg.f32 [[ND:%r[0-9]+]], [[D]];
// EXACT-NEXT:   fma.rn.f32 {{%r[0-9]+}}, [[ND]], [[R0]], 0f3F800000;
// EXACT:        ret;

func.func @f(%x: tensor<2x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<2x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<2x4x5xf32>, tensor<4x8x3xf32>) -> tensor<2x8x7xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x8x7xf32>
  %2 = fuse.sigmoid %1 : tensor<2x8x7xf32>
  return %2 : tensor<2x8x7xf32>
}
