// kb1_73: KernelBench level1 problem 73 (conv_transposed_3D_asymmetric_input_square_kernel__strided_padded__grouped)
func.func @kb1_73(%x: tensor<4x32x32x64x128xf32> {fuse.name = "x"}, %weight: tensor<32x32x3x3x3xf32> {fuse.name = "weight"}) -> tensor<4x32x63x127x255xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<4x32x32x64x128xf32>, tensor<32x32x3x3x3xf32>) -> tensor<4x32x63x127x255xf32>
  return %0 : tensor<4x32x63x127x255xf32>
}
