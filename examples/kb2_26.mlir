// kb2_26: KernelBench level2 problem 26 (ConvTranspose3d_Add_HardSwish)
//   x = x + add_input  # second graph input, same shape as the conv output
//   x = x * hardswish(x)
func.func @kb2_26(%x: tensor<128x32x16x16x16xf32> {fuse.name = "x"}, %weight: tensor<32x64x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}, %add_input: tensor<128x64x32x32x32xf32> {fuse.name = "add_input"}) -> tensor<128x64x32x32x32xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<128x32x16x16x16xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>) -> tensor<128x64x32x32x32xf32>
  %1 = fuse.add %0, %add_input : tensor<128x64x32x32x32xf32>, tensor<128x64x32x32x32xf32> -> tensor<128x64x32x32x32xf32>
  %2 = fuse.hardswish %1 : tensor<128x64x32x32x32xf32>
  %3 = fuse.mul %1, %2 : tensor<128x64x32x32x32xf32>, tensor<128x64x32x32x32xf32> -> tensor<128x64x32x32x32xf32>
  return %3 : tensor<128x64x32x32x32xf32>
}
