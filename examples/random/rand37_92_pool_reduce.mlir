// rand37_92_pool_reduce of `bench/random_layers.py --seed 37 --count 100` (issue 37's random
// set), one of the seed-37 graphs under 1.0x torch.compile tf32.
// tuning/h200.json's entries for its convolution were measured on it
// (docs/perf.md 246-247) and are checked against it
// (test/fusecc/tuning-shipped.test).
func.func @rand37_92_pool_reduce(%x: tensor<128x192x32x32xf32> {fuse.name = "x"}, %conv_weight: tensor<192x192x4x4xf32> {fuse.name = "conv.weight"}) -> tensor<128x192xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<128x192x32x32xf32>, tensor<192x192x4x4xf32>) -> tensor<128x192x64x64xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0>} : tensor<128x192x64x64xf32> -> tensor<128x192x32x32xf32>
  %2 = fuse.mean %1 {dims = array<i64: 2, 3>, keepdim = false} : tensor<128x192x32x32xf32> -> tensor<128x192xf32>
  return %2 : tensor<128x192xf32>
}
