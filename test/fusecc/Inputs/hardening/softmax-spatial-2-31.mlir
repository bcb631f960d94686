// Issue 38 (round 2): a softmax over the 2^31 positions of a conv_transpose;
// fuse-recompute-conv (tf32) took 78 s counting its multiply-adds.
func.func @softmax_spatial_2_31(%x: tensor<1x4x1073741825xf32>, %w: tensor<4x4x2xf32>) -> tensor<1x4x2147483650xf32> {
  %c = fuse.conv_transpose %x, %w {stride = array<i64: 2>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x1073741825xf32>, tensor<4x4x2xf32>) -> tensor<1x4x2147483650xf32>
  %r = fuse.softmax %c {dim = 2 : i64} : tensor<1x4x2147483650xf32>
  return %r : tensor<1x4x2147483650xf32>
}
