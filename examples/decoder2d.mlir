// A 2-D image decoder (DCGAN-style generator tail), one bundle: three
// ConvTranspose2d(k4, s2, p1) layers 64->48->32->16 channels, each followed by an
// inference BatchNorm (per-channel scale and shift) and ReLU, then Tanh.
// Each layer is one kernel (scale, shift and relu in its epilogue); the
// tanh joins the last one; the activations between layers are the plan's
// intermediate buffers.
func.func @decoder2d(%x: tensor<16x64x8x8xf32> {fuse.name = "x"},
                     %w0: tensor<64x48x4x4xf32> {fuse.name = "conv0.weight"},
                     %b0: tensor<48xf32> {fuse.name = "conv0.bias"},
                     %s0: tensor<48x1x1xf32> {fuse.name = "bn0.scale"},
                     %h0: tensor<48x1x1xf32> {fuse.name = "bn0.shift"},
                     %w1: tensor<48x32x4x4xf32> {fuse.name = "conv1.weight"},
                     %b1: tensor<32xf32> {fuse.name = "conv1.bias"},
                     %s1: tensor<32x1x1xf32> {fuse.name = "bn1.scale"},
                     %h1: tensor<32x1x1xf32> {fuse.name = "bn1.shift"},
                     %w2: tensor<32x16x4x4xf32> {fuse.name = "conv2.weight"},
                     %b2: tensor<16xf32> {fuse.name = "conv2.bias"},
                     %s2: tensor<16x1x1xf32> {fuse.name = "bn2.scale"},
                     %h2: tensor<16x1x1xf32> {fuse.name = "bn2.shift"})
    -> tensor<16x16x64x64xf32> {
  %c0 = fuse.conv_transpose %x, %w0, %b0 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<16x64x8x8xf32>, tensor<64x48x4x4xf32>, tensor<48xf32>) -> tensor<16x48x16x16xf32>
  %m0 = fuse.mul %c0, %s0 : tensor<16x48x16x16xf32>, tensor<48x1x1xf32> -> tensor<16x48x16x16xf32>
  %a0 = fuse.add %m0, %h0 : tensor<16x48x16x16xf32>, tensor<48x1x1xf32> -> tensor<16x48x16x16xf32>
  %r0 = fuse.relu %a0 : tensor<16x48x16x16xf32>
  %c1 = fuse.conv_transpose %r0, %w1, %b1 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<16x48x16x16xf32>, tensor<48x32x4x4xf32>, tensor<32xf32>) -> tensor<16x32x32x32xf32>
  %m1 = fuse.mul %c1, %s1 : tensor<16x32x32x32xf32>, tensor<32x1x1xf32> -> tensor<16x32x32x32xf32>
  %a1 = fuse.add %m1, %h1 : tensor<16x32x32x32xf32>, tensor<32x1x1xf32> -> tensor<16x32x32x32xf32>
  %r1 = fuse.relu %a1 : tensor<16x32x32x32xf32>
  %c2 = fuse.conv_transpose %r1, %w2, %b2 {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>}
       : (tensor<16x32x32x32xf32>, tensor<32x16x4x4xf32>, tensor<16xf32>) -> tensor<16x16x64x64xf32>
  %m2 = fuse.mul %c2, %s2 : tensor<16x16x64x64xf32>, tensor<16x1x1xf32> -> tensor<16x16x64x64xf32>
  %a2 = fuse.add %m2, %h2 : tensor<16x16x64x64xf32>, tensor<16x1x1xf32> -> tensor<16x16x64x64xf32>
  %r2 = fuse.relu %a2 : tensor<16x16x64x64xf32>
  %y = fuse.tanh %r2 : tensor<16x16x64x64xf32>
  return %y : tensor<16x16x64x64xf32>
}
