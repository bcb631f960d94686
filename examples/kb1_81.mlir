// kb1_81: KernelBench level1 problem 81 (conv_transposed_2D_asymmetric_input_square_kernel___dilated____padded____strided__)
func.func @kb1_81(%x: tensor<16x32x64x128xf32> {fuse.name = "x"}, %weight: tensor<32x64x3x3xf32> {fuse.name = "weight"}) -> tensor<16x64x318x638xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 5, 5>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64} : (tensor<16x32x64x128xf32>, tensor<32x64x3x3xf32>) -> tensor<16x64x318x638xf32>
  return %0 : tensor<16x64x318x638xf32>
}
