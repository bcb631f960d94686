// RUN: not fusecc-check --precision=fp16 %s 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: fusecc-check -v %s | FileCheck %s --check-prefix=STATS
// PREC: --precision must be 'ieee' or 'tf32'
// STATS: @tiny: launches 1 blocks {{[0-9]+}} threads/block {{[0-9]+}}
// STATS: @tiny: PASS rel-L2
func.func @tiny(%x: tensor<1x1x1xf32>, %w: tensor<1x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>,
         padding = array<i64: 0>, output_padding = array<i64: 0>,
         dilation = array<i64: 1>}
       : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}
