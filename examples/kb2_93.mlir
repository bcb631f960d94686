// kb2_93: KernelBench level2 problem 93 (ConvTranspose2d_Add_Min_GELU_Multiply)
//   x = x + 0.5
//   x = minimum(x, 0.0)
//   x = gelu(x)
//   x = x * 2.0
func.func @kb2_93(%x: tensor<128x64x64x64xf32> {fuse.name = "x"}, %weight: tensor<64x128x4x4xf32> {fuse.name = "weight"}, %conv_bias: tensor<128xf32> {fuse.name = "conv_bias"}) -> tensor<128x128x130x130xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x64x64x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>) -> tensor<128x128x130x130xf32>
  %1 = arith.constant dense<0.5> : tensor<f32>
  %2 = fuse.add %0, %1 : tensor<128x128x130x130xf32>, tensor<f32> -> tensor<128x128x130x130xf32>
  %3 = arith.constant dense<0.0> : tensor<f32>
  %4 = fuse.minimum %2, %3 : tensor<128x128x130x130xf32>, tensor<f32> -> tensor<128x128x130x130xf32>
  %5 = fuse.gelu %4 : tensor<128x128x130x130xf32>
  %6 = arith.constant dense<2.0> : tensor<f32>
  %7 = fuse.mul %5, %6 : tensor<128x128x130x130xf32>, tensor<f32> -> tensor<128x128x130x130xf32>
  return %7 : tensor<128x128x130x130xf32>
}
