// kb2_78: KernelBench level2 problem 78 (ConvTranspose3d_Max_Max_Sum)
//   x = max_pool3d(x, kernel=2)
//   x = max_pool3d(x, kernel=3)
//   x = sum(x, dim=1, keepdim=True)
func.func @kb2_78(%x: tensor<16x32x32x32x32xf32> {fuse.name = "x"}, %weight: tensor<32x64x5x5x5xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}) -> tensor<16x1x10x10x10xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 2, 2, 2>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<16x32x32x32x32xf32>, tensor<32x64x5x5x5xf32>, tensor<64xf32>) -> tensor<16x64x63x63x63xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<16x64x63x63x63xf32> -> tensor<16x64x31x31x31xf32>
  %2 = fuse.max_pool %1 {kernel_size = array<i64: 3, 3, 3>, stride = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0>} : tensor<16x64x31x31x31xf32> -> tensor<16x64x10x10x10xf32>
  %3 = fuse.sum %2 {dims = array<i64: 1>, keepdim = true} : tensor<16x64x10x10x10xf32> -> tensor<16x1x10x10x10xf32>
  return %3 : tensor<16x1x10x10x10xf32>
}
