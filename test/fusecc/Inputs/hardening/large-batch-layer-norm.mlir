// Issue 38: a valid graph whose layer_norm sets are too many for epilogue
// statistics (batch 1000: more than 2^28 partial-statistics values).
func.func @large_batch(%x: tensor<1000x1000x16x64x16xf32>, %w: tensor<1000x32x4x3x4xf32>, %d: tensor<64xf32>) -> tensor<1000x256x122x121x64xf32> {
  %0 = fuse.conv_transpose %x, %w {stride = array<i64: 8, 2, 4>, padding = array<i64: 1, 4, 0>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 8 : i64} : (tensor<1000x1000x16x64x16xf32>, tensor<1000x32x4x3x4xf32>) -> tensor<1000x256x122x121x64xf32>
  %1 = fuse.tanh %0 : tensor<1000x256x122x121x64xf32>
  %2 = fuse.rsqrt %1 : tensor<1000x256x122x121x64xf32>
  %3 = fuse.layer_norm %2 {normalized_rank = 4 : i64} : tensor<1000x256x122x121x64xf32>
  %4 = fuse.div %3, %d : tensor<1000x256x122x121x64xf32>, tensor<64xf32> -> tensor<1000x256x122x121x64xf32>
  %5 = fuse.neg %4 : tensor<1000x256x122x121x64xf32>
  return %5 : tensor<1000x256x122x121x64xf32>
}
