func.func @bias_only(%x: tensor<2x3x5xf32>, %s: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0 = fuse.instance_norm %x bias(%s : tensor<3xf32>) : tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
