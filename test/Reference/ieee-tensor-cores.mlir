// ieee graphs on the tensor cores with split operands (--ieee-tensor-cores=
// always: mma.sync, math tf32x3, 3xTF32) meet the ieee bar in the
// simulator (rel-L2 < 1e-5 against the double-precision reference; here
// ~1e-7, as the FP32 FMA kernels), on 2-D and 3-D layers, stride 1 and 2,
// dilation, groups, a bias + gelu epilogue, group_norm (statistics from the
// conv epilogue), a channel softmax, inputs of mean 4, and 2304 and 4608
// products per output (cin 256 and 512, 3x3 taps at stride 1). The
// simulator's mma.sync reads only the TF32 bits of its operands and
// accumulates as the H100's tensor cores do, truncating
// (sim-mma-tf32.mlir): a kernel that dropped the lo parts would show
// tf32's error (the plain tf32 kernels of the same graphs, TF32 rows, are
// 2e-5 to 4e-4 off), and one that accumulated all its k-steps in the
// tensor cores fails the two long sums (rel-L2 1.1e-5 and 4e-5, as
// kb2_93 on the H100).

// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-merge-h %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --tile-rows=1 --tile-ci-chunk=8 %s | FileCheck %s
// RUN: fusecc-check --precision=ieee --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always %s | FileCheck %s
// RUN: fusecc %s --ieee-tensor-cores=always --emit=fused | FileCheck %s --check-prefix=TILE
// RUN: fusecc %s --ieee-tensor-cores=always --chip=sm_90a --tile-wgmma=always --emit=fused | FileCheck %s --check-prefix=TILEWG
// RUN: fusecc-check --precision=tf32 %s | FileCheck %s --check-prefix=TF32

// Every convolution runs split (not the FMA fallback); with wgmma all but
// the grouped one on wgmma.
// TILE-COUNT-9: types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC
// TILE-NOT: types = <ieee, storage = f32, operand = f32, accumulator = f32, statistics = f32>
// TILEWG: "conv2d_s2_bias_gelu_k0" {{.*}}types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, wgmmaN = 8
// W stride 1 (conv3d_s1, cin40_mean4, cin256_k3, cin512_k3_mean4): the
// rows are one N (3 x 16 + 8 = 56 <= 96, half of kMaxRowsN for split
// operands), staged at 8 channels, all H taps at once where 3 blocks still
// share an SM.
// TILEWG: "conv3d_s1_k0" {{.*}}ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 8
// TILEWG: "conv3d_s2_dil2_k0" {{.*}}types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, wgmmaN = 8
// TILEWG: "groups2_k0" {{.*}}types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, mmaWarpsC
// TILEWG: "group_norm_silu_k0" {{.*}}types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, wgmmaN = 8
// TILEWG: "softmax_channels_k0" {{.*}}types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, wgmmaN = 8
// TILEWG: "cin40_mean4_k0" {{.*}}ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 2, mergeHTaps = 1, wgmmaN = 8
// TILEWG: "cin256_k3_k0" {{.*}}ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, mergeHTaps = 1, wgmmaN = 8
// (cin512_k3_mean4: merged H taps would leave 2 blocks per SM.)
// TILEWG: "cin512_k3_mean4_k0" {{.*}}ciChunk = 8, types = <tf32x3, storage = f32, operand = tf32, accumulator = f32, statistics = f32>, rows = 4, wgmmaN = 8

// Below 1e-6 (PASS alone says below 1e-5).
// CHECK: @conv2d_s2_bias_gelu: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @conv3d_s1: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @conv3d_s2_dil2: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @groups2: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @group_norm_silu: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @softmax_channels: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @cin40_mean4: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @cin256_k3: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)
// CHECK: @cin512_k3_mean4: PASS rel-L2 {{[0-9]\.[0-9]+e-0[7-9]}} {{.*}}(ieee)

// At or above 1e-5: tf32 would not meet the ieee bar on any of them.
// TF32: @conv2d_s2_bias_gelu: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @conv3d_s1: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @conv3d_s2_dil2: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @groups2: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @group_norm_silu: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @softmax_channels: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @cin40_mean4: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @cin256_k3: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)
// TF32: @cin512_k3_mean4: PASS rel-L2 {{[0-9]\.[0-9]+e-0[1-5]}} {{.*}}(tf32)

func.func @conv2d_s2_bias_gelu(%x: tensor<2x24x5x6xf32>, %w: tensor<24x32x3x3xf32>, %b: tensor<32xf32>) -> tensor<2x32x10x12xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x24x5x6xf32>, tensor<24x32x3x3xf32>, tensor<32xf32>) -> tensor<2x32x10x12xf32>
  %1 = fuse.gelu %0 : tensor<2x32x10x12xf32>
  return %1 : tensor<2x32x10x12xf32>
}

func.func @conv3d_s1(%x: tensor<1x16x3x4x5xf32>, %w: tensor<16x16x3x3x3xf32>) -> tensor<1x16x5x6x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x16x3x4x5xf32>, tensor<16x16x3x3x3xf32>) -> tensor<1x16x5x6x7xf32>
  return %0 : tensor<1x16x5x6x7xf32>
}

func.func @conv3d_s2_dil2(%x: tensor<2x12x3x4x5xf32>, %w: tensor<12x20x3x3x3xf32>, %b: tensor<20xf32>) -> tensor<2x20x7x9x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 2, 2, 2>, groups = 1 : i64} : (tensor<2x12x3x4x5xf32>, tensor<12x20x3x3x3xf32>, tensor<20xf32>) -> tensor<2x20x7x9x11xf32>
  return %0 : tensor<2x20x7x9x11xf32>
}

func.func @groups2(%x: tensor<1x8x4x5xf32>, %w: tensor<8x16x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x9x11xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64} : (tensor<1x8x4x5xf32>, tensor<8x16x3x3xf32>, tensor<32xf32>) -> tensor<1x32x9x11xf32>
  return %0 : tensor<1x32x9x11xf32>
}

func.func @group_norm_silu(%x: tensor<2x16x4x5xf32>, %w: tensor<16x24x3x3xf32>, %b: tensor<24xf32>, %g: tensor<24xf32>, %be: tensor<24xf32>) -> tensor<2x24x8x10xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x16x4x5xf32>, tensor<16x24x3x3xf32>, tensor<24xf32>) -> tensor<2x24x8x10xf32>
  %1 = fuse.group_norm %0 weight(%g : tensor<24xf32>) bias(%be : tensor<24xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x24x8x10xf32>
  %2 = fuse.silu %1 : tensor<2x24x8x10xf32>
  return %2 : tensor<2x24x8x10xf32>
}

func.func @softmax_channels(%x: tensor<2x20x7xf32>, %w: tensor<20x48x4xf32>, %b: tensor<48xf32>) -> tensor<2x48x14xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2>, padding = array<i64: 1>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x20x7xf32>, tensor<20x48x4xf32>, tensor<48xf32>) -> tensor<2x48x14xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<2x48x14xf32>
  return %1 : tensor<2x48x14xf32>
}

func.func @cin40_mean4(%x: tensor<1x40x2x3xf32> {fuse.check.mean = 4.0 : f64}, %w: tensor<40x9x2x2xf32>, %b: tensor<9xf32>) -> tensor<1x9x3x4xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x40x2x3xf32>, tensor<40x9x2x2xf32>, tensor<9xf32>) -> tensor<1x9x3x4xf32>
  return %0 : tensor<1x9x3x4xf32>
}

func.func @cin256_k3(%x: tensor<1x256x4x6xf32>, %w: tensor<256x16x3x3xf32>) -> tensor<1x16x6x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x256x4x6xf32>, tensor<256x16x3x3xf32>) -> tensor<1x16x6x8xf32>
  return %0 : tensor<1x16x6x8xf32>
}
func.func @cin512_k3_mean4(%x: tensor<1x512x3x6xf32> {fuse.check.mean = 4.0 : f64}, %w: tensor<512x64x3x3xf32> {fuse.check.mean = 1.0 : f64}) -> tensor<1x64x5x8xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x512x3x6xf32>, tensor<512x64x3x3xf32>) -> tensor<1x64x5x8xf32>
  return %0 : tensor<1x64x5x8xf32>
}
