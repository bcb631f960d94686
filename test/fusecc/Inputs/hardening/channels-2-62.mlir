func.func @f(%x: tensor<1x4611686018427387904x1xf32>, %w: tensor<4611686018427387904x1x1xf32>) -> tensor<1x1x1xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4611686018427387904x1xf32>, tensor<4611686018427387904x1x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}
