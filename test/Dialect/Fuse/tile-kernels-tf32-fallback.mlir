// KNOWN BUG: with precision=tf32, fuse-tile-kernels probes the tensor-core
// config with checkLimits(), which *emits* an error when the probe does not
// fit (here: 16 staged input channels x 256 taps of weights need 291392
// bytes of shared memory), then falls back to the FMA config and succeeds.
// The pass (and fusecc) exit 0 but print "error: ... tile needs N bytes of
// shared memory". The probe must not emit diagnostics. Remove the XFAIL when
// fixed.
// XFAIL: *

// RUN: fusecc-opt %s --pass-pipeline='builtin.module(func.func(fuse-form-kernels,fuse-tile-kernels{precision=tf32}))' 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK: fuse.kernel "fallback_k0" {{.*}}{config = #fuse.tile<{{.*}}ciChunk = 1, precision = "tf32">}
// CHECK-NOT: error
func.func @fallback(%x: tensor<1x1x8xf32>, %w: tensor<1x16x256xf32>) -> tensor<1x16x263xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x8xf32>, tensor<1x16x256xf32>) -> tensor<1x16x263xf32>
  return %0 : tensor<1x16x263xf32>
}
