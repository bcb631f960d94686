// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=plan | FileCheck %s
// RUN: fusecc %s --precision=tf32 --chip=sm_90a --device=h200 --emit=fused | FileCheck %s --check-prefix=ATTR
// RUN: fusecc %fusecc_src_root/examples/kb2_19.mlir --precision=tf32 --chip=sm_90a --emit=plan | FileCheck %s --check-prefix=FEW
// RUN: fusecc %fusecc_src_root/examples/kb2_61.mlir --precision=tf32 --chip=sm_90a --emit=plan | FileCheck %s --check-prefix=FEW
//
// A normalisation from epilogue statistics with many records per set and
// several blocks per set merges each set's records once, in a launch of
// its own before the normalising one (NormLayout::mergeParts, default
// threshold 1024 records per set), at the shapes of issue 37's rand37_99
// (layer_norm over H x W: 32 sets of 4.7 M, 18432 records per set of
// spatial blocks x tiles on its two-row mma.sync tile, 36816 on wgmma
// before session 37's tiny-reduction rule; 288 blocks per set: every
// block merged all of them) and rand37_63 (group_norm, 2 sets of 6.3 M). The partials
// workspace holds the merged records after the epilogue's: rand37_99
// 32 sets x 17 x 4 values more. kb2_19 and kb2_61 (300-400 records per
// set, 33-39 blocks) merge in every block as before.

// CHECK-LABEL: plan @rand37_99_layer2d: 2 kernels
// CHECK: buffer b0 partials f32 x 2361472
// CHECK: step 1 rand37_99_layer2d_k1 (normalization: layer_norm, 32 sets of 4704778, partial statistics from rand37_99_layer2d_k0's epilogue (18432 per set), 288 blocks per set: combine + normalise, records merged once per set by rand37_99_layer2d_k1_merge (17 blocks per set))
// CHECK-LABEL: plan @rand37_63_layer1d: 2 kernels
// CHECK: (normalization: group_norm, 2 sets of 6291465, {{.*}}, 385 blocks per set: combine + normalise, records merged once per set by rand37_63_layer1d_k1_merge ({{[0-9]+}} blocks per set))

// ATTR: fuse.kernel "rand37_99_layer2d_k1" {{.*}}fuse.plan.merge_records = 1024 : i64

// FEW: (normalization: group_norm, {{.*}} blocks per set: combine + normalise)
// FEW-NOT: merged once

func.func @rand37_99_layer2d(%x: tensor<1x4x512x1536xf32>, %conv_weight: tensor<4x32x1x5xf32>, %conv_bias: tensor<32xf32>, %nw3: tensor<1534x3067xf32>, %nb4: tensor<1534x3067xf32>) -> tensor<1x32x1534x3067xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight, %conv_bias {stride = array<i64: 3, 2>, padding = array<i64: 0, 4>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<1x4x512x1536xf32>, tensor<4x32x1x5xf32>, tensor<32xf32>) -> tensor<1x32x1534x3067xf32>
  %1 = fuse.layer_norm %0 weight(%nw3 : tensor<1534x3067xf32>) bias(%nb4 : tensor<1534x3067xf32>) {normalized_rank = 2 : i64, epsilon = 1.0e-05 : f64} : tensor<1x32x1534x3067xf32>
  return %1 : tensor<1x32x1534x3067xf32>
}

func.func @rand37_63_layer1d(%x: tensor<2x192x1048576xf32>, %conv_weight: tensor<192x3x15xf32>, %nw2: tensor<3xf32>, %nb3: tensor<3xf32>) -> tensor<2x3x2097155xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight {stride = array<i64: 2>, padding = array<i64: 5>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x192x1048576xf32>, tensor<192x3x15xf32>) -> tensor<2x3x2097155xf32>
  %1 = fuse.group_norm %0 weight(%nw2 : tensor<3xf32>) bias(%nb3 : tensor<3xf32>) {num_groups = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x3x2097155xf32>
  %2 = fuse.leaky_relu %1 {slope = 0.01 : f64} : tensor<2x3x2097155xf32>
  return %2 : tensor<2x3x2097155xf32>
}
