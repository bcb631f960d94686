func.func @stats_used(%x: tensor<2x3x5xf32>, %s: tensor<3xf32>) -> tensor<2x3x5xf32> {
  %0:3 = fuse.batch_norm %x, %s, %s {training = true} : (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<3xf32>, tensor<3xf32>)
  %1 = fuse.reshape %0#1 : tensor<3xf32> -> tensor<3x1xf32>
  %2 = fuse.add %0#0, %1 : tensor<2x3x5xf32>, tensor<3x1xf32> -> tensor<2x3x5xf32>
  return %2 : tensor<2x3x5xf32>
}
