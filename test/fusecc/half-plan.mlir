// RUN: fusecc %s --emit=plan | FileCheck %s
// The bundle records the arithmetic its convolutions were given (#fuse.types
// math f16: the graph's storage type), whatever --precision asked for.
// RUN: fusecc %s -o - | FileCheck %s --check-prefix=BUNDLE
// RUN: fusecc %s --precision=tf32 --chip=sm_90a -o - | FileCheck %s --check-prefix=BUNDLE
// BUNDLE: {{^}}precision fp16{{$}}
// The plan of an f16 graph (docs/design/types.md): the convolution reads
// the half input, weight and bias itself (its operand casts: f16 loads
// widened; 4 input channels: TF32 operands on mma.sync, exact for f16
// values, tensorCoreMath), the group_norm's f16
// parameters are widened by elementwise kernels into f32 buffers, the
// convolution writes f32, the partial statistics are f32 (4 bytes each,
// whatever the tensors' type), the result is rounded to f16 by the
// group_norm kernel's store (a half store, no cast kernel); buffer bytes
// from the element type.

// CHECK-LABEL: plan @f16_conv_groupnorm: 4 kernels, 4 buffers (16960 bytes)
// CHECK: buffer b{{[0-9]+}} partials f32 x 768 (3072 bytes)
// CHECK: buffer b{{[0-9]+}} intermediate f32 x 3456 (13824 bytes)
// CHECK: step 1 f16_conv_groupnorm_k2 (elementwise)
// CHECK-NEXT: reads arg3
// CHECK-NEXT: writes b{{[0-9]+}} (8xf32)
// CHECK: step 2 f16_conv_groupnorm_k0 (convolution)
// CHECK-NEXT: reads arg0 arg1 arg2
// CHECK-NEXT: writes b{{[0-9]+}} (2x8x6x6x6xf32), partial statistics of 4 groups per sample
// CHECK: step 3 f16_conv_groupnorm_k3 (normalization: group_norm
// CHECK-NEXT: reads b{{[0-9]+}} b{{[0-9]+}} b{{[0-9]+}}
// CHECK-NEXT: writes result (2x8x6x6x6xf16), reads partial statistics
// CHECK-NOT: step 4
// RUN: fusecc %s --emit=fused | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @f16_conv_groupnorm
// FUSED: fuse.kernel "f16_conv_groupnorm_k0" ins(%arg0, %arg1, %arg2 : tensor<2x4x3x3x3xf16>, tensor<4x8x2x2x2xf16>, tensor<8xf16>) {config = #fuse.tile<{{.*}}types = <tf32, storage = f16, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC
// FUSED-NEXT: ^bb0(%[[X:.*]]: tensor<2x4x3x3x3xf16>, %[[W:.*]]: tensor<4x8x2x2x2xf16>, %[[B:.*]]: tensor<8xf16>):
// FUSED-NEXT: %[[XF:.*]] = fuse.cast %[[X]] : tensor<2x4x3x3x3xf16> -> tensor<2x4x3x3x3xf32>
// FUSED-NEXT: %[[WF:.*]] = fuse.cast %[[W]]
// FUSED-NEXT: %[[BF:.*]] = fuse.cast %[[B]]
// FUSED-NEXT: fuse.conv_transpose %[[XF]], %[[WF]], %[[BF]]
func.func @f16_conv_groupnorm(%x: tensor<2x4x3x3x3xf16>, %w: tensor<4x8x2x2x2xf16>, %b: tensor<8xf16>, %g: tensor<8xf16>, %beta: tensor<8xf16>) -> tensor<2x8x6x6x6xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x4x3x3x3xf16>, tensor<4x8x2x2x2xf16>, tensor<8xf16>) -> tensor<2x8x6x6x6xf16>
  %n = fuse.group_norm %y weight(%g : tensor<8xf16>) bias(%beta : tensor<8xf16>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x6x6x6xf16>
  %r = fuse.relu %n : tensor<2x8x6x6x6xf16>
  return %r : tensor<2x8x6x6x6xf16>
}

// A cast to f16 in the middle of a graph rounds in the elementwise kernel
// that computes it, which also widens the half value again: the buffer
// between the kernels stays f32, and the softmax reads f32.
// CHECK-LABEL: plan @f16_intermediate: 2 kernels, 1 buffer (256 bytes)
// CHECK-NEXT: buffer b0 intermediate f32 x 64 (256 bytes)
// CHECK-NEXT: step 0 f16_intermediate_k0 (elementwise)
// CHECK-NEXT: reads arg0
// CHECK-NEXT: writes b0 (4x16xf32)
// CHECK-NEXT: step 1 f16_intermediate_k1 (normalization: softmax
func.func @f16_intermediate(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = fuse.exp %x : tensor<4x16xf32>
  %h = fuse.cast %e : tensor<4x16xf32> -> tensor<4x16xf16>
  %s = fuse.softmax %h {dim = 0 : i64} : tensor<4x16xf16>
  %f = fuse.cast %s : tensor<4x16xf16> -> tensor<4x16xf32>
  return %f : tensor<4x16xf32>
}
