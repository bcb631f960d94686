// kb1_69: KernelBench level1 problem 69 (conv_transposed_2D__asymmetric_input__asymmetric_kernel)
func.func @kb1_69(%x: tensor<64x64x128x256xf32> {fuse.name = "x"}, %weight: tensor<64x128x3x5xf32> {fuse.name = "weight"}) -> tensor<64x128x130x260xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<64x64x128x256xf32>, tensor<64x128x3x5xf32>) -> tensor<64x128x130x260xf32>
  return %0 : tensor<64x128x130x260xf32>
}
