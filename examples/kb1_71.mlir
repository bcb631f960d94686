// kb1_71: KernelBench level1 problem 71 (conv_transposed_2D__asymmetric_input__square_kernel)
func.func @kb1_71(%x: tensor<8x32x512x1024xf32> {fuse.name = "x"}, %weight: tensor<32x32x3x3xf32> {fuse.name = "weight"}) -> tensor<8x32x514x1026xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1, 1>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<8x32x512x1024xf32>, tensor<32x32x3x3xf32>) -> tensor<8x32x514x1026xf32>
  return %0 : tensor<8x32x514x1026xf32>
}
