func.func @f(%x: tensor<1x4x5x5xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>,
         output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<1x4x5x5xf32>, tensor<4x8x3x3xf32>) -> tensor<1x8x7x7xf32>
  %1 = fuse.softmax %0 {dim = 2 : i64} : tensor<1x8x7x7xf32>
  return %1 : tensor<1x8x7x7xf32>
}
