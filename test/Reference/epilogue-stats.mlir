// RUN: fusecc-check %s | FileCheck %s
// RUN: fusecc-check %s --tile-max-w=8 --tile-threads=64 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=0 --tile-c=16 --tile-rows=2 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 | FileCheck %s
// RUN: fusecc-check %s --precision=tf32 --tile-wgmma=1 --tile-c=16 --tile-rows=4 | FileCheck %s
// RUN: fusecc-check %s --plan-epilogue-stats=false | FileCheck %s
// RUN: fusecc-check %s --precision=bf16 | FileCheck %s
// RUN: fusecc-check %s --precision=fp16 --tile-c=16 --tile-rows=2 | FileCheck %s
// RUN: fusecc %s --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: fusecc %s --emit=plan --plan-epilogue-stats=false | FileCheck %s --check-prefix=NOEPI
// Normalisations over whole channel groups of a convolution's result take
// their partial statistics from the convolution kernel's epilogue
// (fuse-plan-kernels{epilogue-stats}), in the simulator: groups that
// straddle channel tiles, several W tiles and H blocks of stride phases,
// ragged last rows and tiles, one channel per group, a layer_norm over
// (C, H, W) and one over (H, W) alone, a channel softmax in the producing epilogue, the result also
// read after the normalisation, and values around 1e3 (shifted moments
// and Chan's merge keep every digit). The runs vary the conv paths (FMA,
// mma.sync, wgmma) and tiles; the last run plans without epilogue
// statistics.

// CHECK: @gn_straddle: PASS
// CHECK: @gn_mean_1e3: PASS
// CHECK: @ln_chw: PASS
// CHECK: @instance_3d: PASS
// CHECK: @softmax_then_gn: PASS
// CHECK: @gn_residual: PASS
// CHECK: @ln_spatial_only: PASS
// CHECK-NOT: FAIL

// PLAN-LABEL: plan @gn_straddle
// PLAN: buffer b0 partials f32 x {{[0-9]+}} {{.*}} live in steps 0..1
// PLAN: step 0 gn_straddle_k0 (convolution)
// PLAN: writes b1 (2x24x9x9xf32), partial statistics of 4 groups per sample to b0
// PLAN: step 1 gn_straddle_k1 (normalization: group_norm, 8 sets of 486, partial statistics from gn_straddle_k0's epilogue
// PLAN: reads partial statistics b0
// A layer_norm over H, W alone: one set per channel, through the same
// records (groups = C).
// PLAN-LABEL: plan @ln_spatial_only
// PLAN: partial statistics of 5 groups per sample to b0
// PLAN: (normalization: layer_norm, 15 sets of 35, partial statistics from ln_spatial_only_k0's epilogue
// NOEPI-LABEL: plan @gn_straddle
// NOEPI: step 1 gn_straddle_k1 (normalization: group_norm, 8 sets of 486, one warp per set)
// NOEPI-NOT: epilogue

// 24 channels in 4 groups of 6: 16-channel tiles straddle groups 2 and 3.
func.func @gn_straddle(%x: tensor<2x8x5x5xf32>, %w: tensor<8x24x3x3xf32>, %b: tensor<24xf32>, %g: tensor<24xf32>, %be: tensor<24xf32>) -> tensor<2x24x9x9xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x8x5x5xf32>, tensor<8x24x3x3xf32>, tensor<24xf32>) -> tensor<2x24x9x9xf32>
  %r = fuse.gelu %c : tensor<2x24x9x9xf32>
  %n = fuse.group_norm %r weight(%g : tensor<24xf32>) bias(%be : tensor<24xf32>) {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x24x9x9xf32>
  %s = fuse.silu %n : tensor<2x24x9x9xf32>
  return %s : tensor<2x24x9x9xf32>
}

// A conv bias around 1e3: the normalised values have mean 1e3 and a
// spread near 0.1. Rounding them to f32 (half an ulp of 1e3: 3e-5) already
// costs ~1.3e-4 of the output (rel-L2; the same with and without epilogue
// statistics), hence the stated tolerance; statistics taken as
// E[x^2] - E[x]^2 in f32 would be off by O(1) here.
func.func @gn_mean_1e3(%x: tensor<3x4x4x6xf32>, %w: tensor<4x16x2x2xf32>, %b: tensor<16xf32> {fuse.check.mean = 1000.0 : f64}) -> tensor<3x16x5x7xf32> attributes {fuse.check.rel_tol = 3.0e-4 : f64} {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x4x6xf32>, tensor<4x16x2x2xf32>, tensor<16xf32>) -> tensor<3x16x5x7xf32>
  %n = fuse.group_norm %c {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<3x16x5x7xf32>
  return %n : tensor<3x16x5x7xf32>
}

func.func @ln_chw(%x: tensor<2x4x3x3xf32>, %w: tensor<4x6x3x3xf32>, %g: tensor<6x5x5xf32>, %be: tensor<6x5x5xf32>) -> tensor<2x6x5x5xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x6x3x3xf32>) -> tensor<2x6x5x5xf32>
  %n = fuse.layer_norm %c weight(%g : tensor<6x5x5xf32>) bias(%be : tensor<6x5x5xf32>) {normalized_rank = 3 : i64, epsilon = 1.0e-05 : f64} : tensor<2x6x5x5xf32>
  return %n : tensor<2x6x5x5xf32>
}

// One channel per group (InstanceNorm3d), 3-D, odd sizes.
func.func @instance_3d(%x: tensor<1x4x2x3x3xf32>, %w: tensor<4x5x2x3x2xf32>, %b: tensor<5xf32>) -> tensor<1x5x4x8x7xf32> {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 1, 1>, dilation = array<i64: 1, 1, 1>} : (tensor<1x4x2x3x3xf32>, tensor<4x5x2x3x2xf32>, tensor<5xf32>) -> tensor<1x5x4x8x7xf32>
  %n = fuse.group_norm %c {num_groups = 5 : i64, epsilon = 1.0e-05 : f64} : tensor<1x5x4x8x7xf32>
  %l = fuse.leaky_relu %n {slope = 0.2 : f64} : tensor<1x5x4x8x7xf32>
  return %l : tensor<1x5x4x8x7xf32>
}

func.func @softmax_then_gn(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x2x2xf32>) -> tensor<2x8x4x4xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x2x2xf32>) -> tensor<2x8x4x4xf32>
  %s = fuse.softmax %c {dim = 1 : i64} : tensor<2x8x4x4xf32>
  %n = fuse.group_norm %s {num_groups = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x4x4xf32>
  return %n : tensor<2x8x4x4xf32>
}

func.func @gn_residual(%x: tensor<2x4x3x3xf32>, %w: tensor<4x8x2x2xf32>) -> tensor<2x8x4x4xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x8x2x2xf32>) -> tensor<2x8x4x4xf32>
  %n = fuse.group_norm %c {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<2x8x4x4xf32>
  %a = fuse.add %n, %c : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32> -> tensor<2x8x4x4xf32>
  return %a : tensor<2x8x4x4xf32>
}

func.func @ln_spatial_only(%x: tensor<3x4x3x4xf32>, %w: tensor<4x5x3x3xf32>, %g: tensor<5x7xf32>, %be: tensor<5x7xf32>) -> tensor<3x5x5x7xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<3x4x3x4xf32>, tensor<4x5x3x3xf32>) -> tensor<3x5x5x7xf32>
  %n = fuse.layer_norm %c weight(%g : tensor<5x7xf32>) bias(%be : tensor<5x7xf32>) {normalized_rank = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<3x5x5x7xf32>
  return %n : tensor<3x5x5x7xf32>
}
