// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-rows=1 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --precision=fp16 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --tile-wgmma=always --tile-cluster-c=2 | FileCheck %s
// RUN: fusecc %s --chip=sm_90a --tile-wgmma=always --tile-cluster-c=2 --emit=fused | FileCheck %s --check-prefix=CLUSTER
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --chip=sm_90a --tile-wgmma=always | FileCheck %s --check-prefix=PLAN
// Half stores after normalisations, and half epilogue inputs
// (docs/design/types.md): a bf16/f16 convolution whose epilogue
// normalises in the tile (a softmax over the channels, a layer norm over
// the last dim) stores its half result itself; a normalisation kernel of
// its own (group_norm, whose sets span blocks: partial statistics from the
// convolution's epilogue) rounds and stores the half result itself; and a
// half graph input that an elementwise epilogue op reads (a residual, as
// in kb2_26) is read by the convolution kernel directly, widened as it is
// loaded. No cast kernel, no f32 copy of the residual. Checked against
// float64 on the same half values with the half storage rule.

// PLAN-LABEL: plan @bf16_softmax_c:
// PLAN-NOT: elementwise
// PLAN: writes result (1x64x5x6xbf16)
// PLAN-LABEL: plan @f16_layernorm:
// PLAN: (convolution)
// PLAN-NEXT: reads arg0 arg1 b{{[0-9]+}} b{{[0-9]+}}
// PLAN-NEXT: writes result (2x64x8x8xf16)
// PLAN-LABEL: plan @bf16_groupnorm:
// PLAN: (convolution)
// PLAN: writes b{{[0-9]+}} (2x64x6x6xf32)
// PLAN: (normalization: group_norm
// PLAN-NEXT: reads
// PLAN-NEXT: writes result (2x64x6x6xbf16)
// PLAN-NOT: step
// PLAN-LABEL: plan @bf16_residual_hardswish: 1 kernel, 0 buffers
// PLAN-NEXT: step 0 bf16_residual_hardswish_k0 (convolution)
// PLAN-NEXT: reads arg0 arg1 arg2 arg3
// PLAN-NEXT: writes result (2x32x8x16xbf16)
// PLAN-LABEL: plan @f16_residual_3d: 1 kernel, 0 buffers
// PLAN-NEXT: step 0 f16_residual_3d_k0 (convolution)
// PLAN-NEXT: reads arg0 arg1 arg2
// PLAN-NEXT: writes result (1x32x6x6x8xf16)
// A pooled epilogue stores its half result itself too (no cast kernel).
// PLAN-LABEL: plan @bf16_pool_bias: 1 kernel, 0 buffers
// PLAN-NEXT: step 0 bf16_pool_bias_k0 (convolution, pooled epilogue
// PLAN-NEXT: reads arg0 arg1 arg2
// PLAN-NEXT: writes result (2x16x3x7x7xbf16)
// PLAN-LABEL: plan @bf16_box_sums:
// PLAN: (box sums: conv_transpose_tap_sums, 15 planes of 35, {{.*}}scalar loads
// PLAN-NEXT: reads arg0
// PLAN-NEXT: writes b{{[0-9]+}} (3x5x3x3xf32)
// PLAN-LABEL: plan @f16_box_sums_vec:
// PLAN: (box sums: conv_transpose_tap_sums, 12 planes of 40, {{.*}}8-byte loads
// PLAN-NEXT: reads arg0

// CLUSTER-LABEL: func.func @f16_softmax_c128
// CLUSTER: clusterC = 2
// CLUSTER: fuse.cast {{.*}} -> tensor<1x128x5x10xf16>

// CHECK: @bf16_softmax_c: PASS {{.*}} storage bf16
// CHECK: @f16_softmax_c128: PASS {{.*}} storage f16
// CHECK: @f16_layernorm: PASS {{.*}} storage f16
// CHECK: @bf16_groupnorm: PASS {{.*}} storage bf16
// CHECK: @bf16_residual_hardswish: PASS {{.*}} storage bf16
// CHECK: @f16_residual_3d: PASS {{.*}} storage f16
// CHECK: @bf16_pool_bias: PASS {{.*}} storage bf16
// CHECK: @bf16_box_sums: PASS {{.*}} storage bf16
// CHECK: @f16_box_sums_vec: PASS {{.*}} storage f16
// CHECK-NOT: FAIL

func.func @bf16_softmax_c(%x: tensor<1x40x3x4xbf16>, %w: tensor<40x64x3x3xbf16>) -> tensor<1x64x5x6xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x3x4xbf16>, tensor<40x64x3x3xbf16>) -> tensor<1x64x5x6xbf16>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x64x5x6xbf16>
  return %s : tensor<1x64x5x6xbf16>
}

// 128 channels: with --tile-cluster-c=2 two blocks of 64 share the
// softmax's statistics (kb2_91's cluster), each storing f16.
func.func @f16_softmax_c128(%x: tensor<1x24x3x8xf16>, %w: tensor<24x128x3x3xf16>, %b: tensor<128xf16>) -> tensor<1x128x5x10xf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x24x3x8xf16>, tensor<24x128x3x3xf16>, tensor<128xf16>) -> tensor<1x128x5x10xf16>
  %s = fuse.softmax %y {dim = 1 : i64} : tensor<1x128x5x10xf16>
  return %s : tensor<1x128x5x10xf16>
}

func.func @f16_layernorm(%x: tensor<2x16x4x4xf16>, %w: tensor<16x64x2x2xf16>, %g: tensor<8xf16>, %beta: tensor<8xf16>) -> tensor<2x64x8x8xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x4xf16>, tensor<16x64x2x2xf16>) -> tensor<2x64x8x8xf16>
  %l = fuse.layer_norm %y weight(%g : tensor<8xf16>) bias(%beta : tensor<8xf16>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x64x8x8xf16>
  %r = fuse.gelu %l : tensor<2x64x8x8xf16>
  return %r : tensor<2x64x8x8xf16>
}

func.func @bf16_groupnorm(%x: tensor<2x20x4x4xbf16>, %w: tensor<20x64x3x3xbf16>, %g: tensor<64xbf16>, %beta: tensor<64xbf16>) -> tensor<2x64x6x6xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x20x4x4xbf16>, tensor<20x64x3x3xbf16>) -> tensor<2x64x6x6xbf16>
  %n = fuse.group_norm %y weight(%g : tensor<64xbf16>) bias(%beta : tensor<64xbf16>) {num_groups = 8 : i64, epsilon = 1.0e-05 : f64} : tensor<2x64x6x6xbf16>
  %r = fuse.relu %n : tensor<2x64x6x6xbf16>
  return %r : tensor<2x64x6x6xbf16>
}

// kb2_26's epilogue: (conv + residual) * hardswish(conv + residual).
func.func @bf16_residual_hardswish(%x: tensor<2x16x4x8xbf16>, %w: tensor<16x32x2x2xbf16>, %b: tensor<32xbf16>, %r: tensor<2x32x8x16xbf16>) -> tensor<2x32x8x16xbf16> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x8xbf16>, tensor<16x32x2x2xbf16>, tensor<32xbf16>) -> tensor<2x32x8x16xbf16>
  %a = fuse.add %y, %r : tensor<2x32x8x16xbf16>, tensor<2x32x8x16xbf16> -> tensor<2x32x8x16xbf16>
  %h = fuse.hardswish %a : tensor<2x32x8x16xbf16>
  %m = fuse.mul %a, %h : tensor<2x32x8x16xbf16>, tensor<2x32x8x16xbf16> -> tensor<2x32x8x16xbf16>
  return %m : tensor<2x32x8x16xbf16>
}

// A 3-D layer with odd rows and a residual subtracted.
func.func @f16_residual_3d(%x: tensor<1x16x3x3x4xf16>, %w: tensor<16x32x4x4x5xf16>, %r: tensor<1x32x6x6x8xf16>) -> tensor<1x32x6x6x8xf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x3x3x4xf16>, tensor<16x32x4x4x5xf16>) -> tensor<1x32x6x6x8xf16>
  %d = fuse.sub %r, %y : tensor<1x32x6x6x8xf16>, tensor<1x32x6x6x8xf16> -> tensor<1x32x6x6x8xf16>
  return %d : tensor<1x32x6x6x8xf16>
}

// kb2_50's epilogue: a bf16 bias added after the pooling (the pooled
// epilogue stores f32, a cast kernel rounds it) is read by the kernel
// itself, after the window op.
func.func @bf16_pool_bias(%x: tensor<2x3x4x8x8xbf16>, %w: tensor<3x16x3x3x3xbf16>, %b: tensor<16x1x1x1xbf16>) -> tensor<2x16x3x7x7xbf16> {
  %y = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<2x3x4x8x8xbf16>, tensor<3x16x3x3x3xbf16>) -> tensor<2x16x7x15x15xbf16>
  %p = fuse.avg_pool %y {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<2x16x7x15x15xbf16> -> tensor<2x16x3x7x7xbf16>
  %a = fuse.add %p, %b : tensor<2x16x3x7x7xbf16>, tensor<16x1x1x1xbf16> -> tensor<2x16x3x7x7xbf16>
  return %a : tensor<2x16x3x7x7xbf16>
}

// kb2_44's mean over all spatial dims (fuse-reduce-through-conv): the box
// sums kernel reads the bf16 input itself (2-byte loads, widened), not an
// elementwise kernel evaluating the tap sums element by element.
func.func @bf16_box_sums(%x: tensor<3x5x7x5xbf16>, %w: tensor<5x7x3x3xbf16>, %b: tensor<7xbf16>) -> tensor<3x7x1x1xbf16> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<3x5x7x5xbf16>, tensor<5x7x3x3xbf16>, tensor<7xbf16>) -> tensor<3x7x14x10xbf16>
  %1 = arith.constant dense<0.5> : tensor<bf16>
  %2 = fuse.mul %0, %1 : tensor<3x7x14x10xbf16>, tensor<bf16> -> tensor<3x7x14x10xbf16>
  %3 = fuse.mean %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<3x7x14x10xbf16> -> tensor<3x7x1x1xbf16>
  return %3 : tensor<3x7x1x1xbf16>
}

// Rows of 8: 8-byte loads of 4 f16 values.
func.func @f16_box_sums_vec(%x: tensor<2x6x5x8xf16>, %w: tensor<6x4x3x3xf16>) -> tensor<2x4x1x1xf16> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x6x5x8xf16>, tensor<6x4x3x3xf16>) -> tensor<2x4x10x16xf16>
  %1 = fuse.sum %0 {dims = array<i64: 2, 3>, keepdim = true} : tensor<2x4x10x16xf16> -> tensor<2x4x1x1xf16>
  return %1 : tensor<2x4x1x1xf16>
}
