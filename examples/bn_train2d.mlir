// A GAN generator block in training mode, one bundle: ConvTranspose2d(64,
// 128, k4, s2, p1) with bias, BatchNorm2d(128) in training mode (batch
// statistics, biased variance for normalising; the running mean and the
// running variance, updated with momentum 0.1 and the unbiased variance,
// are outputs too), then ReLU. The convolution's epilogue writes the
// batch statistics' partial records; the plan merges them (a warp per set)
// and normalises in one pass over the convolution's result.
func.func @bn_train2d(%x: tensor<32x64x32x32xf32> {fuse.name = "x"},
                      %w: tensor<64x128x4x4xf32> {fuse.name = "conv.weight"},
                      %b: tensor<128xf32> {fuse.name = "conv.bias"},
                      %g: tensor<128xf32> {fuse.name = "bn.weight"},
                      %be: tensor<128xf32> {fuse.name = "bn.bias"},
                      %rm: tensor<128xf32> {fuse.name = "bn.running_mean"},
                      %rv: tensor<128xf32> {fuse.name = "bn.running_var"})
    -> (tensor<32x128x64x64xf32>, tensor<128xf32>, tensor<128xf32>) {
  %c = fuse.conv_transpose %x, %w, %b {stride = array<i64: 2, 2>,
         padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>,
         dilation = array<i64: 1, 1>}
       : (tensor<32x64x32x32xf32>, tensor<64x128x4x4xf32>, tensor<128xf32>)
       -> tensor<32x128x64x64xf32>
  %y:3 = fuse.batch_norm %c, %rm, %rv weight(%g) bias(%be)
           {training = true, momentum = 0.1 : f64}
       : (tensor<32x128x64x64xf32>, tensor<128xf32>, tensor<128xf32>,
          tensor<128xf32>, tensor<128xf32>)
       -> (tensor<32x128x64x64xf32>, tensor<128xf32>, tensor<128xf32>)
  %r = fuse.relu %y#0 : tensor<32x128x64x64xf32>
  return %r, %y#1, %y#2
      : tensor<32x128x64x64xf32>, tensor<128xf32>, tensor<128xf32>
}
