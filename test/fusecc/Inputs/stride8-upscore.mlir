func.func @stride8(%x: tensor<2x64x32x32xf32>, %w: tensor<64x64x16x16xf32>, %b: tensor<64xf32>) -> tensor<2x64x264x264xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 8, 8>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<2x64x32x32xf32>, tensor<64x64x16x16xf32>, tensor<64xf32>) -> tensor<2x64x264x264xf32>
  return %0 : tensor<2x64x264x264xf32>
}
