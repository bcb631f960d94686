func.func @f(%x: tensor<9223372036854775807x1x129xf32>, %w: tensor<1x1x1xf32>) -> tensor<9223372036854775807x1x129xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<9223372036854775807x1x129xf32>, tensor<1x1x1xf32>) -> tensor<9223372036854775807x1x129xf32>
  return %0 : tensor<9223372036854775807x1x129xf32>
}
