// RUN: not fusecc-check --precision=fp8 %s 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not fusecc-check --chip=sm_100 %s 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fusecc-check --tile-wgmma=fills-grid %s 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: fusecc-check -v %s | FileCheck %s --check-prefix=STATS
// PREC: fusecc-check: for the --precision option: 'fp8' is not a valid value (expected one of 'ieee', 'tf32', 'bf16', 'fp16', 'f16')
// CHIP: fusecc-check: for the --chip option: 'sm_100' is not a valid value (expected one of 'sm_80', 'sm_90', 'sm_90a')
// WGMMA: fusecc-check: for the --tile-wgmma option: 'fills-grid' is not a valid value (expected one of 'auto', 'never', 'always', 'full-wave', '-1', '0', '1')
// STATS: @tiny: launches 1 blocks {{[0-9]+}} threads/block {{[0-9]+}}
// STATS: @tiny: PASS rel-L2
func.func @tiny(%x: tensor<1x1x1xf32>, %w: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}
