// A 3-D decoder path (U-Net / medical-volume style), one bundle: two
// ConvTranspose3d(k4, s2, p1) layers 32->32->16 channels, each followed by
// group_norm and leaky_relu(0.2). Each group_norm's statistics span blocks,
// so each layer is a convolution kernel, then partial statistics and a
// normalising kernel that also applies the leaky_relu.
func.func @decoder3d(%x: tensor<16x32x8x8x8xf32> {fuse.name = "x"},
                     %w0: tensor<32x32x4x4x4xf32> {fuse.name = "conv0.weight"},
                     %b0: tensor<32xf32> {fuse.name = "conv0.bias"},
                     %g0: tensor<32xf32> {fuse.name = "gn0.weight"},
                     %be0: tensor<32xf32> {fuse.name = "gn0.bias"},
                     %w1: tensor<32x16x4x4x4xf32> {fuse.name = "conv1.weight"},
                     %b1: tensor<16xf32> {fuse.name = "conv1.bias"},
                     %g1: tensor<16xf32> {fuse.name = "gn1.weight"},
                     %be1: tensor<16xf32> {fuse.name = "gn1.bias"})
    -> tensor<16x16x32x32x32xf32> {
  %c0 = fuse.conv_transpose %x, %w0, %b0 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x8x8x8xf32>, tensor<32x32x4x4x4xf32>, tensor<32xf32>) -> tensor<16x32x16x16x16xf32>
  %n0 = fuse.group_norm %c0 weight(%g0 : tensor<32xf32>) bias(%be0 : tensor<32xf32>)
         {num_groups = 8 : i64, epsilon = 1.0e-05 : f64} : tensor<16x32x16x16x16xf32>
  %r0 = fuse.leaky_relu %n0 {slope = 0.2 : f64} : tensor<16x32x16x16x16xf32>
  %c1 = fuse.conv_transpose %r0, %w1, %b1 {stride = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>}
       : (tensor<16x32x16x16x16xf32>, tensor<32x16x4x4x4xf32>, tensor<16xf32>) -> tensor<16x16x32x32x32xf32>
  %n1 = fuse.group_norm %c1 weight(%g1 : tensor<16xf32>) bias(%be1 : tensor<16xf32>)
         {num_groups = 4 : i64, epsilon = 1.0e-05 : f64} : tensor<16x16x32x32x32xf32>
  %r1 = fuse.leaky_relu %n1 {slope = 0.2 : f64} : tensor<16x16x32x32x32xf32>
  return %r1 : tensor<16x16x32x32x32xf32>
}
