// kb1_65: KernelBench level1 problem 65 (conv_transposed_2D__square_input__asymmetric_kernel)
func.func @kb1_65(%x: tensor<8x64x512x512xf32> {fuse.name = "x"}, %weight: tensor<64x64x3x7xf32> {fuse.name = "weight"}) -> tensor<8x64x514x518xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<8x64x512x512xf32>, tensor<64x64x3x7xf32>) -> tensor<8x64x514x518xf32>
  return %0 : tensor<8x64x514x518xf32>
}
