func.func @f(%x: tensor<1x4x5xf32>, %w: tensor<4x8x3xf32>) -> tensor<1x8x7xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>,
         output_padding = array<i64: 0>, dilation = array<i64: 1>}
       : (tensor<1x4x5xf32>, tensor<4x8x3xf32>) -> tensor<1x8x7xf32>
  %c = arith.constant dense<2.0> : tensor<1x1x1xf32>
  %1 = fuse.mul %0, %c : tensor<1x8x7xf32>, tensor<1x1x1xf32> -> tensor<1x8x7xf32>
  return %1 : tensor<1x8x7xf32>
}
