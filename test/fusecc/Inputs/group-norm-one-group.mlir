// One-group group norm over a small convolution: its statistics kernel reads
// dynamic shared memory at constant offsets (test/fusecc/ptxas-dynamic-shared.test).
func.func @v_gn_one_group_big(%x: tensor<1x4x30x40xf32> {fuse.name = "x"}, %w: tensor<4x8x4x4xf32> {fuse.name = "weight"}, %gnw: tensor<8xf32> {fuse.name = "gn_weight"}, %gnb: tensor<8xf32> {fuse.name = "gn_bias"}) -> tensor<1x8x60x80xf32> {
  %v0 = fuse.conv_transpose %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64}
       : (tensor<1x4x30x40xf32>, tensor<4x8x4x4xf32>) -> tensor<1x8x60x80xf32>
  %v1 = fuse.group_norm %v0 weight(%gnw : tensor<8xf32>) bias(%gnb : tensor<8xf32>) {num_groups = 1 : i64, epsilon = 1.0e-05 : f64} : tensor<1x8x60x80xf32>
  %v2 = fuse.sigmoid %v1 : tensor<1x8x60x80xf32>
  return %v2 : tensor<1x8x60x80xf32>
}
