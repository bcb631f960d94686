// KernelBench level 2 problem 34: ConvTranspose3d(32->64, k4, s2, p1, bias)
// -> LayerNorm(64) over the LAST dim (W) -> gelu (exact) -> x * 1.0.
func.func @kb2_34(%x: tensor<32x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x4x4x4xf32> {fuse.name = "weight"},
                  %b: tensor<64xf32> {fuse.name = "bias"},
                  %g: tensor<64xf32> {fuse.name = "ln_weight"},
                  %beta: tensor<64xf32> {fuse.name = "ln_bias"})
    -> tensor<32x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<32x32x16x32x32xf32>, tensor<32x64x4x4x4xf32>, tensor<64xf32>)
       -> tensor<32x64x32x64x64xf32>
  %1 = fuse.layer_norm %0 weight(%g : tensor<64xf32>)
         bias(%beta : tensor<64xf32>)
         {normalized_rank = 1 : i64, epsilon = 1.0e-05 : f64}
       : tensor<32x64x32x64x64xf32>
  %2 = fuse.gelu %1 : tensor<32x64x32x64x64xf32>
  %c1 = arith.constant dense<1.0> : tensor<f32>
  %3 = fuse.mul %2, %c1 : tensor<32x64x32x64x64xf32>, tensor<f32>
       -> tensor<32x64x32x64x64xf32>
  return %3 : tensor<32x64x32x64x64xf32>
}
