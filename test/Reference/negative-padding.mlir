// Transposed convolutions with a negative padding: output positions before
// the scatter's first one hold only the bias (their tap ranges are empty:
// the kernels take the floored phase of o + padding). The ONNX shapes
// (SAME_* with a kernel below the stride, an output_shape past the
// scatter's begin; perf.md 290's layers, smaller), a 3-D layer, and random
// ones (dilation, groups, negative and positive paddings mixed, crops and
// output_paddings past the stride, group_norm / relu epilogues) on the FMA,
// mma.sync, wgmma (one and two warpgroups over the W phases) and bf16 paths.
// RUN: fusecc-check %s --precision=ieee | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --precision=tf32 --tile-wgmma=never | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --precision=tf32 --tile-wgmma=always | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --precision=tf32 --tile-wgmma=always --tile-phase-split=2 | FileCheck %s
// RUN: fusecc-check %s --chip=sm_90a --precision=bf16 --tile-wgmma=always | FileCheck %s

// CHECK: @neg_su_k2s3: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @neg_sl_k1s4: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @neg_oshape: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @neg_3d_k2s3: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @negp7_11: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @negp7_13: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0
// CHECK: @negp7_18: PASS rel-L2 {{[0-9.e+-]+}} max-abs {{.*}} unwritten 0 not-close 0

func.func @neg_su_k2s3(%x: tensor<2x64x9x7xf32>,
                  %w: tensor<64x64x2x2xf32>,
                  %b: tensor<64xf32>) -> tensor<2x64x27x21xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 3>, padding = array<i64: -1, -1>,
         output_padding = array<i64: -1, -1>, dilation = array<i64: 1, 1>}
       : (tensor<2x64x9x7xf32>, tensor<64x64x2x2xf32>, tensor<64xf32>) -> tensor<2x64x27x21xf32>
  %r = fuse.relu %c : tensor<2x64x27x21xf32>
  return %r : tensor<2x64x27x21xf32>
}

func.func @neg_sl_k1s4(%x: tensor<2x64x9x7xf32>,
                  %w: tensor<64x32x1x1xf32>,
                  %b: tensor<32xf32>) -> tensor<2x32x36x28xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 4, 4>, padding = array<i64: -1, -1>,
         output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>}
       : (tensor<2x64x9x7xf32>, tensor<64x32x1x1xf32>, tensor<32xf32>) -> tensor<2x32x36x28xf32>
  %r = fuse.relu %c : tensor<2x32x36x28xf32>
  return %r : tensor<2x32x36x28xf32>
}

func.func @neg_oshape(%x: tensor<2x64x9x7xf32>,
                  %w: tensor<64x64x4x4xf32>,
                  %b: tensor<64xf32>) -> tensor<2x64x24x20xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: -2, -2>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<2x64x9x7xf32>, tensor<64x64x4x4xf32>, tensor<64xf32>) -> tensor<2x64x24x20xf32>
  %r = fuse.relu %c : tensor<2x64x24x20xf32>
  return %r : tensor<2x64x24x20xf32>
}

func.func @neg_3d_k2s3(%x: tensor<2x32x5x4x3xf32>,
                  %w: tensor<32x16x2x2x2xf32>,
                  %b: tensor<16xf32>) -> tensor<2x16x15x12x9xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 3, 3, 3>, padding = array<i64: -1, -1, -1>,
         output_padding = array<i64: -1, -1, -1>, dilation = array<i64: 1, 1, 1>}
       : (tensor<2x32x5x4x3xf32>, tensor<32x16x2x2x2xf32>, tensor<16xf32>) -> tensor<2x16x15x12x9xf32>
  %r = fuse.relu %c : tensor<2x16x15x12x9xf32>
  return %r : tensor<2x16x15x12x9xf32>
}

func.func @negp7_11(%x: tensor<1x32x6x5x6xf32>, %w: tensor<32x8x2x5x5xf32>, %b: tensor<8xf32>) -> tensor<1x8x19x13x15xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 4, 2>, padding = array<i64: -2, 4, 1>, output_padding = array<i64: 2, 0, -2>, dilation = array<i64: 2, 1, 2>, groups = 1 : i64} : (tensor<1x32x6x5x6xf32>, tensor<32x8x2x5x5xf32>, tensor<8xf32>) -> tensor<1x8x19x13x15xf32>
  %r = fuse.group_norm %y {num_groups = 4 : i64} : tensor<1x8x19x13x15xf32>
  return %r : tensor<1x8x19x13x15xf32>
}

func.func @negp7_13(%x: tensor<1x32x13x18xf32>, %w: tensor<32x8x5x1xf32>, %b: tensor<16xf32>) -> tensor<1x16x34x91xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 5>, padding = array<i64: -4, -1>, output_padding = array<i64: -3, 3>, dilation = array<i64: 1, 2>, groups = 2 : i64} : (tensor<1x32x13x18xf32>, tensor<32x8x5x1xf32>, tensor<16xf32>) -> tensor<1x16x34x91xf32>
  %r = fuse.group_norm %y {num_groups = 4 : i64} : tensor<1x16x34x91xf32>
  return %r : tensor<1x16x34x91xf32>
}

func.func @negp7_18(%x: tensor<1x32x7x15xf32>, %w: tensor<32x8x1x4xf32>, %b: tensor<16xf32>) -> tensor<1x16x54x30xf32> {
  %y = fuse.conv_transpose %x, %w, %b {stride = array<i64: 5, 2>, padding = array<i64: -9, 1>, output_padding = array<i64: 5, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x32x7x15xf32>, tensor<32x8x1x4xf32>, tensor<16xf32>) -> tensor<1x16x54x30xf32>
  return %y : tensor<1x16x54x30xf32>
}
