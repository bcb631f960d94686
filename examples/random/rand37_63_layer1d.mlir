// rand37_63_layer1d of `bench/random_layers.py --seed 37 --count 100` (issue 37's random
// set), one of the seed-37 graphs under 1.0x torch.compile tf32.
// tuning/h200.json's entries for its convolution were measured on it
// (docs/perf.md 247) and are checked against it
// (test/fusecc/tuning-shipped.test).
func.func @rand37_63_layer1d(%x: tensor<2x192x1048576xf32> {fuse.name = "x"}, %conv_weight: tensor<192x3x15xf32> {fuse.name = "conv.weight"}, %nw2: tensor<3xf32> {fuse.name = "nw2"}, %nb3: tensor<3xf32> {fuse.name = "nb3"}) -> tensor<2x3x2097155xf32> {
  %0 = fuse.conv_transpose %x, %conv_weight {stride = array<i64: 2>, padding = array<i64: 5>, output_padding = array<i64: 0>, dilation = array<i64: 1>, groups = 1 : i64} : (tensor<2x192x1048576xf32>, tensor<192x3x15xf32>) -> tensor<2x3x2097155xf32>
  %1 = fuse.group_norm %0 weight(%nw2 : tensor<3xf32>) bias(%nb3 : tensor<3xf32>) {num_groups = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<2x3x2097155xf32>
  %2 = fuse.leaky_relu %1 {slope = 0.01 : f64} : tensor<2x3x2097155xf32>
  return %2 : tensor<2x3x2097155xf32>
}
