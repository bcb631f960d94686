// RUN: fusecc-check --precision=tf32 %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a %s | FileCheck %s
// RUN: fusecc-check --precision=tf32 --chip=sm_90a --tile-wgmma=always --tile-merge-h %s | FileCheck %s
// RUN: fusecc-check --precision=ieee %s | FileCheck %s
// RUN: fusecc %s --precision=tf32 --emit=plan | FileCheck %s --check-prefix=PLAN
// A channel contraction whose block holds positions past the output's
// edge (3 rows in a block of more) and whose epilogue reads another tensor
// (the add's %a0): the contraction evaluated every slot's epilogue value,
// reading %a0 one row past its end (the simulator's out-of-bounds check;
// graph-fuzzer's 1x1 tail, session 34). Positions past the edge now
// contribute zeros to the lanes' shuffles and read nothing.

// CHECK: @g: PASS
// PLAN: channel contraction: 1 -> 4 channels

func.func @g(%x: tensor<2x1x3x8xf32>, %w: tensor<1x1x1x4xf32>, %a0: tensor<2x1x3x7xf32>, %hw: tensor<4x1x1x1xf32>, %hb: tensor<4xf32>) -> tensor<2x4x3x7xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 4>, output_padding = array<i64: 0, 1>, dilation = array<i64: 1, 2>, groups = 1 : i64} : (tensor<2x1x3x8xf32>, tensor<1x1x1x4xf32>) -> tensor<2x1x3x7xf32>
  %v1 = fuse.add %v0, %a0 : tensor<2x1x3x7xf32>, tensor<2x1x3x7xf32> -> tensor<2x1x3x7xf32>
  %v2 = fuse.clamp %v1 {min = -3.000000 : f64, max = -2.300000 : f64} : tensor<2x1x3x7xf32>
  %v3 = fuse.conv %v2, %hw, %hb {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<2x1x3x7xf32>, tensor<4x1x1x1xf32>, tensor<4xf32>) -> tensor<2x4x3x7xf32>
  %v4 = fuse.silu %v3 : tensor<2x4x3x7xf32>
  return %v4 : tensor<2x4x3x7xf32>
}
