func.func @f(%x: tensor<1x1x2x4xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x1x1048577x4xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1048576, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x1x2x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1048577x4xf32>
  return %0 : tensor<1x1x1048577x4xf32>
}
