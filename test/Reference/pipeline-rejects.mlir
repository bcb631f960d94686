// RUN: not fusecc-check %s 2>&1 | FileCheck %s
// A graph the pipeline rejects makes fusecc-check fail (non-zero exit), with
// the pipeline's diagnostic: softmax along a middle dim spans several output
// tiles and is not fused.

// CHECK: error: 'fuse.softmax' op along dim 2
// CHECK: FAIL: the pipeline rejected the graph
func.func @softmax_depth(%x: tensor<1x3x2x2x2xf32>, %w: tensor<3x5x3x3x3xf32>)
    -> tensor<1x5x4x4x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<1x3x2x2x2xf32>, tensor<3x5x3x3x3xf32>) -> tensor<1x5x4x4x4xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<1x5x4x4x4xf32>
  return %1 : tensor<1x5x4x4x4xf32>
}
