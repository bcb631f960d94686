// kb1_64: KernelBench level1 problem 64 (conv_transposed_1D)
func.func @kb1_64(%x: tensor<64x128x65536xf32> {fuse.name = "x"}, %weight: tensor<128x128x3xf32> {fuse.name = "weight"}) -> tensor<64x128x65538xf32> {
  %0 = fuse.conv_transpose %x, %weight {stride = array<i64: 1>, padding = array<i64: 0>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<64x128x65536xf32>, tensor<128x128x3xf32>) -> tensor<64x128x65538xf32>
  return %0 : tensor<64x128x65538xf32>
}
