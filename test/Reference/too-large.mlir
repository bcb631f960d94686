// Issue 17: fusecc-check refuses graphs too large to simulate before it
// allocates anything (it threw std::length_error or ran out of memory), with
// a located message and a non-zero exit.
// RUN: not fusecc-check %s 2>&1 | FileCheck %s
// RUN: not fusecc-check --reference-only %s 2>&1 | FileCheck %s
// CHECK: too-large.mlir:[[@LINE+6]]:{{[0-9]+}}: error: reference: graph too large to simulate: its tensors up to this 'tensor<4294967296x1x1xf32>' hold more than 1073741824 elements
// CHECK: @huge: FAIL (too large to simulate)
//
// The limits are options: a small graph over --max-elements or --max-macs.
// RUN: not fusecc-check --max-elements=100 %s 2>&1 | FileCheck %s --check-prefix=ELEMS
// RUN: not fusecc-check --max-macs=100 --max-elements=10000000000 %s 2>&1 | FileCheck %s --check-prefix=MACS
func.func @huge(%x: tensor<4294967296x1x1xf32>, %w: tensor<1x1x1xf32>) -> tensor<4294967296x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<4294967296x1x1xf32>, tensor<1x1x1xf32>) -> tensor<4294967296x1x1xf32>
  return %0 : tensor<4294967296x1x1xf32>
}
// ELEMS: error: reference: graph too large to simulate: its tensors up to this 'tensor<4294967296x1x1xf32>' hold more than 100 elements
// MACS: error: 'fuse.conv_transpose' op reference: graph too large to simulate: the convolution takes more than 100 multiply-adds
