// RUN: fusecc-opt %s -verify-diagnostics --pass-pipeline='builtin.module(fuse-attach-target{chip=sm_80 device=h100},func.func(fuse-form-kernels,fuse-tile-kernels))'
// RUN: not fusecc %s --chip=sm_90a --emit=plan -o /dev/null 2>&1 | FileCheck %s

// A limit of the target is named with the target it came from: the device
// whose fact it is and the chip (fusecc's --chip and --device).

// 2^58 channels under a channel softmax: more shared memory than a block of
// the target has.
func.func @channels_2_58(%x: tensor<1x1x1xf32>, %w: tensor<1x288230376151711744x1xf32>) -> tensor<1x288230376151711744x1xf32> {
  // expected-error@+1 {{bytes of shared memory (at most 232448 per block on h100 (sm_80))}}
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x288230376151711744x1xf32>) -> tensor<1x288230376151711744x1xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<1x288230376151711744x1xf32>
  return %1 : tensor<1x288230376151711744x1xf32>
}
// CHECK: bytes of shared memory (at most 232448 per block on h200 (sm_90a))
