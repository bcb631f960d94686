// kb2_2: KernelBench level2 problem 2 (ConvTranspose2d_BiasAdd_Clamp_Scaling_Clamp_Divide)
//   x = x + bias
//   x = clamp(x, 0.0, 1.0)
//   x = x * 2.0
//   x = clamp(x, 0.0, 1.0)
//   x = x / 2.0
func.func @kb2_2(%x: tensor<128x64x128x128xf32> {fuse.name = "x"}, %weight: tensor<64x64x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}, %bias: tensor<64x1x1xf32> {fuse.name = "bias"}) -> tensor<128x64x256x256xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x64x128x128xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<128x64x256x256xf32>
  %1 = fuse.add %0, %bias : tensor<128x64x256x256xf32>, tensor<64x1x1xf32> -> tensor<128x64x256x256xf32>
  %2 = fuse.clamp %1 {min = 0.0 : f64, max = 1.0 : f64} : tensor<128x64x256x256xf32>
  %3 = arith.constant dense<2.0> : tensor<f32>
  %4 = fuse.mul %2, %3 : tensor<128x64x256x256xf32>, tensor<f32> -> tensor<128x64x256x256xf32>
  %5 = fuse.clamp %4 {min = 0.0 : f64, max = 1.0 : f64} : tensor<128x64x256x256xf32>
  %6 = fuse.div %5, %3 : tensor<128x64x256x256xf32>, tensor<f32> -> tensor<128x64x256x256xf32>
  return %6 : tensor<128x64x256x256xf32>
}
