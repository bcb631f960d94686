// kb2_3: KernelBench level2 problem 3 (ConvTranspose3d_Sum_LayerNorm_AvgPool_GELU)
//   x = x + sum_weight  # scalar parameter, 1.0
//   x = layer_norm(x, normalized_shape=(64,), eps=1e-5, affine)  # over the LAST dim (W_out == 64)
//   x = avg_pool3d(x, kernel=2)
//   x = gelu(x)
func.func @kb2_3(%x: tensor<32x32x16x32x32xf32> {fuse.name = "x"}, %weight: tensor<32x64x3x3x3xf32> {fuse.name = "weight"}, %conv_bias: tensor<64xf32> {fuse.name = "conv_bias"}, %sum_weight: tensor<f32> {fuse.name = "sum_weight"}, %ln_weight: tensor<64xf32> {fuse.name = "ln_weight"}, %ln_bias: tensor<64xf32> {fuse.name = "ln_bias"}) -> tensor<32x64x16x32x32xf32> {
  %0 = fuse.conv_transpose %x, %weight, %conv_bias {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<32x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>) -> tensor<32x64x32x64x64xf32>
  %1 = fuse.add %0, %sum_weight : tensor<32x64x32x64x64xf32>, tensor<f32> -> tensor<32x64x32x64x64xf32>
  %2 = fuse.layer_norm %1 weight(%ln_weight : tensor<64xf32>) bias(%ln_bias : tensor<64xf32>) {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<32x64x32x64x64xf32>
  %3 = fuse.avg_pool %2 {kernel_size = array<i64: 2, 2, 2>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0>} : tensor<32x64x32x64x64xf32> -> tensor<32x64x16x32x32xf32>
  %4 = fuse.gelu %3 : tensor<32x64x16x32x32xf32>
  return %4 : tensor<32x64x16x32x32xf32>
}
