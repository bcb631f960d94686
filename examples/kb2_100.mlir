// kb2_100: KernelBench level2 problem 100 (ConvTranspose3d_Clamp_Min_Divide)
//   x = clamp(x, min=-1.0)
//   x = x / 2.0
func.func @kb2_100(%x: tensor<16x64x24x48x48xf32> {fuse.name = "x"}, %weight: tensor<64x128x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<128xf32> {fuse.name = "conv_bias"}) -> tensor<16x128x47x95x95xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<16x64x24x48x48xf32>, tensor<64x128x3x3x3xf32>, tensor<128xf32>) -> tensor<16x128x47x95x95xf32>
  %1 = fuse.clamp %0 {min = -1.0 : f64} : tensor<16x128x47x95x95xf32>
  %2 = arith.constant dense<2.0> : tensor<f32>
  %3 = fuse.div %1, %2 : tensor<16x128x47x95x95xf32>, tensor<f32> -> tensor<16x128x47x95x95xf32>
  return %3 : tensor<16x128x47x95x95xf32>
}
