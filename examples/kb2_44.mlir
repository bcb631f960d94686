// kb2_44: KernelBench level2 problem 44 (ConvTranspose2d_Multiply_GlobalAvgPool_GlobalAvgPool_Mean)
//   x = x * 0.5
//   x = mean(x, dim=(2,3), keepdim=True)
//   x = mean(x, dim=(2,3), keepdim=True)
func.func @kb2_44(%x: tensor<16x64x128x128xf32> {fuse.name = "x"}, %weight: tensor<64x128x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<128xf32> {fuse.name = "conv_bias"}) -> tensor<16x128x1x1xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<16x64x128x128xf32>, tensor<64x128x3x3xf32>, tensor<128xf32>) -> tensor<16x128x256x256xf32>
  %1 = arith.constant dense<0.5> : tensor<f32>
  %2 = fuse.mul %0, %1 : tensor<16x128x256x256xf32>, tensor<f32> -> tensor<16x128x256x256xf32>
  %3 = fuse.mean %2 {dims = array<i64: 2, 3>, keepdim = true} : tensor<16x128x256x256xf32> -> tensor<16x128x1x1xf32>
  %4 = fuse.mean %3 {dims = array<i64: 2, 3>, keepdim = true} : tensor<16x128x1x1xf32> -> tensor<16x128x1x1xf32>
  return %4 : tensor<16x128x1x1xf32>
}
