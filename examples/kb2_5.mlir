// kb2_5: KernelBench level2 problem 5 (ConvTranspose2d_Subtract_Tanh)
//   x = x - bias
//   x = tanh(x)
func.func @kb2_5(%x: tensor<32x64x256x256xf32> {fuse.name = "x"}, %weight: tensor<64x64x4x4xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}, %bias: tensor<64x1x1xf32> {fuse.name = "bias"}) -> tensor<32x64x513x513xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<32x64x256x256xf32>, tensor<64x64x4x4xf32>, tensor<64xf32>) -> tensor<32x64x513x513xf32>
  %1 = fuse.sub %0, %bias : tensor<32x64x513x513xf32>, tensor<64x1x1xf32> -> tensor<32x64x513x513xf32>
  %2 = fuse.tanh %1 : tensor<32x64x513x513xf32>
  return %2 : tensor<32x64x513x513xf32>
}
