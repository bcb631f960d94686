// KernelBench level 2 problem 91: ConvTranspose2d(64->128, k4, s2, p1, op1,
// bias) -> softmax over channels -> + bias[C,1,1] -> * 2 -> sigmoid.
func.func @kb2_91(%x: tensor<128x64x64x64xf32> {fuse.name = "x"},
                  %w: tensor<64x128x4x4xf32> {fuse.name = "weight"},
                  %cb: tensor<128xf32> {fuse.name = "conv_bias"},
                  %b: tensor<128x1x1xf32> {fuse.name = "bias"})
    -> tensor<128x128x129x129xf32> {
  %0 = fuse.conv_transpose %x, %w, %cb {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>,
         dilation = array<i64: 1, 1>}
       : (tensor<128x64x64x64xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>)
       -> tensor<128x128x129x129xf32>
  %1 = fuse.softmax %0 {dim = 1 : i64} : tensor<128x128x129x129xf32>
  %2 = fuse.add %1, %b : tensor<128x128x129x129xf32>, tensor<128x1x1xf32>
       -> tensor<128x128x129x129xf32>
  %c2 = arith.constant dense<2.0> : tensor<f32>
  %3 = fuse.mul %2, %c2 : tensor<128x128x129x129xf32>, tensor<f32>
       -> tensor<128x128x129x129xf32>
  %4 = fuse.sigmoid %3 : tensor<128x128x129x129xf32>
  return %4 : tensor<128x128x129x129xf32>
}
