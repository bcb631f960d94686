// kb1_57: KernelBench level1 problem 57 (conv_transposed_2D__square_input__square_kernel)
func.func @kb1_57(%x: tensor<8x64x1024x1024xf32> {fuse.name = "x"}, %weight: tensor<64x64x3x3xf32> {fuse.name = "weight"}) -> tensor<8x64x1026x1026xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<8x64x1024x1024xf32>, tensor<64x64x3x3xf32>) -> tensor<8x64x1026x1026xf32>
  return %0 : tensor<8x64x1026x1026xf32>
}
