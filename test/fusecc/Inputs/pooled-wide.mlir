func.func @pooled_wide(%x: tensor<64x64x16x16xf32>, %w: tensor<64x64x4x4xf32>) -> tensor<64x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<64x64x16x16xf32>, tensor<64x64x4x4xf32>) -> tensor<64x64x32x32xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<64x64x32x32xf32> -> tensor<64x64x16x16xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<64x64x16x16xf32> -> tensor<64x64xf32>
  return %2 : tensor<64x64xf32>
}
