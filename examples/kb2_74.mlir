// kb2_74: KernelBench level2 problem 74 (ConvTranspose3d_LeakyReLU_Multiply_LeakyReLU_Max)
//   x = leaky_relu(x, 0.2)
//   x = x * multiplier
//   x = leaky_relu(x, 0.2)
//   x = max_pool3d(x, kernel=2)
func.func @kb2_74(%x: tensor<16x16x16x32x32xf32> {fuse.name = "x"}, %weight: tensor<16x32x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<32xf32> {fuse.name = "conv_bias"}, %multiplier: tensor<32x1x1x1xf32> {fuse.name = "multiplier"}) -> tensor<16x32x16x32x32xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<16x16x16x32x32xf32>, tensor<16x32x3x3x3xf32>, tensor<32xf32>) -> tensor<16x32x32x64x64xf32>
  %1 = fuse.leaky_relu %0 {slope = 0.2 : f64} : tensor<16x32x32x64x64xf32>
  %2 = fuse.mul %1, %multiplier : tensor<16x32x32x64x64xf32>, tensor<32x1x1x1xf32> -> tensor<16x32x32x64x64xf32>
  %3 = fuse.leaky_relu %2 {slope = 0.2 : f64} : tensor<16x32x32x64x64xf32>
  %4 = fuse.max_pool %3 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<16x32x32x64x64xf32> -> tensor<16x32x16x32x32xf32>
  return %4 : tensor<16x32x16x32x32xf32>
}
