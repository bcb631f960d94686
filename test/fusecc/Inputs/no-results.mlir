func.func @f(%x: tensor<1x4x5xf32>) {
  %0 = fuse.relu %x : tensor<1x4x5xf32>
  return
}
