// kb2_38: KernelBench level2 problem 38 (ConvTranspose3d_AvgPool_Clamp_Softmax_Multiply)
//   prologue: x = avg_pool3d(x, kernel=2)  # on the graph input, before the conv
//   x = clamp(x, 0.0, 1.0)
//   x = softmax(x.view(B, C, -1), dim=2).view(B, C, D, H, W)  # over all spatial positions
//   x = x * scale
func.func @kb2_38(%x: tensor<32x32x32x64x64xf32> {fuse.name = "x"}, %weight: tensor<32x64x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}, %scale: tensor<1x64x1x1x1xf32> {fuse.name = "scale"}) -> tensor<32x64x32x64x64xf32> {
  %0 = fuse.avg_pool %x {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<32x32x32x64x64xf32> -> tensor<32x32x16x32x32xf32>
  %1 = fuse.conv_transpose %0, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<32x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>) -> tensor<32x64x32x64x64xf32>
  %2 = fuse.clamp %1 {min = 0.0 : f64, max = 1.0 : f64} : tensor<32x64x32x64x64xf32>
  %3 = fuse.reshape %2 : tensor<32x64x32x64x64xf32> -> tensor<32x64x131072xf32>
  %4 = fuse.softmax %3 {dim = 2 : i64} : tensor<32x64x131072xf32>
  %5 = fuse.reshape %4 : tensor<32x64x131072xf32> -> tensor<32x64x32x64x64xf32>
  %6 = fuse.mul %5, %scale : tensor<32x64x32x64x64xf32>, tensor<1x64x1x1x1xf32> -> tensor<32x64x32x64x64xf32>
  return %6 : tensor<32x64x32x64x64xf32>
}
