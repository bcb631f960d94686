// KernelBench level 2 problem 19: ConvTranspose2d(64->64, k3, s1, bias)
// -> gelu (exact) -> GroupNorm(8 groups, 64 channels, eps 1e-5, affine).
// The group statistics span blocks: the plan runs the convolution + gelu,
// then the group_norm as partial statistics and a normalising kernel.
func.func @kb2_19(%x: tensor<128x64x256x256xf32> {fuse.name = "x"},
                  %w: tensor<64x64x3x3xf32> {fuse.name = "weight"},
                  %b: tensor<64xf32> {fuse.name = "bias"},
                  %g: tensor<64xf32> {fuse.name = "gn_weight"},
                  %beta: tensor<64xf32> {fuse.name = "gn_bias"})
    -> tensor<128x64x258x258xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 1, 1>,
         padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>}
       : (tensor<128x64x256x256xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>)
       -> tensor<128x64x258x258xf32>
  %1 = fuse.gelu %0 : tensor<128x64x258x258xf32>
  %2 = fuse.group_norm %1 weight(%g : tensor<64xf32>) bias(%beta : tensor<64xf32>)
         {num_groups = 8 : i64, epsilon = 1.0e-05 : f64}
       : tensor<128x64x258x258xf32>
  return %2 : tensor<128x64x258x258xf32>
}
