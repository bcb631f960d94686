// KernelBench level 2 problem 61: ConvTranspose3d(64->128, k3, s1, no bias)
// -> relu -> GroupNorm(8 groups, 128 channels, eps 1e-5, affine).
func.func @kb2_61(%x: tensor<16x64x32x32x32xf32> {fuse.name = "x"},
                  %w: tensor<64x128x3x3x3xf32> {fuse.name = "weight"},
                  %g: tensor<128xf32> {fuse.name = "gn_weight"},
                  %beta: tensor<128xf32> {fuse.name = "gn_bias"})
    -> tensor<16x128x34x34x34xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 1, 1, 1>,
         padding = array<i64: 0, 0, 0>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x64x32x32x32xf32>, tensor<64x128x3x3x3xf32>)
       -> tensor<16x128x34x34x34xf32>
  %1 = fuse.relu %0 : tensor<16x128x34x34x34xf32>
  %2 = fuse.group_norm %1 weight(%g : tensor<128xf32>) bias(%beta : tensor<128xf32>)
         {num_groups = 8 : i64, epsilon = 1.0e-05 : f64}
       : tensor<16x128x34x34x34xf32>
  return %2 : tensor<16x128x34x34x34xf32>
}
