func.func @f(%x: tensor<1x4x8xf32>, %w: tensor<4x4x3xf32>) -> tensor<1x4x10xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>} : (tensor<1x4x8xf32>, tensor<4x4x3xf32>) -> tensor<1x4x10xf32>
  %1 = fuse.leaky_relu %0 {slope = 1.0e300} : tensor<1x4x10xf32>
  return %1 : tensor<1x4x10xf32>
}
