// KernelBench level 1 problem 77: ConvTranspose3d(32->64, k3, s2, p1,
// dilation 2), no bias, no epilogue.
func.func @kb1_77(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"})
    -> tensor<16x64x33x65x65xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>,
         dilation = array<i64: 2, 2, 2>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>)
       -> tensor<16x64x33x65x65xf32>
  return %0 : tensor<16x64x33x65x65xf32>
}
