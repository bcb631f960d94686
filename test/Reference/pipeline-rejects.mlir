// RUN: not fusecc-check %s 2>&1 | FileCheck %s
// A graph the pipeline rejects makes fusecc-check fail (non-zero exit), with
// the pipeline's diagnostic: a layer_norm over a last dim of 2000 behind a
// convolution needs more accumulators per thread than a block has.

// CHECK: error: 'fuse.kernel' op needs 125 accumulators per thread
// CHECK: FAIL: the pipeline rejected the graph
func.func @f(%x: tensor<1x4x1998xf32>, %w: tensor<4x64x3xf32>) -> tensor<1x64x2000xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x1998xf32>, tensor<4x64x3xf32>) -> tensor<1x64x2000xf32>
  %1 = fuse.layer_norm %0 : tensor<1x64x2000xf32>
  return %1 : tensor<1x64x2000xf32>
}
