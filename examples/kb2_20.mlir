// KernelBench level 2 problem 20: ConvTranspose3d(32->64, k3, s2, p1, op1,
// bias) -> y = x; x = x + bias[C,1,1,1]; x = x + y; x = x * y; x = x + y.
func.func @kb2_20(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"},
                  %cb: tensor<64xf32> {fuse.name = "conv_bias"},
                  %b: tensor<64x1x1x1xf32> {fuse.name = "bias"})
    -> tensor<16x64x32x64x64xf32> {
  %y = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %0 = fuse.add %y, %b : tensor<16x64x32x64x64xf32>, tensor<64x1x1x1xf32>
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.add %0, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  %2 = fuse.mul %1, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  %3 = fuse.add %2, %y : tensor<16x64x32x64x64xf32>, tensor<16x64x32x64x64xf32>
       -> tensor<16x64x32x64x64xf32>
  return %3 : tensor<16x64x32x64x64xf32>
}
