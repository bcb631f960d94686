func.func @f(%x: tensor<1x16x1xf32>, %w: tensor<16x16x1xf32>) -> tensor<1x16x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2305843009213693952>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x16x1xf32>, tensor<16x16x1xf32>) -> tensor<1x16x1xf32>
  return %0 : tensor<1x16x1xf32>
}
