// kb2_16: KernelBench level2 problem 16 (ConvTranspose2d_Mish_Add_Hardtanh_Scaling)
//   x = mish(x)
//   x = x + 0.5
//   x = hardtanh(x, -1, 1)
//   x = x * 2.0
func.func @kb2_16(%x: tensor<128x64x128x128xf32> {fuse.name = "x"}, %weight: tensor<64x64x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}) -> tensor<128x64x256x256xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x64x128x128xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<128x64x256x256xf32>
  %1 = fuse.mish %0 : tensor<128x64x256x256xf32>
  %2 = arith.constant dense<0.5> : tensor<f32>
  %3 = fuse.add %1, %2 : tensor<128x64x256x256xf32>, tensor<f32> -> tensor<128x64x256x256xf32>
  %4 = fuse.clamp %3 {min = -1.0 : f64, max = 1.0 : f64} : tensor<128x64x256x256xf32>
  %5 = arith.constant dense<2.0> : tensor<f32>
  %6 = fuse.mul %4, %5 : tensor<128x64x256x256xf32>, tensor<f32> -> tensor<128x64x256x256xf32>
  return %6 : tensor<128x64x256x256xf32>
}
