// kb2_50: KernelBench level2 problem 50 (ConvTranspose3d_Scaling_AvgPool_BiasAdd_Scaling)
//   x = x * scale1  # scalar parameter, 0.5
//   x = avg_pool3d(x, kernel=2)
//   x = x + bias
//   x = x * scale2  # scalar parameter, 1.0
func.func @kb2_50(%x: tensor<128x3x16x32x32xf32> {fuse.name = "x"}, %weight: tensor<3x16x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<16xf32> {fuse.name = "conv_bias"}, %scale1: tensor<f32> {fuse.name = "scale1"}, %bias: tensor<16x1x1x1xf32> {fuse.name = "bias"}, %scale2: tensor<f32> {fuse.name = "scale2"}) -> tensor<128x16x15x31x31xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<128x3x16x32x32xf32>, tensor<3x16x3x3x3xf32>, tensor<16xf32>) -> tensor<128x16x31x63x63xf32>
  %1 = fuse.mul %0, %scale1 : tensor<128x16x31x63x63xf32>, tensor<f32> -> tensor<128x16x31x63x63xf32>
  %2 = fuse.avg_pool %1 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<128x16x31x63x63xf32> -> tensor<128x16x15x31x31xf32>
  %3 = fuse.add %2, %bias : tensor<128x16x15x31x31xf32>, tensor<16x1x1x1xf32> -> tensor<128x16x15x31x31xf32>
  %4 = fuse.mul %3, %scale2 : tensor<128x16x15x31x31xf32>, tensor<f32> -> tensor<128x16x15x31x31xf32>
  return %4 : tensor<128x16x15x31x31xf32>
}
