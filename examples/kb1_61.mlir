// kb1_61: KernelBench level1 problem 61 (conv_transposed_3D__square_input__square_kernel)
func.func @kb1_61(%x: tensor<8x48x64x64x64xf32> {fuse.name = "x"}, %weight: tensor<48x48x3x3x3xf32> {fuse.name = "weight"}) -> tensor<8x48x66x66x66xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<8x48x64x64x64xf32>, tensor<48x48x3x3x3xf32>) -> tensor<8x48x66x66x66xf32>
  return %0 : tensor<8x48x66x66x66xf32>
}
