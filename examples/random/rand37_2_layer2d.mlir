// rand37_2_layer2d of `bench/random_layers.py --seed 37 --count 100` (issue 37's random
// set), one of the seed-37 graphs under 1.0x torch.compile tf32.
// tuning/h200.json's entries for its convolution were measured on it
// (docs/perf.md 247) and are checked against it
// (test/fusecc/tuning-shipped.test).
func.func @rand37_2_layer2d(%x: tensor<1x512x512x512xf32> {fuse.name = "x"}, %conv_weight: tensor<512x512x1x1xf32> {fuse.name = "conv.weight"}) -> tensor<1x512x171x1534xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight {stride = array<i64: 1, 3>, padding = array<i64: 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 2>, groups = 1 : i64} : (tensor<1x512x512x512xf32>, tensor<512x512x1x1xf32>) -> tensor<1x512x512x1534xf32>
  %1 = fuse.max_pool %0 {kernel_size = array<i64: 3, 1>, stride = array<i64: 3, 1>, padding = array<i64: 0, 0>, ceil_mode = true} : tensor<1x512x512x1534xf32> -> tensor<1x512x171x1534xf32>
  return %1 : tensor<1x512x171x1534xf32>
}
