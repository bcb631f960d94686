// rand37_28_layer2d of `bench/random_layers.py --seed 37 --count 100` (issue 37's random
// set), one of the seed-37 graphs under 1.0x torch.compile tf32.
// tuning/h200.json's entries for its convolution were measured on it
// (docs/perf.md 246) and are checked against it
// (test/fusecc/tuning-shipped.test).
func.func @rand37_28_layer2d(%x: tensor<64x384x16x16xf32> {fuse.name = "x"}, %conv_weight: tensor<384x192x5x3xf32> {fuse.name = "conv.weight"}, %conv_bias: tensor<192xf32> {fuse.name = "conv.bias"}) -> tensor<64x192x11x64xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight, %conv_bias {stride = array<i64: 2, 4>, padding = array<i64: 1, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64} : (tensor<64x384x16x16xf32>, tensor<384x192x5x3xf32>, tensor<192xf32>) -> tensor<64x192x33x63xf32>
  %1 = fuse.avg_pool %0 {kernel_size = array<i64: 3, 2>, stride = array<i64: 3, 1>, padding = array<i64: 0, 1>, count_include_pad = false} : tensor<64x192x33x63xf32> -> tensor<64x192x11x64xf32>
  return %1 : tensor<64x192x11x64xf32>
}
