// kb1_74: KernelBench level1 problem 74 (conv_transposed_1D_dilated)
func.func @kb1_74(%x: tensor<32x32x131072xf32> {fuse.name = "x"}, %weight: tensor<32x64x5xf32> {fuse.name = "weight"}) -> tensor<32x64x131084xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 3>, groups = 1 : i64} : (tensor<32x32x131072xf32>, tensor<32x64x5xf32>) -> tensor<32x64x131084xf32>
  return %0 : tensor<32x64x131084xf32>
}
