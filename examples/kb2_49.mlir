// KernelBench level 2 problem 49: ConvTranspose3d(32->64, k3, s2, p1, op1,
// bias) -> softmax over channels -> sigmoid.
func.func @kb2_49(%x: tensor<16x32x16x32x32xf32> {fuse.name = "x"},
                  %w: tensor<32x64x3x3x3xf32> {fuse.name = "weight"},
                  %b: tensor<64xf32> {fuse.name = "bias"})
    -> tensor<16x64x32x64x64xf32> {
  %0 = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2, 2>,
         padding = array<i64: 1, 1, 1>, output_padding = array<i64: 1, 1, 1>,
         dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x32x32xf32>, tensor<32x64x3x3x3xf32>, tensor<64xf32>)
       -> tensor<16x64x32x64x64xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<16x64x32x64x64xf32>
  %2 = fuse.sigmoid %1 : tensor<16x64x32x64x64xf32>
  return %2 : tensor<16x64x32x64x64xf32>
}
